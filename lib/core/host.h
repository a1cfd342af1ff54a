/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host.h - requests to the QEMU host agent.
 *
 * Inside devpm's QEMU image a dedicated virtio-serial port
 * ("org.devpm.agent") reaches the host agent, which acts through QMP.
 * One request, one line; one reply line "ok [...]" or "err <why>".
 *   ping			"ok pong"
 *   key [--dev ID] <qcode>...	press and release each key (QMP
 *				input-send-event); "shift+a" is a chord; ID
 *				is a keyboard's QOM id (profile: kbd0, kbd1)
 *   link <netdev-id> on|off	set a NIC's link (QMP set_link; profile: n0)
 *   wake [auto|mem|freeze] [ms]	arm a wake for the sleep the test enters
 *				next: "ok armed ..." at once; once the guest's
 *				devices froze the agent wakes S3 by QMP
 *				system_wakeup, s2idle by a console character
 *				(enable ttyS0's power/wakeup first) or the ACPI
 *				power button; the arm ends at resume or after
 *				ms (default 30000), never reaching a later cycle
 *   wake ... [delay ms] [key [--dev ID] <qcode>...]
 *				the first wake only ms after the devices
 *				froze (a safety net for a cycle that should
 *				wake by itself); the keys are pressed as the
 *				guest's devices freeze (before the wake)
 * Any request ends an armed wake (the guest is awake to send it).
 * On the wire a request may begin with a tag "#<word> "; the reply then
 * begins with the same tag (devpm_host_request() tags every request and
 * skips stale replies).  devpm_host_request() returns 0 for "ok",
 * -EREMOTEIO for "err" (reply holds the text), -ETIMEDOUT, -EINVAL.
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
