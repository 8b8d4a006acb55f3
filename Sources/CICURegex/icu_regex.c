// See include/CICURegex.h. This file declares the few ICU types and functions it calls itself, so
// that building CSEValidation needs no ICU headers (libicu-dev): a service that depends only on the
// validation product builds without them (issue #23, point 1). ICU renames every entry point with
// its major version (uregex_open is uregex_open_72 in Debian's libicu72), so the library is found
// at run time: the newest libicui18n.so.NN present, and its NN-suffixed names (or the plain names of
// an ICU built without renaming). When ICU's headers are present, they check these declarations at
// compile time.
#include "CICURegex.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// ICU's C ABI as used here (unicode/utypes.h, unicode/parseerr.h, unicode/uregex.h): UErrorCode is
// an int-sized enum, UChar a 16-bit unit, UBool an 8-bit integer, U_CALLCONV empty on Linux.
typedef int32_t cicu_error;
typedef uint16_t cicu_uchar;
typedef int8_t cicu_bool;
typedef struct URegularExpression URegularExpression;
typedef struct {
    int32_t line;
    int32_t offset;
    cicu_uchar preContext[16];
    cicu_uchar postContext[16];
} CICU_UParseError;
typedef cicu_bool cicu_match_callback(const void *context, int32_t steps);
typedef cicu_bool cicu_find_callback(const void *context, int64_t matchIndex);

enum {
    CICU_ZERO_ERROR = 0,
    CICU_MISSING_RESOURCE_ERROR = 2,
    CICU_MEMORY_ALLOCATION_ERROR = 7,
    // U_REGEX_ERROR_START (0x10300) + 17.
    CICU_REGEX_STACK_OVERFLOW = 0x10311,
};
#define CICU_SUCCESS(x) ((x) <= CICU_ZERO_ERROR)
#define CICU_FAILURE(x) ((x) > CICU_ZERO_ERROR)

// CICU_NO_ICU_HEADERS builds as on a machine without libicu-dev (Examples/run.sh checks it).
#if defined(__has_include) && !defined(CICU_NO_ICU_HEADERS)
#if __has_include(<unicode/uregex.h>)
#include <unicode/parseerr.h>
#include <unicode/uregex.h>
#include <unicode/utypes.h>
_Static_assert((int)U_ZERO_ERROR == (int)CICU_ZERO_ERROR, "U_ZERO_ERROR");
_Static_assert((int)U_MISSING_RESOURCE_ERROR == (int)CICU_MISSING_RESOURCE_ERROR, "U_MISSING_RESOURCE_ERROR");
_Static_assert((int)U_MEMORY_ALLOCATION_ERROR == (int)CICU_MEMORY_ALLOCATION_ERROR, "U_MEMORY_ALLOCATION_ERROR");
_Static_assert((int)U_REGEX_STACK_OVERFLOW == (int)CICU_REGEX_STACK_OVERFLOW, "U_REGEX_STACK_OVERFLOW");
_Static_assert(sizeof(UErrorCode) == sizeof(cicu_error), "UErrorCode");
_Static_assert(sizeof(UChar) == sizeof(cicu_uchar), "UChar");
_Static_assert(sizeof(UBool) == sizeof(cicu_bool), "UBool");
_Static_assert(sizeof(UParseError) == sizeof(CICU_UParseError), "UParseError");
_Static_assert(U_PARSE_CONTEXT_LEN == 16, "U_PARSE_CONTEXT_LEN");
#define CICU_HEADER_MAJOR U_ICU_VERSION_MAJOR_NUM
#endif
#endif

/// The ICU majors tried, newest first (Debian 12 ships 72; ICU 50 is from 2012).
enum { CICU_NEWEST_MAJOR = 99, CICU_OLDEST_MAJOR = 50 };

static char library_name[32] = "libicui18n.so";

