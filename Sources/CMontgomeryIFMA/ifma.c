/* AVX-512 IFMA Montgomery exponentiation by 65537; see include/CMontgomeryIFMA.h.
 *
 * Numbers are little-endian arrays of 52-bit digits, `8·NZ` digits held in NZ zmm registers.
 * AMM(a, b) = a·b·R⁻¹ mod n up to one extra n: for inputs below 2n and R > 4n the output is below
 * 2n, so chains need no reduction until the end. Each digit step adds 4 terms below 2^52 to a
 * 64-bit lane, so 8·NZ ≤ 80 steps stay far from overflow (< 2^61). Nothing branches on data. */
#include "CMontgomeryIFMA.h"

#include <string.h>

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>
#define CSEIFMA_COMPILED 1
#else
#define CSEIFMA_COMPILED 0
#endif

#define MASK52 0xFFFFFFFFFFFFFull
#define MAX_DIGITS 80

static void cleanse(void *p, size_t n) {
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n--) *v++ = 0;
}

static void from_bytes(const uint8_t *be, size_t len, uint64_t *d, size_t digits) {
    for (size_t j = 0; j < digits; j++) {
        size_t bit = 52 * j, byte = bit >> 3;
        uint64_t v = 0;
        for (size_t k = 0; k < 8; k++) {
            size_t b = byte + k;
            if (b < len) v |= (uint64_t)be[len - 1 - b] << (8 * k);
        }
        d[j] = (v >> (bit & 7)) & MASK52;
    }
}

static void to_bytes(const uint64_t *d, size_t digits, uint8_t *be, size_t len) {
    for (size_t i = 0; i < len; i++) {
        size_t bit = 8 * i, j = bit / 52, off = bit % 52;
        uint64_t v = j < digits ? d[j] >> off : 0;
        if (off > 44 && j + 1 < digits) v |= d[j + 1] << (52 - off);
        be[len - 1 - i] = (uint8_t)v;
    }
}

/* x = x - n when x ≥ n, in constant time (x < 2n, both normalised). */
static void reduce_once(uint64_t *x, const uint64_t *n, size_t digits) {
    uint64_t t[MAX_DIGITS], borrow = 0;
    for (size_t j = 0; j < digits; j++) {
        uint64_t v = x[j] - n[j] - borrow;
        t[j] = v & MASK52;
        borrow = v >> 63;
    }
    uint64_t keep = 0 - borrow; /* all ones when x < n */
    for (size_t j = 0; j < digits; j++) x[j] = (x[j] & keep) | (t[j] & ~keep);
    cleanse(t, sizeof t);
}

size_t CSEIFMA_digits(size_t bits) {
    size_t nz = (bits + 2 + 52 * 8 - 1) / (52 * 8);
    return (nz >= 2 && nz <= 10) ? 8 * nz : 0;
}

int CSEIFMA_prepare(uint64_t *key, size_t digits, const uint8_t *modulus, const uint8_t *rr, size_t len) {
    if (digits == 0 || digits > MAX_DIGITS || digits % 8 != 0 || len == 0 || (modulus[len - 1] & 1) == 0) return 0;
    from_bytes(modulus, len, key, digits);
    from_bytes(rr, len, key + digits, digits);
    /* Newton's iteration doubles the correct low bits of n⁻¹ mod 2^64 each step. */
    uint64_t n0 = key[0] | ((uint64_t)(digits > 1 ? key[1] : 0) << 52), inv = n0;
    for (int i = 0; i < 6; i++) inv *= 2 - n0 * inv;
    key[2 * digits] = (0 - inv) & MASK52;
    return 1;
}

#if CSEIFMA_COMPILED

int CSEIFMA_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

#define IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))

