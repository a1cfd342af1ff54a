// SPDX-License-Identifier: GPL-2.0-only
/*
 * state.c - the agent's clock, its log and the end of a run (state.h),
 * shared by the main loop (agent.c) and the guest's requests (serve.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "state.h"

const char *const status_names[] = {
	"running", "done", "crash", "hang", "error", "interrupted"
};

uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

double secs(uint64_t us)
{
	return us / 1e6;
}

void logf_(struct agent *a, const char *fmt, ...)
{
	va_list ap;

	if (!a->log)
		return;
	fprintf(a->log, "%9.3f ", secs(now_us() - a->t0));
	va_start(ap, fmt);
	vfprintf(a->log, fmt, ap);
	va_end(ap);
	fputc('\n', a->log);
	fflush(a->log);
}

void stop_qemu(struct agent *a, int after_s)
{
	uint64_t at = now_us() + (uint64_t)after_s * 1000000;

	if (!a->stop_at || at < a->stop_at)
		a->stop_at = at;
}

void end_run(struct agent *a, enum status st, int after_s, const char *fmt,
	     ...)
{
	va_list ap;

	if (a->status != ST_RUNNING)
		return;
	a->status = st;
	va_start(ap, fmt);
	vsnprintf(a->why, sizeof(a->why), fmt, ap);
	va_end(ap);
	a->t_end = now_us();
	logf_(a, "end: %s: %s", status_names[st], a->why);
	stop_qemu(a, after_s);
}
