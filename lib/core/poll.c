// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll.c - bounded waits with back-off (poll.h).
 */
#include <stdint.h>

#include "core/poll.h"
#include "core/clock.h"

int devpm_backoff_next(int ms)
{
	return ms * 2 > DEVPM_BACKOFF_MAX_MS ? DEVPM_BACKOFF_MAX_MS : ms * 2;
}

bool devpm_poll_until(bool (*cond)(void *arg), void *arg, int timeout_ms)
{
	uint64_t deadline = devpm_now_us() +
			    (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000;
	int backoff = DEVPM_BACKOFF_MIN_MS, left;

	for (;;) {
		if (cond(arg))
			return true;
		left = devpm_ms_left(deadline);
		if (!left)
			return false;
		devpm_sleep_ms(left < backoff ? left : backoff);
		backoff = devpm_backoff_next(backoff);
	}
}
