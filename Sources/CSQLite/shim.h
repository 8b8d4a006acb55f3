#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
// Debian's libsqlite3-dev: the payment journal's types and constants (issue #36). The library is
// not linked: CSQLiteLoader opens libsqlite3.so.0 on first use and forwards every call.
#include <sqlite3.h>
#endif
