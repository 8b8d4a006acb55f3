#ifndef CSEKIT_CCSESHIMS_H
#define CSEKIT_CCSESHIMS_H
// Small forwarders for OpenSSL and GMP macros that Swift cannot import, and void* variants of
// byte-taking functions (Swift raw pointers do not convert to uint8_t* without rebinding).
// Every function is a one-line forwarder named CCSEShims_<cfunction>.
#include <stddef.h>
#include <stdint.h>

/// OPENSSL_VERSION_NUMBER of the headers we compiled against.
unsigned long CCSEShims_OPENSSL_VERSION_NUMBER(void);
/// OpenSSL_version_num() of the library we run against.
unsigned long CCSEShims_OpenSSL_version_num(void);
/// OPENSSL_free (a macro).
void CCSEShims_OPENSSL_free(void *ptr);
/// OPENSSL_cleanse with a void* signature: zeroes memory in a way the optimiser keeps.
void CCSEShims_OPENSSL_cleanse(void *ptr, size_t len);
/// CRYPTO_memcmp: constant-time comparison; returns 0 when equal.
int CCSEShims_CRYPTO_memcmp(const void *a, const void *b, size_t len);
/// RAND_bytes with a void* buffer; returns 1 on success.
int CCSEShims_RAND_bytes(void *buf, size_t len);

#endif
