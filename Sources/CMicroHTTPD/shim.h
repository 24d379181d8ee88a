#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_get_daemon_info and MHD_get_connection_info are C-variadic, which Swift does not import. These wrappers call
   them with only the fixed arguments, for the info types that take no extra ones (bind port, client address). */
static inline const union MHD_DaemonInfo *kyc_mhd_daemon_info(struct MHD_Daemon *daemon,
                                                              enum MHD_DaemonInfoType type) {
    return MHD_get_daemon_info(daemon, type);
}

static inline const union MHD_ConnectionInfo *kyc_mhd_connection_info(struct MHD_Connection *connection,
                                                                      enum MHD_ConnectionInfoType type) {
    return MHD_get_connection_info(connection, type);
}
#endif
