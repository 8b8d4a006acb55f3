/* oaep_loop: the minimal C program the whole-process benchmark compares `cse encrypt --lines` with.
 *
 *   cc -O2 -o oaep_loop oaep_loop.c -lcrypto
 *   oaep_loop public.pem < lines.jsonl > out.txt
 *
 * For every input line it draws a fresh 64-byte content key with RAND_bytes, encrypts it with
 * RSA-OAEP (SHA-1, MGF1-SHA-1, empty label; EVP_PKEY_encrypt on one reused EVP_PKEY_CTX) and writes
 * the ciphertext in base64 on its own output line. That is the one RSA operation a JWE needs and
 * nothing else: no AES, no HMAC, no JSON. The line itself is only read (and its length checked),
 * which keeps the I/O pattern of a line-oriented tool. Single-threaded by design: run it under
 * `taskset -c 0`. Exit status 0, or 1 with a message on stderr. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include "public_key.h"
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    EVP_PKEY *key = read_public_key_argument(argc, argv);
    if (!key) return 1;

    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!ctx || EVP_PKEY_encrypt_init(ctx) != 1 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) != 1
        || EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha1()) != 1 || EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha1()) != 1) {
        fprintf(stderr, "cannot set up RSA-OAEP\n");
        return 1;
    }
    size_t k = (size_t)EVP_PKEY_get_size(key);
    unsigned char *ciphertext = malloc(k);
    unsigned char *encoded = malloc(4 * ((k + 2) / 3) + 2);
    unsigned char cek[64];
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    long lines = 0;
    while ((length = getline(&line, &capacity, stdin)) >= 0) {
        if (length > (1 << 20)) { fprintf(stderr, "line %ld too long\n", lines + 1); return 1; }
        size_t out = k;
        if (RAND_bytes(cek, sizeof cek) != 1 || EVP_PKEY_encrypt(ctx, ciphertext, &out, cek, sizeof cek) != 1) {
            fprintf(stderr, "encryption failed at line %ld\n", lines + 1);
            return 1;
        }
        int n = EVP_EncodeBlock(encoded, ciphertext, (int)out);
        encoded[n] = '\n';
        fwrite(encoded, 1, (size_t)n + 1, stdout);
        lines++;
    }
    OPENSSL_cleanse(cek, sizeof cek);
    free(line);
    free(ciphertext);
    free(encoded);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(key);
    fprintf(stderr, "oaep_loop: %ld lines\n", lines);
    return 0;
}
