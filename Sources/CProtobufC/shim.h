#ifndef CProtobufC_SHIM_H
#define CProtobufC_SHIM_H
#include <protobuf-c/protobuf-c.h>
#endif
