#ifndef CSEKIT_CCURL_H
#define CSEKIT_CCURL_H
// libcurl (libcurl4-openssl-dev) for CSEHTTP's default transport, opened with dlopen(3) on first
// use (issue #16, "Start-up").
//
// Linking libcurl made every `cse` process map it and the 26 libraries it depends on (GnuTLS,
// Kerberos, LDAP, SASL, libssh2, p11-kit…) and run their constructors before main: about 11 ms
// and 500 page faults on the project VM, twice the whole of `openssl pkeyutl -encrypt`, paid by
// `cse seal`, which never talks to the network. Now a process loads libcurl the first time it
// creates a transport (CCurl_load), and only then.
//
// The header includes <curl/curl.h> for the types and constants; Swift calls only the CCurl_
// functions below, which forward to the loaded library (the target does not link libcurl, so a
// direct call to a curl_ function would fail to link). curl_easy_setopt and curl_easy_getinfo
// are C variadic functions, which Swift cannot call; the typed forwarders pass each argument with
// the exact C type libcurl reads for that option (curl_easy_setopt(3)).
#include <curl/curl.h>

/// Opens libcurl once per process (thread-safe) and calls curl_global_init(CURL_GLOBAL_DEFAULT).
/// Returns CURLE_OK when the library is ready; CURLE_FAILED_INIT when it cannot be opened (see
/// CCurl_load_error), or curl_global_init's failure.
CURLcode CCurl_load(void);
/// The library file CCurl_load opens: "libcurl.so.4".
const char *CCurl_library_name(void);
/// Why CCurl_load could not open the library (dlerror text), or NULL.
const char *CCurl_load_error(void);

// Forwarders: each requires a successful CCurl_load.
CURL *CCurl_easy_init(void);
void CCurl_easy_cleanup(CURL *handle);
const char *CCurl_easy_strerror(CURLcode code);
CURLcode CCurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode CCurl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode CCurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this callback type.
CURLcode CCurl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode CCurl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
CURLcode CCurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
struct curl_slist *CCurl_slist_append(struct curl_slist *list, const char *string);
void CCurl_slist_free_all(struct curl_slist *list);
CURLM *CCurl_multi_init(void);
CURLMcode CCurl_multi_cleanup(CURLM *multi);
CURLMcode CCurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode CCurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode CCurl_multi_perform(CURLM *multi, int *running);
CURLMcode CCurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int extraCount, int timeoutMilliseconds, int *ready);
CURLMcode CCurl_multi_wakeup(CURLM *multi);
CURLMsg *CCurl_multi_info_read(CURLM *multi, int *remaining);
/// The loaded libcurl's version, 0xXXYYZZ (curl_version_info(3), `version_num`).
unsigned int CCurl_version_number(void);

/// Installs CSEKit's CURLOPT_SSL_CTX_FUNCTION on `handle`. libcurl calls it once per TLS
/// connection, after it has configured the SSL_CTX (its own key-log callback included) and before
/// the handshake. The hook
/// - removes the key-log callback: libcurl (7.88, OpenSSL backend) installs one whenever
///   SSLKEYLOGFILE named a file at curl_global_init, and it would append every session's secrets
///   to that file; no TLS secret of a CSEKit call is ever logged;
/// - adds a verify callback that refuses a server (leaf) certificate without a subjectAltName
///   holding at least one DNS name or IP address (X509_V_ERR_APPLICATION_VERIFICATION): libcurl
///   falls back to the subject common name when there is none, which RFC 6125 §6.4.4 and the
///   CA/Browser Forum baseline requirements retired. The verify mode libcurl chose is kept.
CURLcode CCurl_setopt_tls_hardening(CURL *handle);

/// Names the calling thread (pthread_setname_np; at most 15 bytes, longer names are ignored):
/// CSEHTTP names its transfer threads, which Swift cannot do itself (the function needs
/// _GNU_SOURCE). Needs no CCurl_load.
void CCurl_name_current_thread(const char *name);

#endif