static struct {
    URegularExpression *(*open)(const cicu_uchar *, int32_t, uint32_t, CICU_UParseError *, cicu_error *);
    URegularExpression *(*clone)(const URegularExpression *, cicu_error *);
    void (*close)(URegularExpression *);
    int32_t (*groupCount)(URegularExpression *, cicu_error *);
    void (*setText)(URegularExpression *, const cicu_uchar *, int32_t, cicu_error *);
    void (*setRegion64)(URegularExpression *, int64_t, int64_t, cicu_error *);
    void (*useTransparentBounds)(URegularExpression *, cicu_bool, cicu_error *);
    void (*useAnchoringBounds)(URegularExpression *, cicu_bool, cicu_error *);
    void (*setMatchCallback)(URegularExpression *, cicu_match_callback *, const void *, cicu_error *);
    void (*setFindProgressCallback)(URegularExpression *, cicu_find_callback *, const void *, cicu_error *);
    cicu_bool (*findNext)(URegularExpression *, cicu_error *);
    int64_t (*start64)(URegularExpression *, int32_t, cicu_error *);
    int64_t (*end64)(URegularExpression *, int32_t, cicu_error *);
    const char *(*errorName)(cicu_error);
} icu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *load_error;
static char load_error_text[96];

/// Binds `name` with the library's suffix ("_72"), or unsuffixed when the library has no renaming.
static void *bind(void *handle, const char *name, int major) {
    char suffixed[64];
    snprintf(suffixed, sizeof suffixed, "%s_%d", name, major);
    void *symbol = dlsym(handle, suffixed);
    if (symbol == NULL) symbol = dlsym(handle, name);
    if (symbol == NULL) {
        snprintf(load_error_text, sizeof load_error_text, "the ICU library %s lacks %s", library_name, name);
        load_error = load_error_text;
    }
    return symbol;
}

