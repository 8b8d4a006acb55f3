#define _GNU_SOURCE
/* For the low-level SHA API of CCSEShims_MGF1_xor; must precede every OpenSSL header. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <sched.h>
#include <unistd.h>
#include "CCSEShims.h"
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

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

/* MGF1 on the low-level SHA API (deprecated in OpenSSL 3 for applications, still the same
 * assembly): the seed is absorbed once and each output block restarts from that midstate, so a
 * block costs one compression instead of an EVP_DigestInit/Update/Final round (measured on the
 * project machine: 47 ns against 87 ns per SHA-1 block). Every state and digest is cleansed. */

int CCSEShims_MGF1_xor(int hashLen, const void *seed, size_t seedLen, void *target, size_t targetLen) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    unsigned char counter[4];
    unsigned char *out = (unsigned char *)target;
    size_t offset = 0;
    uint32_t index = 0;
    if (hashLen == SHA_DIGEST_LENGTH) {
        SHA_CTX base, block;
        if (!SHA1_Init(&base) || !SHA1_Update(&base, seed, seedLen)) return 0;
        while (offset < targetLen) {
            counter[0] = (unsigned char)(index >> 24); counter[1] = (unsigned char)(index >> 16);
            counter[2] = (unsigned char)(index >> 8); counter[3] = (unsigned char)index;
            block = base;
            if (!SHA1_Update(&block, counter, 4) || !SHA1_Final(digest, &block)) break;
            for (size_t i = 0; i < SHA_DIGEST_LENGTH && offset < targetLen; i++) out[offset++] ^= digest[i];
            index++;
        }
        OPENSSL_cleanse(&base, sizeof base);
        OPENSSL_cleanse(&block, sizeof block);
    } else if (hashLen == SHA256_DIGEST_LENGTH) {
        SHA256_CTX base, block;
        if (!SHA256_Init(&base) || !SHA256_Update(&base, seed, seedLen)) return 0;
        while (offset < targetLen) {
            counter[0] = (unsigned char)(index >> 24); counter[1] = (unsigned char)(index >> 16);
            counter[2] = (unsigned char)(index >> 8); counter[3] = (unsigned char)index;
            block = base;
            if (!SHA256_Update(&block, counter, 4) || !SHA256_Final(digest, &block)) break;
            for (size_t i = 0; i < SHA256_DIGEST_LENGTH && offset < targetLen; i++) out[offset++] ^= digest[i];
            index++;
        }
        OPENSSL_cleanse(&base, sizeof base);
        OPENSSL_cleanse(&block, sizeof block);
    } else {
        return 0;
    }
    OPENSSL_cleanse(digest, sizeof digest);
    return offset == targetLen;
}

/* Interrupt deferral for `cse` (see CCSEShims.h). One atomic word holds the number of output
 * sections in progress (low 16 bits), the signal waiting for them to end (bits 16-23) and a
 * "dying" bit: the handler and the sections change it only by compare-and-swap, so a signal is
 * either delivered at once (no section running) or after the last section ends, never in the
 * middle of one. Everything the handler calls is async-signal-safe. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#define CSE_SECTIONS_MASK 0xFFFFu
#define CSE_SIGNAL_SHIFT 16
#define CSE_DYING (1u << 24)

static _Atomic unsigned int cse_interrupt_state = 0;
static const int cse_deferred_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Ends the process by `sig`. The caller may be a libdispatch worker, which blocks SIGINT and
 * SIGTERM, so a raise() there alone would stay pending forever; the main thread unblocked them
 * (CCSEShims_defer_interrupts). */
static void cse_die(int sig) {
    signal(sig, SIG_DFL);
    /* The caller may be a thread that blocks the signal (libdispatch's workers block them all, and
     * a handler blocks its own signal): unblock it here, then send it to this thread and, should
     * that still not end the process, to the process, which any thread that does not block it
     * takes. Both calls are async-signal-safe. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    kill(getpid(), sig);
}

static void cse_interrupt_handler(int sig) {
    unsigned int state = atomic_load(&cse_interrupt_state);
    for (;;) {
        if (state & CSE_DYING) return;
        unsigned int sections = state & CSE_SECTIONS_MASK;
        unsigned int pending = (state >> CSE_SIGNAL_SHIFT) & 0xFFu;
        /* No section running, or a second signal while one waits: end now. */
        if (sections == 0 || pending != 0) {
            if (atomic_compare_exchange_weak(&cse_interrupt_state, &state, state | CSE_DYING)) {
                cse_die(sig);
                return;
            }
            continue;
        }
        unsigned int next = state | ((unsigned int)sig << CSE_SIGNAL_SHIFT);
        if (atomic_compare_exchange_weak(&cse_interrupt_state, &state, next)) return;
    }
}

/* Installs the handler for each signal the process does not ignore, and unblocks those signals
 * in the calling thread (threads created later inherit its mask): a mask inherited from the
 * parent's thread pool, as posix_spawn passes it on, would otherwise hold SIGINT back until the
 * end of the run. */
