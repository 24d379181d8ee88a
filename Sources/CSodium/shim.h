#ifndef CSodium_SHIM_H
#define CSodium_SHIM_H
#include <sodium.h>
#endif
