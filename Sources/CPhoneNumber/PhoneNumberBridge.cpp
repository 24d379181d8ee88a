// Bridges libphonenumber's C++ API to the C function declared in CPhoneNumber.h.
#include "CPhoneNumber.h"

#include <cstring>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

extern "C" kyc_phone_status kyc_phone_normalize_e164(const char *input, const char *default_region, char *out,
                                                     size_t out_len) {
    if (input == nullptr || default_region == nullptr || out == nullptr) return KYC_PHONE_NOT_A_NUMBER;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();  // thread-safe singleton
    PhoneNumber number;
    if (util->Parse(std::string(input), std::string(default_region), &number) != PhoneNumberUtil::NO_PARSING_ERROR) {
        return KYC_PHONE_NOT_A_NUMBER;
    }
    if (!util->IsValidNumber(number)) return KYC_PHONE_INVALID;
    std::string formatted;
    util->Format(number, PhoneNumberUtil::E164, &formatted);
    if (formatted.size() + 1 > out_len) return KYC_PHONE_BUFFER_TOO_SMALL;
    std::memcpy(out, formatted.c_str(), formatted.size() + 1);
    return KYC_PHONE_OK;
}
