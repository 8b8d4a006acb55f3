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
/// EVP_PKEY_KEYPAIR (a compound macro): the selection for a full key pair in EVP_PKEY_fromdata
/// and OSSL_ENCODER_CTX_new_for_pkey.
int CCSEShims_EVP_PKEY_KEYPAIR(void);
/// EVP_PKEY_RSA (a macro aliasing NID_rsaEncryption).
int CCSEShims_EVP_PKEY_RSA(void);
/// OPENSSL_clear_free (a macro): zeroes `len` bytes at `ptr`, then frees it.
void CCSEShims_OPENSSL_clear_free(void *ptr, size_t len);
/// d2i_PrivateKey with a void* input buffer; `*consumed` receives the number of bytes read.
void *CCSEShims_d2i_PrivateKey(int type, const void *der, long len, long *consumed);
/// MGF1 (RFC 8017 §B.2.1) with SHA-1 (`hashLen` 20) or SHA-256 (32): XORs MGF1(seed, targetLen)
/// into `target`. Not a one-line forwarder: the seed's hash midstate is reused for every counter
/// block (the deprecated low-level SHA API, which EVP cannot copy as cheaply). Returns 1 on
/// success, 0 for another `hashLen` or an OpenSSL failure. `seed` and `target` must not overlap.
int CCSEShims_MGF1_xor(int hashLen, const void *seed, size_t seedLen, void *target, size_t targetLen);
/// HMAC (RFC 2104) with SHA-256, SHA-384 or SHA-512 (`hashLen` 32, 48 or 64) of part0 ‖ part1 ‖
/// part2 ‖ part3 under `key`, written to `out` (`hashLen` bytes). Not a one-line forwarder: it runs
/// on the low-level SHA API like CCSEShims_MGF1_xor, and cleanses its pads and states. A part may
/// be NULL when its length is 0. Returns 1 on success, 0 for another `hashLen` or a failure.
int CCSEShims_HMAC_SHA2(int hashLen, const void *key, size_t keyLen,
                        const void *part0, size_t len0, const void *part1, size_t len1,
                        const void *part2, size_t len2, const void *part3, size_t len3, void *out);



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
