// See include/CICURegex.h. ICU's headers rename every entry point with the major version
// (uregex_open is uregex_open_72), so dlsym looks up the same renamed names the headers declare.
#include "CICURegex.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unicode/uregex.h>
#include <unicode/utypes.h>

#define CICU_STRING2(x) #x
#define CICU_STRING(x) CICU_STRING2(x)

static const char library_name[] = "libicui18n.so." U_ICU_VERSION_SHORT;

static struct {
    __typeof__(uregex_open) *open;
    __typeof__(uregex_clone) *clone;
    __typeof__(uregex_close) *close;
    __typeof__(uregex_groupCount) *groupCount;
    __typeof__(uregex_setText) *setText;
    __typeof__(uregex_setRegion64) *setRegion64;
    __typeof__(uregex_useTransparentBounds) *useTransparentBounds;
    __typeof__(uregex_useAnchoringBounds) *useAnchoringBounds;
    __typeof__(uregex_setMatchCallback) *setMatchCallback;
    __typeof__(uregex_setFindProgressCallback) *setFindProgressCallback;
    __typeof__(uregex_findNext) *findNext;
    __typeof__(uregex_start64) *start64;
    __typeof__(uregex_end64) *end64;
    __typeof__(u_errorName) *errorName;
} icu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *load_error;

#define CICU_BIND(field, symbol)                                                   \
    do {                                                                           \
        *(void **)(&icu.field) = dlsym(handle, CICU_STRING(symbol));               \
        if (icu.field == NULL) {                                                   \
            load_error = "the ICU library lacks " CICU_STRING(symbol);             \
            return;                                                                \
        }                                                                          \
    } while (0)

static void load(void) {
    // RTLD_LOCAL: ICU's symbols stay out of the global namespace (a process may also hold the
    // toolchain's ICU, whose symbols are named differently, or another ICU version).
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        load_error = reason != NULL ? reason : "dlopen failed";
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
    return icu.errorName((UErrorCode)status);
}

int CICURegex_is_stack_overflow(int32_t status) { return status == U_REGEX_STACK_OVERFLOW; }

struct CICURegex_regex {
    URegularExpression *regex;
    CICURegex_progress progress;
    void *context;
    /// 1 while a search holds this expression (CICURegex_acquire).
    atomic_int in_use;
};

static CICURegex_regex *wrap(URegularExpression *regex, UErrorCode *status) {
    if (U_FAILURE(*status) || regex == NULL) {
        if (regex != NULL) icu.close(regex);
        if (U_SUCCESS(*status)) *status = U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    CICURegex_regex *box = calloc(1, sizeof *box);
    if (box == NULL) {
        icu.close(regex);
        *status = U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    box->regex = regex;
    return box;
}

CICURegex_regex *CICURegex_open(const uint16_t *pattern, int32_t length, int32_t *status) {
    if (!CICURegex_load()) {
        *status = U_MISSING_RESOURCE_ERROR;
        return NULL;
    }
    UErrorCode code = U_ZERO_ERROR;
    UParseError parseError;
    URegularExpression *regex = icu.open((const UChar *)pattern, length, 0, &parseError, &code);
    CICURegex_regex *box = wrap(regex, &code);
    *status = (int32_t)code;
    return box;
}

CICURegex_regex *CICURegex_clone(const CICURegex_regex *original, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *regex = icu.clone(original->regex, &code);
    CICURegex_regex *box = wrap(regex, &code);
    *status = (int32_t)code;
    return box;
}

CICURegex_regex *CICURegex_acquire(CICURegex_regex *regex, int32_t *status) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&regex->in_use, &expected, 1)) {
        *status = U_ZERO_ERROR;
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
    static const UChar empty[1] = {0};
    UErrorCode code = U_ZERO_ERROR;
    icu.setText(regex->regex, empty, 0, &code);
    code = U_ZERO_ERROR;
    icu.setMatchCallback(regex->regex, NULL, NULL, &code);
    code = U_ZERO_ERROR;
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
    UErrorCode code = U_ZERO_ERROR;
    int32_t count = icu.groupCount(regex->regex, &code);
    *status = (int32_t)code;
    return count;
}

static UBool U_CALLCONV match_progress(const void *context, int32_t steps) {
    (void)steps;
    const CICURegex_regex *regex = context;
    return regex->progress(regex->context) ? 1 : 0;
}

static UBool U_CALLCONV find_progress(const void *context, int64_t matchIndex) {
    (void)matchIndex;
    const CICURegex_regex *regex = context;
    return regex->progress(regex->context) ? 1 : 0;
}

int32_t CICURegex_prepare(
    CICURegex_regex *regex, const uint16_t *text, int32_t length, int32_t start,
    CICURegex_progress progress, void *context) {
    UErrorCode code = U_ZERO_ERROR;
    regex->progress = progress;
    regex->context = context;
    icu.setText(regex->regex, (const UChar *)text, length, &code);
    icu.setRegion64(regex->regex, start, length, &code);
    icu.setMatchCallback(regex->regex, match_progress, regex, &code);
    icu.setFindProgressCallback(regex->regex, find_progress, regex, &code);
    icu.useTransparentBounds(regex->regex, 1, &code);
    icu.useAnchoringBounds(regex->regex, 0, &code);
    return (int32_t)code;
}

int CICURegex_find_next(CICURegex_regex *regex, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UBool found = icu.findNext(regex->regex, &code);
    *status = (int32_t)code;
    return found && U_SUCCESS(code) ? 1 : 0;
}

int64_t CICURegex_start(CICURegex_regex *regex, int32_t group, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    int64_t start = icu.start64(regex->regex, group, &code);
    *status = (int32_t)code;
    return start;
}

int64_t CICURegex_end(CICURegex_regex *regex, int32_t group, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    int64_t end = icu.end64(regex->regex, group, &code);
    *status = (int32_t)code;
    return end;
}
