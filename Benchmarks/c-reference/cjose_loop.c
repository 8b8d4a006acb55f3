/* cjose_loop: the fastest JOSE library measured (cjose, Debian libcjose-dev) in the loop the
 * whole-process benchmark compares `cse encrypt --lines` with.
 *
 *   cc -O2 -o cjose_loop cjose_loop.c -lcjose -lcrypto   (cjose's .pc needs jansson's; not used)
 *   cjose_loop public.pem < lines.jsonl > out.txt
 *
 * For every input line (without its newline) it builds a whole JWE compact serialization with
 * cjose_jwe_encrypt, RSA-OAEP + A256CBC-HS512 and a `kid`, exactly what `cse encrypt --key … --kid
 * bench --lines` writes, and prints it on its own output line. The key and the header are built
 * once; cjose draws the CEK and IV, runs OAEP, AES-CBC and HMAC-SHA-512 and base64url-encodes the
 * five segments per call. Single-threaded by design: run it under `taskset -c 0`.
 * Exit status 0, or 1 with a message on stderr. */
#include <cjose/cjose.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include "public_key.h"
#include <stdlib.h>
#include <string.h>

/* The big-endian bytes of one BIGNUM parameter of `key`, in a new buffer. */
static uint8_t *parameter(EVP_PKEY *key, const char *name, size_t *length) {
    BIGNUM *value = NULL;
    if (EVP_PKEY_get_bn_param(key, name, &value) != 1) return NULL;
    *length = (size_t)BN_num_bytes(value);
    uint8_t *bytes = malloc(*length ? *length : 1);
    if (bytes) BN_bn2bin(value, bytes);
    BN_free(value);
    return bytes;
}

int main(int argc, char **argv) {
    EVP_PKEY *key = read_public_key_argument(argc, argv);
    if (!key) return 1;

    cjose_jwk_rsa_keyspec spec;
    memset(&spec, 0, sizeof spec);
    spec.n = parameter(key, OSSL_PKEY_PARAM_RSA_N, &spec.nlen);
    spec.e = parameter(key, OSSL_PKEY_PARAM_RSA_E, &spec.elen);
    EVP_PKEY_free(key);
    cjose_err error;
    cjose_jwk_t *jwk = spec.n && spec.e ? cjose_jwk_create_RSA_spec(&spec, &error) : NULL;
    free(spec.n);
    free(spec.e);
    if (!jwk) { fprintf(stderr, "cannot build the cjose RSA key\n"); return 1; }

    cjose_header_t *header = cjose_header_new(&error);
    if (!header || !cjose_header_set(header, CJOSE_HDR_ALG, CJOSE_HDR_ALG_RSA_OAEP, &error)
        || !cjose_header_set(header, CJOSE_HDR_ENC, CJOSE_HDR_ENC_A256CBC_HS512, &error)
        || !cjose_header_set(header, CJOSE_HDR_KID, "bench", &error)) {
        fprintf(stderr, "cannot build the JWE header: %s\n", error.message);
        return 1;
    }

    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    long lines = 0;
    while ((length = getline(&line, &capacity, stdin)) >= 0) {
        if (length > (1 << 20)) { fprintf(stderr, "line %ld too long\n", lines + 1); return 1; }
        if (length > 0 && line[length - 1] == '\n') length--;
        cjose_jwe_t *jwe = cjose_jwe_encrypt(jwk, header, (const uint8_t *)line, (size_t)length, &error);
        char *compact = jwe ? cjose_jwe_export(jwe, &error) : NULL;
        if (!compact) {
            fprintf(stderr, "encryption failed at line %ld: %s\n", lines + 1, error.message);
            return 1;
        }
        size_t n = strlen(compact);
        fwrite(compact, 1, n, stdout);
        fputc('\n', stdout);
        free(compact);
        cjose_jwe_release(jwe);
        lines++;
    }
    free(line);
    cjose_header_release(header);
    cjose_jwk_release(jwk);
    fprintf(stderr, "cjose_loop: %ld lines\n", lines);
    return 0;
}
