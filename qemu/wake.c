// SPDX-License-Identifier: GPL-2.0-only
/*
 * wake.c - waking a guest that a test put to sleep (DESIGN.md, "System
 * sleep and wake sources").
 *
 * A test arms a wake, then writes /sys/power/state.  QMP cannot see s2idle
 * (the guest stays "running"), but the agent sees the guest's devices
 * freeze: its virtio-serial device is reset (virtio's freeze) and driven
 * again at resume (agent.c polls it).  S3 is QMP's SUSPEND event, and
 * is answered by system_wakeup.  s2idle is answered by a character on the
 * console every SERIAL_EVERY: one that comes before the wake IRQs are armed
 * is plain input, the first one after wakes the guest (ttyS0's wakeup must
 * be enabled).  The ACPI power button follows only after BUTTON_AFTER, when
 * the guest must be asleep: pressed during the suspend it would abort it.
 * A wake is injected only while the armed cycle is asleep: never into a
 * later cycle; and an arm expires.
 */
#include <string.h>

#include "agent.h"

/* Auto mode waits this long for a SUSPEND event before it assumes s2idle. */
#define SETTLE_AUTO_US		600000
#define SERIAL_EVERY_US		200000
#define BUTTON_AFTER_US		3000000
#define BUTTON_EVERY_US		3000000

void wake_arm(struct wake *w, enum wake_mode mode, int timeout_ms,
	      uint64_t now_us)
{
	memset(w, 0, sizeof(*w));
	w->armed = true;
	w->mode = mode;
	w->deadline_us = now_us + (uint64_t)timeout_ms * 1000;
}

void wake_port(struct wake *w, bool open, uint64_t now_us)
{
	if (!w->armed)
		return;
	if (open) {
		/* Resumed (by us or by itself): this cycle is over. */
		if (w->asleep)
			wake_awake(w);
		return;
	}
	if (!w->asleep) {
		w->asleep = true;
		w->asleep_us = now_us;
		w->kick_us = now_us + w->delay_us +
			(w->mode == WAKE_AUTO ? SETTLE_AUTO_US : SERIAL_EVERY_US);
		w->button_us = now_us + w->delay_us + BUTTON_AFTER_US;
	}
}

void wake_suspended(struct wake *w)
{
	if (w->armed)
		w->suspended = true;
}

void wake_awake(struct wake *w)
{
	memset(w, 0, sizeof(*w));
}

enum wake_action wake_tick(struct wake *w, uint64_t now_us)
{
	if (!w->armed)
		return WAKE_NONE;
	if (w->suspended) {
		wake_awake(w);
		return WAKE_SYSTEM_WAKEUP;
	}
	if (now_us >= w->deadline_us) {
		wake_awake(w);
		return WAKE_EXPIRED;
	}
	if (!w->asleep || w->mode == WAKE_MEM)
		return WAKE_NONE;
	if (now_us >= w->button_us) {
		w->button_us = now_us + BUTTON_EVERY_US;
		w->kicks++;
		return WAKE_POWER_BUTTON;
	}
	if (now_us >= w->kick_us) {
		w->kick_us = now_us + w->delay_us + SERIAL_EVERY_US;
		w->kicks++;
		return WAKE_SERIAL;
	}
	return WAKE_NONE;
}
