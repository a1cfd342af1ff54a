/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host.h - requests to the QEMU host agent.
 *
 * Inside devpm's QEMU image a dedicated virtio-serial port
 * ("org.devpm.agent") reaches the host agent, which acts through QMP.
 * One request, one line; one reply line "ok [...]" or "err <why>".
 *   ping
 *   key <qcode>...		press and release each key (QMP input-send-event)
 *   link <netdev-id> on|off	set a NIC's link
 *   wake			wake a suspended guest (checks it is suspended)
 * On real hardware there is no agent: -ENODEV, and the test SKIPs.
 */
#ifndef DEVPM_HOST_H
#define DEVPM_HOST_H

#include <stdbool.h>
#include <stddef.h>

bool devpm_host_available(void);
int devpm_host_request(const char *req, char *reply, size_t len,
		       int timeout_ms);

#endif
