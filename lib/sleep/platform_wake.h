/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform_wake.h - a wake by the platform for one real s2idle cycle.
 *
 * In devpm's QEMU image the host agent (host.h): s2idle is not woken by
 * the RTC there (DESIGN.md), the agent's console characters do, with
 * ttyS0's power/wakeup enabled.  Elsewhere the RTC alarm (rtc0's
 * wakealarm, journaled: the restore writes the old value back, "" clears
 * it).
 */
#ifndef DEVPM_PLATFORM_WAKE_H
#define DEVPM_PLATFORM_WAKE_H

#include <stddef.h>

#define DEVPM_RTC_WAKEALARM	"/sys/class/rtc/rtc0/wakealarm"
#define DEVPM_RTC_WAKE_S	"+3"	/* seconds from the write */

/*
 * Choose the wake source (the agent, ttyS0's power/wakeup enabled through
 * the journal, or the RTC alarm).  0, or 1 with why set: no wake source.
 */
int devpm_platform_wake_setup(char *why, size_t len);

/*
 * Arm the source chosen by devpm_platform_wake_setup() for one cycle into
 * state ("freeze", ...): the agent wakes within 20 s, the RTC alarm
 * DEVPM_RTC_WAKE_S after the write.  0, or -1 with why set.
 */
int devpm_platform_wake_arm(const char *state, char *why, size_t len);

#endif