#define CICU_BIND(field, symbol)                                         \
    do {                                                                 \
        *(void **)(&icu.field) = bind(handle, #symbol, major);           \
        if (icu.field == NULL) return;                                   \
    } while (0)

static void *open_library(int major) {
    snprintf(library_name, sizeof library_name, "libicui18n.so.%d", major);
    // RTLD_LOCAL: ICU's symbols stay out of the global namespace (a process may also hold the
    // toolchain's ICU, whose symbols are named differently, or another ICU version).
    return dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
}

static void load(void) {
    void *handle = NULL;
    int major = 0;
#ifdef CICU_HEADER_MAJOR
    // The ICU these sources were checked against comes first.
    major = CICU_HEADER_MAJOR;
    handle = open_library(major);
#endif
    for (int candidate = CICU_NEWEST_MAJOR; handle == NULL && candidate >= CICU_OLDEST_MAJOR; candidate--) {
        major = candidate;
        handle = open_library(candidate);
    }
    if (handle == NULL) {
        snprintf(library_name, sizeof library_name, "libicui18n.so");
        load_error = "no libicui18n.so.NN (ICU 50 to 99) could be opened";
        return;
    }
    CICU_BIND(open, uregex_open);
    CICU_BIND(clone, uregex_clone);
    CICU_BIND(close, uregex_close);
    CICU_BIND(groupCount, uregex_groupCount);
    CICU_BIND(setText, uregex_setText);
    CICU_BIND(setRegion64, uregex_setRegion64);
    CICU_BIND(useTransparentBounds, uregex_useTransparentBounds);
    CICU_BIND(useAnchoringBounds, uregex_useAnchoringBounds);
    CICU_BIND(setMatchCallback, uregex_setMatchCallback);
    CICU_BIND(setFindProgressCallback, uregex_setFindProgressCallback);
    CICU_BIND(findNext, uregex_findNext);
    CICU_BIND(start64, uregex_start64);
    CICU_BIND(end64, uregex_end64);
    CICU_BIND(errorName, u_errorName);
    // The handle stays open for the life of the process (compiled patterns point into it).
    loaded = 1;
}

int CICURegex_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *CICURegex_library_name(void) { return library_name; }

const char *CICURegex_load_error(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

const char *CICURegex_error_name(int32_t status) {
    if (!CICURegex_load()) return "ICU_NOT_LOADED";
    return icu.errorName((cicu_error)status);
}

int CICURegex_is_stack_overflow(int32_t status) { return status == CICU_REGEX_STACK_OVERFLOW; }

struct CICURegex_regex {
    URegularExpression *regex;
    CICURegex_progress progress;
    void *context;
    /// 1 while a search holds this expression (CICURegex_acquire).
    atomic_int in_use;
};

static CICURegex_regex *wrap(URegularExpression *regex, cicu_error *status) {
    if (CICU_FAILURE(*status) || regex == NULL) {
        if (regex != NULL) icu.close(regex);
        if (CICU_SUCCESS(*status)) *status = CICU_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    CICURegex_regex *box = calloc(1, sizeof *box);
    if (box == NULL) {
        icu.close(regex);
        *status = CICU_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    box->regex = regex;
    return box;
}

CICURegex_regex *CICURegex_open(const uint16_t *pattern, int32_t length, int32_t *status) {
    if (!CICURegex_load()) {
        *status = CICU_MISSING_RESOURCE_ERROR;
        return NULL;
    }
    cicu_error code = CICU_ZERO_ERROR;
    CICU_UParseError parseError;
    URegularExpression *regex = icu.open((const cicu_uchar *)pattern, length, 0, &parseError, &code);
    CICURegex_regex *box = wrap(regex, &code);
    *status = (int32_t)code;
    return box;
}

CICURegex_regex *CICURegex_clone(const CICURegex_regex *original, int32_t *status) {
    cicu_error code = CICU_ZERO_ERROR;
    URegularExpression *regex = icu.clone(original->regex, &code);
    CICURegex_regex *box = wrap(regex, &code);
    *status = (int32_t)code;
    return box;
}

CICURegex_regex *CICURegex_acquire(CICURegex_regex *regex, int32_t *status) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&regex->in_use, &expected, 1)) {
        *status = CICU_ZERO_ERROR;
        return regex;
    }
    return CICURegex_clone(regex, status);
}

void CICURegex_release(CICURegex_regex *regex, CICURegex_regex *used) {
    if (used != regex) {
        CICURegex_close(used);
        return;
    }
    // Nothing of the finished search stays reachable: not the caller's text, not its budget.
    static const cicu_uchar empty[1] = {0};
    cicu_error code = CICU_ZERO_ERROR;
    icu.setText(regex->regex, empty, 0, &code);
    code = CICU_ZERO_ERROR;
    icu.setMatchCallback(regex->regex, NULL, NULL, &code);
    code = CICU_ZERO_ERROR;
    icu.setFindProgressCallback(regex->regex, NULL, NULL, &code);
    regex->progress = NULL;
    regex->context = NULL;
    atomic_store(&regex->in_use, 0);
}

void CICURegex_close(CICURegex_regex *regex) {
    if (regex == NULL) return;
    icu.close(regex->regex);
    free(regex);
}

int32_t CICURegex_group_count(CICURegex_regex *regex, int32_t *status) {
    cicu_error code = CICU_ZERO_ERROR;
    int32_t count = icu.groupCount(regex->regex, &code);
    *status = (int32_t)code;
    return count;
}

static cicu_bool match_progress(const void *context, int32_t steps) {
    (void)steps;
    const CICURegex_regex *regex = context;
    return regex->progress(regex->context) ? 1 : 0;
}

static cicu_bool find_progress(const void *context, int64_t matchIndex) {
    (void)matchIndex;
    const CICURegex_regex *regex = context;
    return regex->progress(regex->context) ? 1 : 0;
}

int32_t CICURegex_prepare(
    CICURegex_regex *regex, const uint16_t *text, int32_t length, int32_t start,
    CICURegex_progress progress, void *context) {
    cicu_error code = CICU_ZERO_ERROR;
    regex->progress = progress;
    regex->context = context;
    icu.setText(regex->regex, (const cicu_uchar *)text, length, &code);
    icu.setRegion64(regex->regex, start, length, &code);
    icu.setMatchCallback(regex->regex, match_progress, regex, &code);
    icu.setFindProgressCallback(regex->regex, find_progress, regex, &code);
    icu.useTransparentBounds(regex->regex, 1, &code);
    icu.useAnchoringBounds(regex->regex, 0, &code);
    return (int32_t)code;
}

int CICURegex_find_next(CICURegex_regex *regex, int32_t *status) {
    cicu_error code = CICU_ZERO_ERROR;
    cicu_bool found = icu.findNext(regex->regex, &code);
    *status = (int32_t)code;
    return found && CICU_SUCCESS(code) ? 1 : 0;
}

int64_t CICURegex_start(CICURegex_regex *regex, int32_t group, int32_t *status) {
    cicu_error code = CICU_ZERO_ERROR;
    int64_t start = icu.start64(regex->regex, group, &code);
    *status = (int32_t)code;
    return start;
}

int64_t CICURegex_end(CICURegex_regex *regex, int32_t group, int32_t *status) {
    cicu_error code = CICU_ZERO_ERROR;
    int64_t end = icu.end64(regex->regex, group, &code);
    *status = (int32_t)code;
    return end;
}
