// See include/CCurl.h.
#include "CCurl.h"

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
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static CURLcode load_result = CURLE_FAILED_INIT;
static const char *load_error;

#define CCURL_BIND(field, symbol)                                       \
    do {                                                                \
        *(void **)(&curl.field) = dlsym(handle, #symbol);               \
        if (curl.field == NULL) {                                       \
            load_error = "libcurl lacks " #symbol;                      \
            return;                                                     \
        }                                                               \
    } while (0)

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
