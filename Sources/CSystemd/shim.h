#ifndef SCLM_CSYSTEMD_SHIM_H
#define SCLM_CSYSTEMD_SHIM_H

// libsystemd's service notifications (sd_notify(3), sd_watchdog_enabled(3)): the kiosk player tells systemd
// it is ready and alive through them rather than speaking the NOTIFY_SOCKET protocol itself.
#include <systemd/sd-daemon.h>

#endif
