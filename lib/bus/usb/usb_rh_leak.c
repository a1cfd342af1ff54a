// SPDX-License-Identifier: GPL-2.0-only
/*
 * usb_rh_leak.c - the root hub reference an xHC reinit leaks
 * (usb_rh_leak.h).
 */
#include <stdint.h>

#include "bus/usb/usb_rh_leak.h"
#include "core/clock.h"
#include "core/kprobe_count.h"
#include "core/note.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "trace/least_time.h"

void devpm_usb_rh_watch_start(struct devpm_usb_rh_watch *w)
{
	w->start = w->end = NULL;
	if (devpm_kprobe_count_open("usb_hcd_start_port_resume", &w->start) ||
	    devpm_kprobe_count_open("usb_hcd_end_port_resume", &w->end))
		devpm_note("port resumes not counted: %s", devpm_error());
}

long devpm_usb_rh_watch_open(const struct devpm_usb_rh_watch *w)
{
	int64_t s, e;

	if (!w->start || !w->end)
		return -1;
	s = devpm_kprobe_count_read(w->start);
	e = devpm_kprobe_count_read(w->end);
	if (s < 0 || e < 0)
		return -1;
	devpm_note("usb_hcd_start_port_resume() %lld, usb_hcd_end_port_resume() %lld calls in the cycle",
		   (long long)s, (long long)e);
	return (long)(s - e);
}

void devpm_usb_rh_watch_stop(struct devpm_usb_rh_watch *w)
{
	devpm_kprobe_count_close(w->start);
	devpm_kprobe_count_close(w->end);
	w->start = w->end = NULL;
}

struct rh_usage {
	char path[DEVPM_PATH_MAX];
	long base, now;
};

static bool rh_back(void *arg)
{
	struct rh_usage *u = arg;

	if (devpm_read_long(u->path, &u->now))
		return true;	/* gone: nothing to judge */
	return u->now <= u->base;
}

long devpm_usb_rh_leak(const char *hub, int timeout_ms, long *now, long *base)
{
	const struct devpm_baseline *b = devpm_baseline();
	const struct devpm_base_dev *bd;
	struct rh_usage u;
	uint64_t t0;

	bd = b ? devpm_baseline_find(b, hub) : NULL;
	*now = *base = -1;
	if (!bd || bd->usage < 0 ||
	    devpm_fmt(u.path, sizeof(u.path),
		      "/sys/bus/usb/devices/%s/power/runtime_usage", hub))
		return 0;
	u.base = u.now = bd->usage;
	t0 = devpm_now_us();
	if (devpm_poll_until(rh_back, &u, timeout_ms)) {
		*now = u.now;
		*base = u.base;
		return 0;	/* back at baseline, or gone */
	}
	/* A count that stays up the whole bound proves the leak (least_time.h). */
	devpm_least_time_add(t0, (uint64_t)timeout_ms * 1000);
	*now = u.now;
	*base = u.base;
	return u.now - u.base;
}

bool devpm_usb_rh_leak_explained(long leak, long open, bool reinit)
{
	return reinit && leak > 0 && open == leak;
}
