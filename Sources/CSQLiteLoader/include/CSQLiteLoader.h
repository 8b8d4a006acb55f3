#ifndef CSEKIT_CSQLITELOADER_H
#define CSEKIT_CSQLITELOADER_H
// Debian's libsqlite3 for the payment journal (issue #36), opened with dlopen(3) on first use.
//
// Linking libsqlite3 into `cse` added about 0.4 MB of resident memory to every one-shot command
// (`cse seal` included, which never journals), against a 16 MB gate with 0.3 MB of headroom
// (Benchmarks/README.md). As CCurl and CICURegex do for libcurl and ICU, this target opens
// libsqlite3.so.0 the first time a journal is opened (CSQLiteLoader_load), and only then.
//
// The types and constants come from the CSQLite system-library target (Debian's <sqlite3.h>,
// libsqlite3-dev), which no longer links the library; Swift calls only the CSQLiteLoader_
// functions below, each forwarding to the function of the same name without the prefix in the
// loaded library (the .c file checks every signature against <sqlite3.h>). The handles are
// declared opaque here so that this header does not include <sqlite3.h> a second time.
#include <stdint.h>

struct sqlite3;
struct sqlite3_stmt;

/// Opens libsqlite3.so.0 once per process (thread-safe) and resolves the functions below.
/// Returns 1 when they are all available, 0 otherwise (see CSQLiteLoader_load_error).
int CSQLiteLoader_load(void);
/// The library file CSQLiteLoader_load opens: "libsqlite3.so.0".
const char *CSQLiteLoader_library_name(void);
/// Why CSQLiteLoader_load failed (dlerror text, or the missing function's name), or NULL.
const char *CSQLiteLoader_load_error(void);

// Forwarders: each requires a successful CSQLiteLoader_load (sqlite3(3) documents each).
int CSQLiteLoader_open_v2(const char *filename, struct sqlite3 **db, int flags, const char *vfs);
int CSQLiteLoader_close_v2(struct sqlite3 *db);
int CSQLiteLoader_busy_timeout(struct sqlite3 *db, int milliseconds);
int CSQLiteLoader_extended_result_codes(struct sqlite3 *db, int onoff);
/// sqlite3_exec without a callback or error message.
int CSQLiteLoader_exec(struct sqlite3 *db, const char *sql);
int CSQLiteLoader_prepare_v2(struct sqlite3 *db, const char *sql, int bytes, struct sqlite3_stmt **statement, const char **tail);
int CSQLiteLoader_finalize(struct sqlite3_stmt *statement);
int CSQLiteLoader_reset(struct sqlite3_stmt *statement);
int CSQLiteLoader_bind_null(struct sqlite3_stmt *statement, int index);
int CSQLiteLoader_bind_int64(struct sqlite3_stmt *statement, int index, int64_t value);
/// sqlite3_bind_text with SQLITE_TRANSIENT (SQLite copies the text before it returns).
int CSQLiteLoader_bind_text(struct sqlite3_stmt *statement, int index, const char *text, int bytes);
int CSQLiteLoader_step(struct sqlite3_stmt *statement);
int64_t CSQLiteLoader_last_insert_rowid(struct sqlite3 *db);
int CSQLiteLoader_changes(struct sqlite3 *db);
const char *CSQLiteLoader_errstr(int result);
int64_t CSQLiteLoader_column_int64(struct sqlite3_stmt *statement, int column);
int CSQLiteLoader_column_type(struct sqlite3_stmt *statement, int column);
const unsigned char *CSQLiteLoader_column_text(struct sqlite3_stmt *statement, int column);

#endif
