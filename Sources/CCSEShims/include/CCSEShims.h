#ifndef CSEKIT_CCSESHIMS_H
#define CSEKIT_CCSESHIMS_H
// The C that Swift cannot do itself, and nothing else (issue #12):
//  - one-line forwarders named CCSEShims_<cfunction>: OpenSSL and GMP macros that Swift cannot
//    import, void* variants of byte-taking functions (Swift raw pointers do not convert to
//    uint8_t* without rebinding), and OpenSSL's low-level SHA API, deprecated in OpenSSL 3 (a
//    direct call from Swift would warn; the forwarders are compiled with
//    OPENSSL_SUPPRESS_DEPRECATED). The algorithms built on them (MGF1, HMAC) are Swift, in
//    CSECrypto;
//  - the interrupt deferral of `cse` (CCSEShims_defer_interrupts and the output sections): its
//    signal handler must be async-signal-safe, which Swift code cannot promise (the runtime may
//    allocate, take locks or retain), so the handler and the atomic word it shares with the
//    sections are C.
#include <stddef.h>
#include <stdint.h>
// SHA_CTX, SHA256_CTX and SHA512_CTX, for the forwarders below. COpenSSL's header reaches the same
// file through <openssl/x509.h>; Swift sees one type for each.
#include <openssl/sha.h>

/// OPENSSL_VERSION_NUMBER of the headers we compiled against.
unsigned long CCSEShims_OPENSSL_VERSION_NUMBER(void);
/// OpenSSL_version_num() of the library we run against.
unsigned long CCSEShims_OpenSSL_version_num(void);
/// OPENSSL_free (a macro).
void CCSEShims_OPENSSL_free(void *ptr);
/// CRYPTO_memcmp: constant-time comparison; returns 0 when equal.
int CCSEShims_CRYPTO_memcmp(const void *a, const void *b, size_t len);
/// RAND_bytes with a void* buffer; returns 1 on success.
int CCSEShims_RAND_bytes(void *buf, size_t len);
/// EVP_PKEY_KEYPAIR (a compound macro): the selection for a full key pair in EVP_PKEY_fromdata
/// and OSSL_ENCODER_CTX_new_for_pkey.
int CCSEShims_EVP_PKEY_KEYPAIR(void);
/// EVP_PKEY_RSA (a macro aliasing NID_rsaEncryption).
int CCSEShims_EVP_PKEY_RSA(void);
/// OPENSSL_clear_free (a macro): zeroes `len` bytes at `ptr`, then frees it.
void CCSEShims_OPENSSL_clear_free(void *ptr, size_t len);
/// d2i_PrivateKey with a void* input buffer; `*consumed` receives the number of bytes read.
void *CCSEShims_d2i_PrivateKey(int type, const void *der, long len, long *consumed);
/// d2i_PUBKEY with a void* input buffer; `*consumed` receives the number of bytes read.
void *CCSEShims_d2i_PUBKEY(const void *der, long len, long *consumed);
/// EVP_PKEY_EC (a macro aliasing NID_X9_62_id_ecPublicKey).
int CCSEShims_EVP_PKEY_EC(void);
/// The STACK_OF(X509) and STACK_OF(CMS_SignerInfo) macros (sk_*_num, sk_*_value, sk_X509_pop_free
/// with X509_free, sk_X509_new_null, sk_X509_push), with void* stacks and elements.
int CCSEShims_sk_X509_num(const void *stack);
void *CCSEShims_sk_X509_value(const void *stack, int index);
void CCSEShims_sk_X509_pop_free(void *stack);
void *CCSEShims_sk_X509_new_null(void);
int CCSEShims_sk_X509_push(void *stack, void *certificate);
int CCSEShims_sk_CMS_SignerInfo_num(const void *stack);
void *CCSEShims_sk_CMS_SignerInfo_value(const void *stack, int index);
/// The low-level SHA API (FIPS 180-4), deprecated in OpenSSL 3 but the same assembly as EVP
/// without its per-call provider dispatch; its contexts can be copied as plain structs, which MGF1
/// uses to restart every block from the seed's midstate. Each returns 1 on success, 0 on failure.
int CCSEShims_SHA1_Init(SHA_CTX *c);
int CCSEShims_SHA1_Update(SHA_CTX *c, const void *data, size_t len);
int CCSEShims_SHA1_Final(unsigned char *md, SHA_CTX *c);
int CCSEShims_SHA256_Init(SHA256_CTX *c);
int CCSEShims_SHA256_Update(SHA256_CTX *c, const void *data, size_t len);
int CCSEShims_SHA256_Final(unsigned char *md, SHA256_CTX *c);
int CCSEShims_SHA384_Init(SHA512_CTX *c);
int CCSEShims_SHA384_Update(SHA512_CTX *c, const void *data, size_t len);
int CCSEShims_SHA384_Final(unsigned char *md, SHA512_CTX *c);
int CCSEShims_SHA512_Init(SHA512_CTX *c);
int CCSEShims_SHA512_Update(SHA512_CTX *c, const void *data, size_t len);
int CCSEShims_SHA512_Final(unsigned char *md, SHA512_CTX *c);

/// Makes SIGINT, SIGTERM and SIGHUP wait for output sections: a signal that arrives while no
/// section runs ends the process at once (as by default); one that arrives during a section
/// ends it, by the same signal, when the last section ends; a second one ends it at once.
/// Signals the process inherited as ignored stay ignored. Returns the number of handlers set.
int CCSEShims_defer_interrupts(void);
/// Starts an output section (a write that must not be cut by a signal); sections may nest and
/// run on several threads.
void CCSEShims_output_section_begin(void);
/// Ends an output section; delivers a deferred signal when it was the last one.
void CCSEShims_output_section_end(void);
#endif
