#ifndef CZeroMQ_SHIM_H
#define CZeroMQ_SHIM_H
#include <zmq.h>
#endif
