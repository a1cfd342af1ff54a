// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock.c - CLOCK_MONOTONIC in µs, sleeps and deadlines (clock.h).
 */
#include <errno.h>
#include <time.h>

#include "core/clock.h"

uint64_t devpm_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void devpm_sleep_ms(int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int devpm_ms_left(uint64_t deadline_us)
{
	uint64_t now = devpm_now_us();

	return now >= deadline_us ? 0 :
	       (int)((deadline_us - now + 999) / 1000);
}
