/* The command line and key loading shared by the C reference loops (oaep_loop.c, cjose_loop.c):
 * `PROGRAM public.pem < lines > out`. Returns the PEM public key, or NULL after printing why. */
#ifndef CSEKIT_BENCH_PUBLIC_KEY_H
#define CSEKIT_BENCH_PUBLIC_KEY_H
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>

static EVP_PKEY *read_public_key_argument(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s public.pem < lines > out\n", argv[0]);
        return NULL;
    }
    FILE *pem = fopen(argv[1], "r");
    if (!pem) { perror(argv[1]); return NULL; }
    EVP_PKEY *key = PEM_read_PUBKEY(pem, NULL, NULL, NULL);
    fclose(pem);
    if (!key) fprintf(stderr, "%s: not a PEM public key\n", argv[1]);
    return key;
}
#endif