/* res = AMM(a, b) with NZ registers per number; res may alias a or b. */
static inline __attribute__((always_inline)) IFMA_TARGET
void amm(uint64_t *res, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t k0, const int NZ) {
    __m512i A[NZ], N[NZ], acc[NZ];
    const __m512i zero = _mm512_setzero_si512();
    for (int r = 0; r < NZ; r++) {
        A[r] = _mm512_loadu_si512((const void *)(a + 8 * r));
        N[r] = _mm512_loadu_si512((const void *)(n + 8 * r));
        acc[r] = zero;
    }
    const uint64_t a0 = a[0], n0 = n[0];
    for (int i = 0; i < 8 * NZ; i++) {
        const uint64_t bi = b[i];
        const __m512i bv = _mm512_set1_epi64((long long)bi);
        /* Lane 0 after the low products, computed in scalar to pick y without a vector round trip. */
        uint64_t low0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(acc[0])) + ((a0 * bi) & MASK52);
        const uint64_t y = (low0 * k0) & MASK52;
        const __m512i yv = _mm512_set1_epi64((long long)y);
        low0 += (n0 * y) & MASK52; /* ≡ 0 mod 2^52 */
        for (int r = 0; r < NZ; r++) {
            acc[r] = _mm512_madd52lo_epu64(acc[r], A[r], bv);
            acc[r] = _mm512_madd52lo_epu64(acc[r], N[r], yv);
        }
        /* Drop the zero digit: shift every lane down by one, carrying lane 0's excess. */
        for (int r = 0; r < NZ - 1; r++) acc[r] = _mm512_alignr_epi64(acc[r + 1], acc[r], 1);
        acc[NZ - 1] = _mm512_alignr_epi64(zero, acc[NZ - 1], 1);
        acc[0] = _mm512_mask_add_epi64(acc[0], 1, acc[0], _mm512_set1_epi64((long long)(low0 >> 52)));
        for (int r = 0; r < NZ; r++) {
            acc[r] = _mm512_madd52hi_epu64(acc[r], A[r], bv);
            acc[r] = _mm512_madd52hi_epu64(acc[r], N[r], yv);
        }
    }
    uint64_t out[8 * NZ];
    for (int r = 0; r < NZ; r++) _mm512_storeu_si512((void *)(out + 8 * r), acc[r]);
    uint64_t carry = 0;
    for (int j = 0; j < 8 * NZ; j++) {
        uint64_t t = out[j] + carry;
        res[j] = t & MASK52;
        carry = t >> 52;
    }
    cleanse(out, sizeof out);
}

#define DEFINE_POW(NZ)                                                                            \
    static IFMA_TARGET void pow65537_##NZ(const uint64_t *key, uint64_t *x, const uint64_t *base) { \
        const uint64_t *n = key, *rr = key + 8 * (NZ);                                            \
        const uint64_t k0 = key[16 * (NZ)];                                                       \
        amm(x, base, rr, n, k0, NZ);                                                               \
        for (int i = 0; i < 16; i++) amm(x, x, x, n, k0, NZ);                                      \
        amm(x, x, base, n, k0, NZ);                                                                \
    }
DEFINE_POW(2)
DEFINE_POW(3)
DEFINE_POW(4)
DEFINE_POW(5)
DEFINE_POW(6)
DEFINE_POW(7)
DEFINE_POW(8)
DEFINE_POW(9)
DEFINE_POW(10)

int CSEIFMA_pow65537(const uint64_t *key, size_t digits, const uint8_t *in, uint8_t *out, size_t len) {
    /* __cpu_model is filled by a constructor before main, so this reads a constant. */
    if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512f") || digits == 0 || digits > MAX_DIGITS || digits % 8 != 0) return 0;
    uint64_t base[MAX_DIGITS], x[MAX_DIGITS];
    from_bytes(in, len, base, digits);
    switch (digits / 8) {
    case 2: pow65537_2(key, x, base); break;
    case 3: pow65537_3(key, x, base); break;
    case 4: pow65537_4(key, x, base); break;
    case 5: pow65537_5(key, x, base); break;
    case 6: pow65537_6(key, x, base); break;
    case 7: pow65537_7(key, x, base); break;
    case 8: pow65537_8(key, x, base); break;
    case 9: pow65537_9(key, x, base); break;
    case 10: pow65537_10(key, x, base); break;
    default: cleanse(base, sizeof base); return 0;
    }
    reduce_once(x, key, digits);
    to_bytes(x, digits, out, len);
    cleanse(base, sizeof base);
    cleanse(x, sizeof x);
    return 1;
}

#else

int CSEIFMA_available(void) { return 0; }
int CSEIFMA_pow65537(const uint64_t *key, size_t digits, const uint8_t *in, uint8_t *out, size_t len) {
    (void)key; (void)digits; (void)in; (void)out; (void)len;
    return 0;
}

#endif
