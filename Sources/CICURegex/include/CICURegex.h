#ifndef CSEKIT_CICUREGEX_H
#define CSEKIT_CICUREGEX_H
// ICU's C regular-expression API (uregex), loaded on first use (issue #16, "Start-up").
//
// The ICU fallback of RegexPattern used to run on Foundation's NSRegularExpression, which made
// every program that links CSEValidation link Foundation and ICU: for `cse` that was 60 of its 80
// MB and most of the relocations and page faults of a one-shot run, paid even when no pattern
// needs ICU (the built-in products never do). This target calls the same ICU C functions that
// swift-corelibs-foundation's CFRegularExpression calls, but from Debian's libicu, opened with
// dlopen(3) the first time a pattern needs it: a process that never compiles such a pattern never
// maps ICU at all.
//
// Neither this header nor icu_regex.c needs ICU's headers (libicu-dev): the few types and
// functions used are declared in icu_regex.c, and checked against ICU's headers when they are
// present at build time. So a package that depends only on CSEKit's validation product builds
// without them (Swift code that also imports Foundation sees the toolchain's own ICU module).
// Status values are ICU UErrorCode values (0 is success, > 0 a failure).
#include <stdint.h>

/// One compiled ICU regular expression (a URegularExpression and the progress hook of its
/// current search). A search changes its state: share the compiled form only through
/// CICURegex_acquire (or CICURegex_clone).
typedef struct CICURegex_regex CICURegex_regex;

/// Called every 10,000 backtracking steps of a match attempt and whenever a search moves its start
/// position; returns nonzero to go on, zero to stop the search (ICU then reports
/// U_REGEX_STOPPED_BY_CALLER).
typedef int (*CICURegex_progress)(void *context);

/// Opens the ICU library once per process (thread-safe). Returns 1 when its regex functions are
/// available, 0 otherwise (see CICURegex_load_error).
int CICURegex_load(void);
/// The library file CICURegex_load opened, e.g. "libicui18n.so.72": the major version of ICU's
/// headers when they were present at build time, else the newest libicui18n.so.NN found (NN from
/// 99 down to 50). Before a load, or when none opened, "libicui18n.so".
const char *CICURegex_library_name(void);
/// Why CICURegex_load failed (dlerror text), or NULL.
const char *CICURegex_load_error(void);
/// ICU's name of a status, e.g. "U_REGEX_RULE_SYNTAX" (u_errorName); "ICU_NOT_LOADED" before a
/// successful CICURegex_load.
const char *CICURegex_error_name(int32_t status);

/// Whether `status` is ICU's U_REGEX_STACK_OVERFLOW (a match that needs more backtracking memory
/// than ICU's default limit).
int CICURegex_is_stack_overflow(int32_t status);

/// Compiles a UTF-16 pattern with no flags (uregex_open). NULL on failure, with *status set.
/// Requires a successful CICURegex_load.
CICURegex_regex *CICURegex_open(const uint16_t *pattern, int32_t length, int32_t *status);
/// An independent copy for one search (uregex_clone is safe on a shared original).
CICURegex_regex *CICURegex_clone(const CICURegex_regex *regex, int32_t *status);
/// The expression to run one search on: `regex` itself when no other search holds it (an atomic
/// flag, as CFRegularExpression checks out its expression), else a clone. Pass the result back to
/// CICURegex_release. NULL on failure, with *status set.
CICURegex_regex *CICURegex_acquire(CICURegex_regex *regex, int32_t *status);
/// Ends a search begun with CICURegex_acquire: clears the text and callbacks of `regex` and frees
/// it for the next search, or closes the clone.
void CICURegex_release(CICURegex_regex *regex, CICURegex_regex *used);
/// Frees a compiled expression (NULL is allowed).
void CICURegex_close(CICURegex_regex *regex);
/// The number of capture groups of the pattern.
int32_t CICURegex_group_count(CICURegex_regex *regex, int32_t *status);

/// Prepares a search as NSRegularExpression's enumerateMatches does with the options
/// reportProgress, withTransparentBounds and withoutAnchoringBounds: the text is all `length`
/// units (which must stay valid until the search ends), the region starts at `start`, and both of
/// ICU's progress callbacks call `progress(context)`. Returns the status.
int32_t CICURegex_prepare(
    CICURegex_regex *regex, const uint16_t *text, int32_t length, int32_t start,
    CICURegex_progress progress, void *context);
/// The next match of the prepared search (uregex_findNext): 1 when found.
int CICURegex_find_next(CICURegex_regex *regex, int32_t *status);
/// The start of capture group `group` of the current match (0 is the whole match), -1 when the
/// group did not take part.
int64_t CICURegex_start(CICURegex_regex *regex, int32_t group, int32_t *status);
/// The end of capture group `group` of the current match, -1 when it did not take part.
int64_t CICURegex_end(CICURegex_regex *regex, int32_t group, int32_t *status);

#endif
