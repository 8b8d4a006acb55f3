// See include/CCurl.h.
#define _GNU_SOURCE  // pthread_setname_np
#include "CCurl.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static const char library_name[] = "libcurl.so.4";

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_wakeup) *multi_wakeup;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_version_info) *version_info;
} curl;

// The OpenSSL functions the TLS hook calls, from the libssl and libcrypto libcurl itself loaded
// (dlsym on libcurl's handle searches its dependencies): CCurl links neither library.
static struct {
    __typeof__(SSL_CTX_set_keylog_callback) *ctx_set_keylog_callback;
    __typeof__(SSL_CTX_set_verify) *ctx_set_verify;
    __typeof__(SSL_CTX_get_verify_mode) *ctx_get_verify_mode;
    __typeof__(X509_STORE_CTX_get_error_depth) *store_get_error_depth;
    __typeof__(X509_STORE_CTX_get_current_cert) *store_get_current_cert;
    __typeof__(X509_STORE_CTX_set_error) *store_set_error;
    __typeof__(X509_get_ext_d2i) *get_ext_d2i;
    __typeof__(OPENSSL_sk_num) *sk_num;
    __typeof__(OPENSSL_sk_value) *sk_value;
    __typeof__(GENERAL_NAMES_free) *general_names_free;
} ossl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static CURLcode load_result = CURLE_FAILED_INIT;
static const char *load_error;

#define CCURL_BIND_IN(table, field, symbol)                              \
    do {                                                                \
        *(void **)(&table.field) = dlsym(handle, #symbol);              \
        if (table.field == NULL) {                                      \
            load_error = "libcurl lacks " #symbol;                      \
            return;                                                     \
        }                                                               \
    } while (0)
#define CCURL_BIND(field, symbol) CCURL_BIND_IN(curl, field, symbol)
#define CCURL_BIND_OSSL(field, symbol) CCURL_BIND_IN(ossl, field, symbol)

static void load(void) {
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        load_error = reason != NULL ? reason : "dlopen failed";
        return;
    }
    CCURL_BIND(global_init, curl_global_init);
    CCURL_BIND(easy_init, curl_easy_init);
    CCURL_BIND(easy_cleanup, curl_easy_cleanup);
    CCURL_BIND(easy_strerror, curl_easy_strerror);
    CCURL_BIND(easy_setopt, curl_easy_setopt);
    CCURL_BIND(easy_getinfo, curl_easy_getinfo);
    CCURL_BIND(slist_append, curl_slist_append);
    CCURL_BIND(slist_free_all, curl_slist_free_all);
    CCURL_BIND(multi_init, curl_multi_init);
    CCURL_BIND(multi_cleanup, curl_multi_cleanup);
    CCURL_BIND(multi_add_handle, curl_multi_add_handle);
    CCURL_BIND(multi_remove_handle, curl_multi_remove_handle);
    CCURL_BIND(multi_perform, curl_multi_perform);
    CCURL_BIND(multi_poll, curl_multi_poll);
    CCURL_BIND(multi_wakeup, curl_multi_wakeup);
    CCURL_BIND(multi_info_read, curl_multi_info_read);
    CCURL_BIND(version_info, curl_version_info);
    CCURL_BIND_OSSL(ctx_set_keylog_callback, SSL_CTX_set_keylog_callback);
    CCURL_BIND_OSSL(ctx_set_verify, SSL_CTX_set_verify);
    CCURL_BIND_OSSL(ctx_get_verify_mode, SSL_CTX_get_verify_mode);
    CCURL_BIND_OSSL(store_get_error_depth, X509_STORE_CTX_get_error_depth);
    CCURL_BIND_OSSL(store_get_current_cert, X509_STORE_CTX_get_current_cert);
    CCURL_BIND_OSSL(store_set_error, X509_STORE_CTX_set_error);
    CCURL_BIND_OSSL(get_ext_d2i, X509_get_ext_d2i);
    CCURL_BIND_OSSL(sk_num, OPENSSL_sk_num);
    CCURL_BIND_OSSL(sk_value, OPENSSL_sk_value);
    CCURL_BIND_OSSL(general_names_free, GENERAL_NAMES_free);
    // Once per process, before any handle (the handle stays open for the life of the process).
    load_result = curl.global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode CCurl_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *CCurl_library_name(void) { return library_name; }

const char *CCurl_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

CURL *CCurl_easy_init(void) { return curl.easy_init(); }
void CCurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
const char *CCurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode CCurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode CCurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode CCurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode CCurl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode CCurl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode CCurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

struct curl_slist *CCurl_slist_append(struct curl_slist *list, const char *string) {
    return curl.slist_append(list, string);
}

void CCurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }
CURLM *CCurl_multi_init(void) { return curl.multi_init(); }
CURLMcode CCurl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode CCurl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode CCurl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode CCurl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }

CURLMcode CCurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int extraCount, int timeoutMilliseconds, int *ready) {
    return curl.multi_poll(multi, extra, extraCount, timeoutMilliseconds, ready);
}

CURLMcode CCurl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *CCurl_multi_info_read(CURLM *multi, int *remaining) { return curl.multi_info_read(multi, remaining); }

unsigned int CCurl_version_number(void) { return curl.version_info(CURLVERSION_NOW)->version_num; }

/// Whether `certificate` has a subjectAltName with at least one dNSName or iPAddress: the names
/// libcurl matches the host against. Without one, libcurl would match the common name instead.
static int has_usable_subject_alt_name(X509 *certificate) {
    GENERAL_NAMES *names = ossl.get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    if (names == NULL) return 0;
    int usable = 0;
    int count = ossl.sk_num((const OPENSSL_STACK *)names);
    for (int index = 0; index < count && !usable; index++) {
        const GENERAL_NAME *name = ossl.sk_value((const OPENSSL_STACK *)names, index);
        usable = name != NULL && (name->type == GEN_DNS || name->type == GEN_IPADD);
    }
    ossl.general_names_free(names);
    return usable;
}

static int verify_certificate(int preverified, X509_STORE_CTX *store) {
    if (!preverified || ossl.store_get_error_depth(store) != 0) return preverified;
    X509 *leaf = ossl.store_get_current_cert(store);
    if (leaf != NULL && has_usable_subject_alt_name(leaf)) return 1;
    ossl.store_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
}

static CURLcode harden_ssl_context(CURL *handle, void *context, void *user) {
    (void)handle;
    (void)user;
    SSL_CTX *ssl = context;
    ossl.ctx_set_keylog_callback(ssl, NULL);
    ossl.ctx_set_verify(ssl, ossl.ctx_get_verify_mode(ssl), verify_certificate);
    return CURLE_OK;
}

CURLcode CCurl_setopt_tls_hardening(CURL *handle) {
    return curl.easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, harden_ssl_context);
}

void CCurl_name_current_thread(const char *name) { (void)pthread_setname_np(pthread_self(), name); }
