#ifndef CSEKIT_CGMP_SHIM_H
#define CSEKIT_CGMP_SHIM_H
// GMP (libgmp-dev). Only the __gmpz_* / __gmpn_* names import into Swift; see CCSEShims for macros.
#include <gmp.h>
#endif
