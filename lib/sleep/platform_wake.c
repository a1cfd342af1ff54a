// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform_wake.c - a wake by the platform for a real s2idle cycle
 * (platform_wake.h).
 */
#include <stdbool.h>
#include <stdio.h>

#include "sleep/platform_wake.h"
#include "core/host.h"
#include "core/sysfs.h"
#include "sleep/wake_env.h"
#include "state/journal.h"

/* The RTC alarm, not the agent: set by devpm_platform_wake_setup(). */
static bool wake_by_rtc;

int devpm_platform_wake_setup(char *why, size_t len)
{
	wake_by_rtc = false;
	if (devpm_host_available()) {
		if (devpm_knob_write(DEVPM_WAKE_TTY, "enabled")) {
			snprintf(why, len, "ttyS0 cannot wake the system: %s",
				 devpm_error());
			return 1;
		}
		return 0;
	}
	if (devpm_exists(DEVPM_RTC_WAKEALARM)) {
		wake_by_rtc = true;
		return 0;
	}
	snprintf(why, len, "no wake source for s2idle: no QEMU host agent and no %s",
		 DEVPM_RTC_WAKEALARM);
	return 1;
}

int devpm_platform_wake_arm(const char *state, char *why, size_t len)
{
	char req[64], reply[256] = "";

	if (wake_by_rtc) {
		/* An alarm still pending makes the kernel refuse a new one. */
		if (devpm_knob_write(DEVPM_RTC_WAKEALARM, "0") ||
		    devpm_knob_write(DEVPM_RTC_WAKEALARM, DEVPM_RTC_WAKE_S)) {
			snprintf(why, len, "%s", devpm_error());
			return -1;
		}
		return 0;
	}
	snprintf(req, sizeof(req), "wake %s 20000", state);
	if (devpm_host_request(req, reply, sizeof(reply), 5000)) {
		snprintf(why, len, "host agent '%s': %s %s", req, reply,
			 devpm_error());
		return -1;
	}
	return 0;
}
