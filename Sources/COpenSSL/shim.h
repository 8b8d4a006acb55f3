#ifndef CSEKIT_COPENSSL_SHIM_H
#define CSEKIT_COPENSSL_SHIM_H
// The OpenSSL 3 headers CSEKit uses (libssl-dev). Macros are reached through CCSEShims.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/cms.h>
#include <openssl/bio.h>
#include <openssl/kdf.h>
#include <openssl/ec.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/opensslv.h>
#endif
