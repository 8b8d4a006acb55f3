/* The C that Swift cannot do itself (see CCSEShims.h): one-line forwarders, and the interrupt
 * deferral of `cse`, whose signal handler must be async-signal-safe and therefore C. No algorithm
 * lives here (issue #12): MGF1 and HMAC are Swift in CSECrypto, on the SHA forwarders below. */
/* The low-level SHA API is deprecated in OpenSSL 3; its forwarders call it without a warning.
 * Must precede every OpenSSL header. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <unistd.h>
#include "CCSEShims.h"
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/cms.h>
#include <string.h>

unsigned long CCSEShims_OPENSSL_VERSION_NUMBER(void) { return OPENSSL_VERSION_NUMBER; }
unsigned long CCSEShims_OpenSSL_version_num(void) { return OpenSSL_version_num(); }
void CCSEShims_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
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
void *CCSEShims_d2i_PUBKEY(const void *der, long len, long *consumed) {
    const unsigned char *p = (const unsigned char *)der;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &p, len);
    *consumed = key ? (long)(p - (const unsigned char *)der) : 0;
    return key;
}
int CCSEShims_EVP_PKEY_EC(void) { return EVP_PKEY_EC; }
int CCSEShims_sk_X509_num(const void *stack) { return sk_X509_num((const STACK_OF(X509) *)stack); }
void *CCSEShims_sk_X509_value(const void *stack, int index) { return sk_X509_value((const STACK_OF(X509) *)stack, index); }
void CCSEShims_sk_X509_pop_free(void *stack) { sk_X509_pop_free((STACK_OF(X509) *)stack, X509_free); }
void *CCSEShims_sk_X509_new_null(void) { return sk_X509_new_null(); }
int CCSEShims_sk_X509_push(void *stack, void *certificate) { return sk_X509_push((STACK_OF(X509) *)stack, (X509 *)certificate); }
int CCSEShims_sk_CMS_SignerInfo_num(const void *stack) {
    return sk_CMS_SignerInfo_num((const STACK_OF(CMS_SignerInfo) *)stack);
}
void *CCSEShims_sk_CMS_SignerInfo_value(const void *stack, int index) {
    return sk_CMS_SignerInfo_value((const STACK_OF(CMS_SignerInfo) *)stack, index);
}

int CCSEShims_SHA1_Init(SHA_CTX *c) { return SHA1_Init(c); }
int CCSEShims_SHA1_Update(SHA_CTX *c, const void *data, size_t len) { return SHA1_Update(c, data, len); }
int CCSEShims_SHA1_Final(unsigned char *md, SHA_CTX *c) { return SHA1_Final(md, c); }
int CCSEShims_SHA256_Init(SHA256_CTX *c) { return SHA256_Init(c); }
int CCSEShims_SHA256_Update(SHA256_CTX *c, const void *data, size_t len) { return SHA256_Update(c, data, len); }
int CCSEShims_SHA256_Final(unsigned char *md, SHA256_CTX *c) { return SHA256_Final(md, c); }
int CCSEShims_SHA384_Init(SHA512_CTX *c) { return SHA384_Init(c); }
int CCSEShims_SHA384_Update(SHA512_CTX *c, const void *data, size_t len) { return SHA384_Update(c, data, len); }
int CCSEShims_SHA384_Final(unsigned char *md, SHA512_CTX *c) { return SHA384_Final(md, c); }
int CCSEShims_SHA512_Init(SHA512_CTX *c) { return SHA512_Init(c); }
int CCSEShims_SHA512_Update(SHA512_CTX *c, const void *data, size_t len) { return SHA512_Update(c, data, len); }
int CCSEShims_SHA512_Final(unsigned char *md, SHA512_CTX *c) { return SHA512_Final(md, c); }

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
