#ifndef SCLM_CCURL_SHIM_H
#define SCLM_CCURL_SHIM_H

#include <curl/curl.h>
#include <sys/prctl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call.
// Each wrapper below fixes one argument kind (see curl_easy_setopt(3) for the kind each option takes).

/// Write/header callback signature (`CURLOPT_WRITEFUNCTION`, `CURLOPT_HEADERFUNCTION`).
typedef size_t (*sclm_curl_write_callback)(char *data, size_t size, size_t count, void *userdata);
/// Transfer-info callback signature (`CURLOPT_XFERINFOFUNCTION`).
typedef int (*sclm_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                           curl_off_t ulnow);

/// Open-socket callback signature (`CURLOPT_OPENSOCKETFUNCTION`): returns a socket, or `CURL_SOCKET_BAD` to refuse
/// the address.
typedef curl_socket_t (*sclm_curl_opensocket_callback)(void *userdata, curlsocktype purpose,
                                                       struct curl_sockaddr *address);

/// Wraps `curl_easy_setopt` for options taking a `long`.
static inline CURLcode sclm_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for options taking a `curl_off_t` (the `_LARGE` options).
static inline CURLcode sclm_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for options taking a C string (libcurl copies it).
static inline CURLcode sclm_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for options taking an opaque pointer (`*DATA`, `CURLOPT_ERRORBUFFER`, `CURLOPT_SHARE`).
static inline CURLcode sclm_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for options taking a `struct curl_slist *` (`CURLOPT_HTTPHEADER`).
static inline CURLcode sclm_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
static inline CURLcode sclm_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                            sclm_curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for `CURLOPT_XFERINFOFUNCTION`.
static inline CURLcode sclm_curl_easy_setopt_xferinfo_callback(CURL *handle, CURLoption option,
                                                               sclm_curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_setopt` for `CURLOPT_OPENSOCKETFUNCTION`.
static inline CURLcode sclm_curl_easy_setopt_opensocket_callback(CURL *handle, CURLoption option,
                                                                 sclm_curl_opensocket_callback value) {
    return curl_easy_setopt(handle, option, value);
}
/// Wraps `curl_easy_getinfo` for infos returning a `long` (`CURLINFO_RESPONSE_CODE`).
static inline CURLcode sclm_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
/// Wraps `curl_easy_getinfo` for infos returning a `curl_off_t` (`CURLINFO_SIZE_DOWNLOAD_T`).
static inline CURLcode sclm_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
/// Wraps `curl_easy_getinfo` for infos returning a `char *` owned by the handle (`CURLINFO_EFFECTIVE_URL`).
static inline CURLcode sclm_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
/// Wraps `curl_easy_getinfo` for infos returning a `struct curl_slist *` the caller frees (`CURLINFO_COOKIELIST`).
static inline CURLcode sclm_curl_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value) {
    return curl_easy_getinfo(handle, info, value);
}
/// Wraps `curl_share_setopt` for options taking a `long` (`CURLSHOPT_SHARE` with a `CURL_LOCK_DATA_*` value).
static inline CURLSHcode sclm_curl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value) {
    return curl_share_setopt(handle, option, value);
}
/// The `CURLcode` of a `CURLMSG_DONE` message (`msg->data.result`, a member of an anonymous union).
static inline CURLcode sclm_curl_msg_result(const CURLMsg *message) { return message->data.result; }

/// `CURL_SOCKET_BAD`, a macro Swift does not import.
static inline curl_socket_t sclm_curl_socket_bad(void) { return CURL_SOCKET_BAD; }

/// Names the calling thread (`prctl(PR_SET_NAME)`, variadic; at most 15 bytes are kept), so the engine thread
/// shows as such in `/proc/<pid>/task/<tid>/comm`.
static inline int sclm_curl_name_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
