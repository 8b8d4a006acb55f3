// See include/CSQLiteLoader.h. <sqlite3.h> (libsqlite3-dev) gives every function's type, so each
// forwarder and each table slot is checked against SQLite's own declaration at compile time; the
// target links nothing: libsqlite3.so.0 is opened by CSQLiteLoader_load.
#include "CSQLiteLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>

static const char library_name[] = "libsqlite3.so.0";

static struct {
    __typeof__(sqlite3_open_v2) *open_v2;
    __typeof__(sqlite3_close_v2) *close_v2;
    __typeof__(sqlite3_busy_timeout) *busy_timeout;
    __typeof__(sqlite3_extended_result_codes) *extended_result_codes;
    __typeof__(sqlite3_exec) *exec;
    __typeof__(sqlite3_prepare_v2) *prepare_v2;
    __typeof__(sqlite3_finalize) *finalize;
    __typeof__(sqlite3_reset) *reset;
    __typeof__(sqlite3_bind_null) *bind_null;
    __typeof__(sqlite3_bind_int64) *bind_int64;
    __typeof__(sqlite3_bind_text) *bind_text;
    __typeof__(sqlite3_step) *step;
    __typeof__(sqlite3_last_insert_rowid) *last_insert_rowid;
    __typeof__(sqlite3_changes) *changes;
    __typeof__(sqlite3_errstr) *errstr;
    __typeof__(sqlite3_column_int64) *column_int64;
    __typeof__(sqlite3_column_type) *column_type;
    __typeof__(sqlite3_column_text) *column_text;
} lite;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *load_error;

#define CSQLITE_BIND(field)                                        \
    do {                                                           \
        *(void **)(&lite.field) = dlsym(handle, "sqlite3_" #field); \
        if (lite.field == NULL) {                                  \
            load_error = "libsqlite3 lacks sqlite3_" #field;       \
            return;                                                \
        }                                                          \
    } while (0)

static void load(void) {
    // The handle stays open for the life of the process (a journal may be opened at any time).
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        load_error = reason != NULL ? reason : "dlopen failed";
        return;
    }
    CSQLITE_BIND(open_v2);
    CSQLITE_BIND(close_v2);
    CSQLITE_BIND(busy_timeout);
    CSQLITE_BIND(extended_result_codes);
    CSQLITE_BIND(exec);
    CSQLITE_BIND(prepare_v2);
    CSQLITE_BIND(finalize);
    CSQLITE_BIND(reset);
    CSQLITE_BIND(bind_null);
    CSQLITE_BIND(bind_int64);
    CSQLITE_BIND(bind_text);
    CSQLITE_BIND(step);
    CSQLITE_BIND(last_insert_rowid);
    CSQLITE_BIND(changes);
    CSQLITE_BIND(errstr);
    CSQLITE_BIND(column_int64);
    CSQLITE_BIND(column_type);
    CSQLITE_BIND(column_text);
    loaded = 1;
}

int CSQLiteLoader_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *CSQLiteLoader_library_name(void) { return library_name; }

const char *CSQLiteLoader_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

int CSQLiteLoader_open_v2(const char *filename, struct sqlite3 **db, int flags, const char *vfs) {
    return lite.open_v2(filename, db, flags, vfs);
}
int CSQLiteLoader_close_v2(struct sqlite3 *db) { return lite.close_v2(db); }
int CSQLiteLoader_busy_timeout(struct sqlite3 *db, int milliseconds) { return lite.busy_timeout(db, milliseconds); }
int CSQLiteLoader_extended_result_codes(struct sqlite3 *db, int onoff) { return lite.extended_result_codes(db, onoff); }
int CSQLiteLoader_exec(struct sqlite3 *db, const char *sql) { return lite.exec(db, sql, NULL, NULL, NULL); }
int CSQLiteLoader_prepare_v2(struct sqlite3 *db, const char *sql, int bytes, struct sqlite3_stmt **statement, const char **tail) {
    return lite.prepare_v2(db, sql, bytes, statement, tail);
}
int CSQLiteLoader_finalize(struct sqlite3_stmt *statement) { return lite.finalize(statement); }
int CSQLiteLoader_reset(struct sqlite3_stmt *statement) { return lite.reset(statement); }
int CSQLiteLoader_bind_null(struct sqlite3_stmt *statement, int index) { return lite.bind_null(statement, index); }
int CSQLiteLoader_bind_int64(struct sqlite3_stmt *statement, int index, int64_t value) {
    return lite.bind_int64(statement, index, (sqlite3_int64)value);
}
int CSQLiteLoader_bind_text(struct sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return lite.bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}
int CSQLiteLoader_step(struct sqlite3_stmt *statement) { return lite.step(statement); }
int64_t CSQLiteLoader_last_insert_rowid(struct sqlite3 *db) { return (int64_t)lite.last_insert_rowid(db); }
int CSQLiteLoader_changes(struct sqlite3 *db) { return lite.changes(db); }
const char *CSQLiteLoader_errstr(int result) { return lite.errstr(result); }
int64_t CSQLiteLoader_column_int64(struct sqlite3_stmt *statement, int column) {
    return (int64_t)lite.column_int64(statement, column);
}
int CSQLiteLoader_column_type(struct sqlite3_stmt *statement, int column) { return lite.column_type(statement, column); }
const unsigned char *CSQLiteLoader_column_text(struct sqlite3_stmt *statement, int column) {
    return lite.column_text(statement, column);
}
