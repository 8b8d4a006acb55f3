#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
// Debian's libsqlite3-dev (the payment journal's store, issue #36).
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import as a macro.
static inline sqlite3_destructor_type CSQLite_transient(void) { return SQLITE_TRANSIENT; }
#endif
