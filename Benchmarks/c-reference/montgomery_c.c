/* montgomery_c: the portable RSA kernel that was measured and dropped (issue #16, Benchmarks/README.md,
 * "A portable RSA kernel, measured and dropped"). Not used by CSEKit.
 *
 *   cc -O2 -march=native -o montgomery_c montgomery_c.c -lcrypto     (or clang -O3 -march=native)
 *   montgomery_c 2 20000 public.pem     (mode 2: time both; a 2048-bit RSA public key in PEM)
 *
 * m^65537 mod n for a 2048-bit modulus as 16 Montgomery squarings and two Montgomery products in
 * plain C (CIOS on unsigned __int128; a squaring that computes each cross product once), with a
 * constant-time final subtraction; it first checks its result against OpenSSL's raw RSA
 * (EVP_PKEY_encrypt, RSA_NO_PADDING) on one input, then times both. On the project VM it took
 * 36 us (clang -O3) and 53 us (gcc -O2) per operation against OpenSSL's 21-27 us in the same
 * process, 1.7-1.9x slower (under load 58-95 against 32-37 us): compilers do not emit the
 * interleaved mulx / adcx / adox carry chains of OpenSSL's assembly. */
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
typedef unsigned __int128 u128;
#define N 32
/* CIOS Montgomery multiplication: r = a*b*R^-1 mod n (almost: r < 2n handled by final sub) */
static void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t k0) {
    uint64_t t[N + 2];
    memset(t, 0, sizeof t);
    for (int i = 0; i < N; i++) {
        uint64_t c = 0;
        uint64_t bi = b[i];
        for (int j = 0; j < N; j++) {
            u128 p = (u128)a[j] * bi + t[j] + c;
            t[j] = (uint64_t)p; c = (uint64_t)(p >> 64);
        }
        u128 s = (u128)t[N] + c; t[N] = (uint64_t)s; t[N + 1] = (uint64_t)(s >> 64);
        uint64_t m = t[0] * k0;
        u128 p = (u128)m * n[0] + t[0];
        c = (uint64_t)(p >> 64);
        for (int j = 1; j < N; j++) {
            p = (u128)m * n[j] + t[j] + c;
            t[j - 1] = (uint64_t)p; c = (uint64_t)(p >> 64);
        }
        s = (u128)t[N] + c; t[N - 1] = (uint64_t)s; t[N] = t[N + 1] + (uint64_t)(s >> 64);
    }
    /* conditional subtract (constant time) */
    uint64_t d[N]; uint64_t borrow = 0;
    for (int j = 0; j < N; j++) { u128 x = (u128)t[j] - n[j] - borrow; d[j] = (uint64_t)x; borrow = (uint64_t)(x >> 64) & 1; }
    uint64_t sel = (uint64_t)0 - (uint64_t)((t[N] != 0) | (borrow == 0)); /* t >= n */
    for (int j = 0; j < N; j++) r[j] = (d[j] & sel) | (t[j] & ~sel);
}
/* squaring with symmetry, then Montgomery reduction of the 2N-word product */
static void mont_sqr(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t k0) {
    uint64_t t[2 * N + 1];
    memset(t, 0, sizeof t);
    for (int i = 0; i < N; i++) {
        uint64_t c = 0;
        for (int j = i + 1; j < N; j++) {
            u128 p = (u128)a[i] * a[j] + t[i + j] + c;
            t[i + j] = (uint64_t)p; c = (uint64_t)(p >> 64);
        }
        t[i + N] = c;
    }
    /* double */
    uint64_t carry = 0;
    for (int k = 0; k < 2 * N; k++) { uint64_t v = t[k]; t[k] = (v << 1) | carry; carry = v >> 63; }
    /* add squares */
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
        u128 sq = (u128)a[i] * a[i];
        u128 x = (u128)t[2 * i] + (uint64_t)sq + c; t[2 * i] = (uint64_t)x;
        x = (u128)t[2 * i + 1] + (uint64_t)(sq >> 64) + (uint64_t)(x >> 64); t[2 * i + 1] = (uint64_t)x; c = (uint64_t)(x >> 64);
    }
    t[2 * N] = 0;
    /* reduction */
    uint64_t top = 0;
    for (int i = 0; i < N; i++) {
        uint64_t m = t[i] * k0; uint64_t cc = 0;
        for (int j = 0; j < N; j++) {
            u128 p = (u128)m * n[j] + t[i + j] + cc;
            t[i + j] = (uint64_t)p; cc = (uint64_t)(p >> 64);
        }
        u128 s = (u128)t[i + N] + cc + top; t[i + N] = (uint64_t)s; top = (uint64_t)(s >> 64);
    }
    uint64_t *u = t + N;
    uint64_t d[N]; uint64_t borrow = 0;
    for (int j = 0; j < N; j++) { u128 x = (u128)u[j] - n[j] - borrow; d[j] = (uint64_t)x; borrow = (uint64_t)(x >> 64) & 1; }
    uint64_t sel = (uint64_t)0 - (uint64_t)((top != 0) | (borrow == 0));
    for (int j = 0; j < N; j++) r[j] = (d[j] & sel) | (u[j] & ~sel);
}
static void pow65537(uint64_t *out, const uint64_t *m, const uint64_t *n, const uint64_t *rr, uint64_t k0) {
    uint64_t am[N], x[N], one[N];
    mont_mul(am, m, rr, n, k0);           /* to Montgomery */
    memcpy(x, am, sizeof x);
    for (int i = 0; i < 16; i++) mont_sqr(x, x, n, k0);
    mont_mul(x, x, am, n, k0);
    memset(one, 0, sizeof one); one[0] = 1;
    mont_mul(out, x, one, n, k0);          /* from Montgomery */
}
static void be_to_limbs(uint64_t *l, const uint8_t *b) { for (int i = 0; i < N; i++) { uint64_t v = 0; for (int k = 0; k < 8; k++) v = (v << 8) | b[256 - 8 * (i + 1) + k]; l[i] = v; } }
static void limbs_to_be(uint8_t *b, const uint64_t *l) { for (int i = 0; i < N; i++) for (int k = 0; k < 8; k++) b[256 - 8 * (i + 1) + k] = (uint8_t)(l[i] >> (56 - 8 * k)); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    int iters = argc > 2 ? atoi(argv[2]) : 20000;
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    if (argc < 4) { fprintf(stderr, "usage: montgomery_c MODE ITERATIONS public.pem\n"); return 64; }
    FILE *f = fopen(argv[3], "r"); if (!f) { perror("public key"); return 1; } EVP_PKEY *pk = PEM_read_PUBKEY(f, 0, 0, 0); fclose(f);
    BIGNUM *bn_n = NULL; EVP_PKEY_get_bn_param(pk, "n", &bn_n);
    uint8_t nb[256]; BN_bn2binpad(bn_n, nb, 256);
    uint64_t n[N]; be_to_limbs(n, nb);
    /* k0 = -n^-1 mod 2^64 */
    uint64_t inv = 1; for (int i = 0; i < 6; i++) inv *= 2 - n[0] * inv; uint64_t k0 = (uint64_t)0 - inv;
    /* rr = R^2 mod n, R = 2^2048 */
    BN_CTX *ctx = BN_CTX_new(); BIGNUM *r = BN_new(); BN_one(r); BN_lshift(r, r, 4096); BN_mod(r, r, bn_n, ctx);
    uint8_t rb[256]; BN_bn2binpad(r, rb, 256); uint64_t rr[N]; be_to_limbs(rr, rb);
    uint8_t msg[256]; for (int i = 0; i < 256; i++) msg[i] = (uint8_t)(i * 37 + 11); msg[0] = 0;
    uint8_t o1[256], o2[256]; size_t ol = 256;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pk, 0); EVP_PKEY_encrypt_init(pc); EVP_PKEY_CTX_set_rsa_padding(pc, RSA_NO_PADDING);
    EVP_PKEY_encrypt(pc, o1, &ol, msg, 256);
    uint64_t m[N], out[N]; be_to_limbs(m, msg); pow65537(out, m, n, rr, k0); limbs_to_be(o2, out);
    printf("match=%d\n", memcmp(o1, o2, 256) == 0);
    double t0 = now();
    if (mode == 0 || mode == 2) for (int i = 0; i < iters; i++) { ol = 256; EVP_PKEY_encrypt(pc, o1, &ol, msg, 256); msg[255] ^= o1[3]; }
    double t1 = now();
    if (mode == 1 || mode == 2) for (int i = 0; i < iters; i++) { be_to_limbs(m, msg); pow65537(out, m, n, rr, k0); limbs_to_be(o2, out); msg[255] ^= o2[3]; }
    double t2 = now();
    printf("openssl %.2f us  c-kernel %.2f us\n", (t1 - t0) / iters * 1e6, (t2 - t1) / iters * 1e6);
}
