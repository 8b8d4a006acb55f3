#include "CCSEShims.h"
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

unsigned long CCSEShims_OPENSSL_VERSION_NUMBER(void) { return OPENSSL_VERSION_NUMBER; }
unsigned long CCSEShims_OpenSSL_version_num(void) { return OpenSSL_version_num(); }
void CCSEShims_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
void CCSEShims_OPENSSL_cleanse(void *ptr, size_t len) { OPENSSL_cleanse(ptr, len); }
int CCSEShims_CRYPTO_memcmp(const void *a, const void *b, size_t len) { return CRYPTO_memcmp(a, b, len); }
int CCSEShims_RAND_bytes(void *buf, size_t len) {
    if (len > INT_MAX) return 0;
    return RAND_bytes((unsigned char *)buf, (int)len);
}
