/* RSA public operation for e = 65537 on AVX-512 IFMA (52-bit digit Montgomery arithmetic).
 *
 * One job: m^65537 mod n for a fixed odd modulus, as 16 Montgomery squarings and two
 * multiplications with vpmadd52luq/vpmadd52huq, the "almost Montgomery multiplication" of
 * Gueron and Krasnov ("Accelerating big integer arithmetic using Intel IFMA extensions",
 * ARITH 2016), with one final conditional subtraction. Callers in CSECrypto own the key buffer,
 * check that the input is below the modulus, and fall back to OpenSSL when this returns 0. */
#ifndef CMONTGOMERY_IFMA_H
#define CMONTGOMERY_IFMA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the CPU and OS support AVX-512F and AVX-512 IFMA, else 0. */
int CSEIFMA_available(void);

/* The number of 52-bit digits (a multiple of 8) used for a modulus of `bits` bits, so that
 * R = 2^(52·digits) > 4·n; 0 when no kernel is compiled for that size. */
size_t CSEIFMA_digits(size_t bits);

/* Fills `key` (2·digits + 1 words) from the big-endian modulus and R² mod n (each `len` bytes):
 * the modulus digits, the R² digits, then k0 = -n⁻¹ mod 2^52. Returns 1, or 0 for an even
 * modulus or an unsupported size. */
int CSEIFMA_prepare(uint64_t *key, size_t digits, const uint8_t *modulus, const uint8_t *rr, size_t len);

/* out = in^65537 mod n; `in` and `out` are big-endian, `len` bytes (the modulus length), and
 * `in` must be below n. Temporaries are cleared. Returns 1, or 0 when IFMA is unavailable or
 * `digits` has no kernel. */
int CSEIFMA_pow65537(const uint64_t *key, size_t digits, const uint8_t *in, uint8_t *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
