/* A C face for Google's libphonenumber (C++), so Swift can parse and normalise phone numbers without C++ interop. */
#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    KYC_PHONE_OK = 0,
    KYC_PHONE_NOT_A_NUMBER = 1,      /* cannot be parsed as a phone number at all */
    KYC_PHONE_INVALID = 2,           /* parses, but is not a valid number for its region */
    KYC_PHONE_BUFFER_TOO_SMALL = 3,
} kyc_phone_status;

/* Parses `input` (with `default_region`, an ISO 3166 alpha-2 code such as "TR", used when the number has no
   +country prefix), checks that it is a valid number, and writes its E.164 form ("+905321234567") to `out`. */
kyc_phone_status kyc_phone_normalize_e164(const char *input, const char *default_region, char *out, size_t out_len);

#ifdef __cplusplus
}
#endif
#endif