int CCSEShims_defer_interrupts(void) {
    int installed = 0;
    sigset_t handled;
    sigemptyset(&handled);
    for (size_t i = 0; i < sizeof cse_deferred_signals / sizeof cse_deferred_signals[0]; i++) {
        int sig = cse_deferred_signals[i];
        struct sigaction old;
        if (sigaction(sig, NULL, &old) != 0) continue;
        /* A signal the parent ignores (nohup, background jobs) stays ignored. */
        if (old.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = cse_interrupt_handler;
        action.sa_flags = SA_RESTART;
        sigfillset(&action.sa_mask);
        if (sigaction(sig, &action, NULL) == 0) {
            installed++;
            sigaddset(&handled, sig);
        }
    }
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    return installed;
}

void CCSEShims_output_section_begin(void) {
    unsigned int state = atomic_load(&cse_interrupt_state);
    for (;;) {
        /* The process is ending by a signal: never start a write it would cut. */
        while (state & CSE_DYING) { pause(); state = atomic_load(&cse_interrupt_state); }
        if (atomic_compare_exchange_weak(&cse_interrupt_state, &state, state + 1)) return;
    }
}

void CCSEShims_output_section_end(void) {
    unsigned int state = atomic_load(&cse_interrupt_state);
    for (;;) {
        unsigned int next = state - 1;
        int sig = (int)((state >> CSE_SIGNAL_SHIFT) & 0xFFu);
        int last = (next & CSE_SECTIONS_MASK) == 0 && sig != 0;
        if (last) next |= CSE_DYING;
        if (atomic_compare_exchange_weak(&cse_interrupt_state, &state, next)) {
            if (last) cse_die(sig);
            return;
        }
    }
}

/* HMAC (RFC 2104) with SHA-256, SHA-384 or SHA-512 on the low-level SHA API, over the
 * concatenation of up to four parts. The same reason as MGF1: EVP_DigestInit_ex2/Update/Final
 * go through the provider dispatch on every call (three inits and eight updates per JWE tag),
 * while SHA512_Init/Update/Final are plain calls into the same assembly. Pads, states and the
 * inner digest live on the stack and are cleansed before returning. */
int CCSEShims_HMAC_SHA2(int hashLen, const void *key, size_t keyLen,
                        const void *part0, size_t len0, const void *part1, size_t len1,
                        const void *part2, size_t len2, const void *part3, size_t len3, void *out) {
    const void *parts[4] = {part0, part1, part2, part3};
    const size_t lens[4] = {len0, len1, len2, len3};
    unsigned char pad[128], inner[SHA512_DIGEST_LENGTH];
    int ok = 1;
    if (hashLen == SHA256_DIGEST_LENGTH) {
        SHA256_CTX ctx;
        const size_t block = SHA256_CBLOCK;
        memset(pad, 0, sizeof pad);
        if (keyLen > block) {
            ok &= SHA256_Init(&ctx) && SHA256_Update(&ctx, key, keyLen) && SHA256_Final(pad, &ctx);
        } else if (keyLen > 0) {
            memcpy(pad, key, keyLen);
        }
        for (size_t i = 0; i < block; i++) pad[i] ^= 0x36;
        ok &= SHA256_Init(&ctx) && SHA256_Update(&ctx, pad, block);
        for (int p = 0; p < 4; p++) if (lens[p]) ok &= SHA256_Update(&ctx, parts[p], lens[p]);
        ok &= SHA256_Final(inner, &ctx);
        for (size_t i = 0; i < block; i++) pad[i] ^= 0x36 ^ 0x5c;
        ok &= SHA256_Init(&ctx) && SHA256_Update(&ctx, pad, block) && SHA256_Update(&ctx, inner, SHA256_DIGEST_LENGTH)
              && SHA256_Final((unsigned char *)out, &ctx);
        OPENSSL_cleanse(&ctx, sizeof ctx);
    } else if (hashLen == SHA384_DIGEST_LENGTH || hashLen == SHA512_DIGEST_LENGTH) {
        SHA512_CTX ctx;
        const size_t block = SHA512_CBLOCK;
        int (*init)(SHA512_CTX *) = hashLen == SHA512_DIGEST_LENGTH ? SHA512_Init : SHA384_Init;
        int (*update)(SHA512_CTX *, const void *, size_t) = hashLen == SHA512_DIGEST_LENGTH ? SHA512_Update : SHA384_Update;
        int (*final)(unsigned char *, SHA512_CTX *) = hashLen == SHA512_DIGEST_LENGTH ? SHA512_Final : SHA384_Final;
        memset(pad, 0, sizeof pad);
        if (keyLen > block) {
            ok &= init(&ctx) && update(&ctx, key, keyLen) && final(pad, &ctx);
        } else if (keyLen > 0) {
            memcpy(pad, key, keyLen);
        }
        for (size_t i = 0; i < block; i++) pad[i] ^= 0x36;
        ok &= init(&ctx) && update(&ctx, pad, block);
        for (int p = 0; p < 4; p++) if (lens[p]) ok &= update(&ctx, parts[p], lens[p]);
        ok &= final(inner, &ctx);
        for (size_t i = 0; i < block; i++) pad[i] ^= 0x36 ^ 0x5c;
        ok &= init(&ctx) && update(&ctx, pad, block) && update(&ctx, inner, (size_t)hashLen) && final((unsigned char *)out, &ctx);
        OPENSSL_cleanse(&ctx, sizeof ctx);
    } else {
        ok = 0;
    }
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(inner, sizeof inner);
    return ok;
}
