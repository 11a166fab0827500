#ifndef SCLM_CCRYPTO_SHIM_H
#define SCLM_CCRYPTO_SHIM_H

#include <openssl/evp.h>
#include <openssl/hmac.h>

/// Wraps `HMAC(EVP_sha512(), …)`: writes the 64-byte MAC of `data` under `key` to `out`; returns 1 on success.
static inline int sclm_crypto_hmac_sha512(const void *key, int keyLength, const unsigned char *data, size_t dataLength,
                                          unsigned char *out) {
    unsigned int length = 0;
    return HMAC(EVP_sha512(), key, keyLength, data, dataLength, out, &length) != NULL && length == 64;
}

#endif
