#include "CCSEShims.h"
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/evp.h>

unsigned long CCSEShims_OPENSSL_VERSION_NUMBER(void) { return OPENSSL_VERSION_NUMBER; }
unsigned long CCSEShims_OpenSSL_version_num(void) { return OpenSSL_version_num(); }
void CCSEShims_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
void CCSEShims_OPENSSL_cleanse(void *ptr, size_t len) { OPENSSL_cleanse(ptr, len); }
int CCSEShims_CRYPTO_memcmp(const void *a, const void *b, size_t len) { return CRYPTO_memcmp(a, b, len); }
int CCSEShims_RAND_bytes(void *buf, size_t len) {
    if (len > INT_MAX) return 0;
    return RAND_bytes((unsigned char *)buf, (int)len);
}
int CCSEShims_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }
int CCSEShims_EVP_PKEY_RSA(void) { return EVP_PKEY_RSA; }
void CCSEShims_OPENSSL_clear_free(void *ptr, size_t len) { OPENSSL_clear_free(ptr, len); }
void *CCSEShims_d2i_PrivateKey(int type, const void *der, long len, long *consumed) {
    const unsigned char *p = (const unsigned char *)der;
    EVP_PKEY *key = d2i_PrivateKey(type, NULL, &p, len);
    *consumed = key ? (long)(p - (const unsigned char *)der) : 0;
    return key;
}
