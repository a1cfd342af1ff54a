// SPDX-License-Identifier: GPL-2.0-only
/*
 * scsi_disk_set.c - a set of SCSI disks under test (scsi_disk_set.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bus/scsi/scsi_disk_set.h"
#include "bus/scsi/scsi.h"
#include "core/clock.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "judge/block.h"
#include "judge/subtest.h"
#include "rpm/device.h"
#include "rpm/wait.h"
#include "trace/least_time.h"
#include "trace/trace.h"

int devpm_test_disk_init(const struct devpm_scsi_disk *d,
			 struct devpm_test_disk *x)
{
	memset(x, 0, sizeof(*x));
	x->d = d;
	if (devpm_dev_open(&x->sd, d->path) < 0 ||
	    devpm_dev_open(&x->tgt, d->target_path) < 0 ||
	    devpm_dev_open(&x->host, d->host_path) < 0)
		return -1;
	x->on = true;
	return 0;
}

int devpm_test_disk_open(struct devpm_subtest *s, const struct devpm_scsi_disk *d,
			 struct devpm_test_disk *x)
{
	if (devpm_test_disk_init(d, x)) {
		devpm_subtest_fail(s, d->name, "%s", devpm_error());
		return -1;
	}
	return 0;
}

void devpm_test_disk_drop(struct devpm_test_disk *x, const char *why)
{
	/* why may be x->why: snprintf() must not copy onto itself. */
	if (why != x->why)
		snprintf(x->why, sizeof(x->why), "%s", why);
	x->on = false;
}

void devpm_test_disk_drop_skip(struct devpm_test_disk *x, const char *why)
{
	devpm_test_disk_drop(x, why);
	x->skip = true;
}

void devpm_test_disk_check(struct devpm_block *b,
			   const struct devpm_test_disk *x)
{
	if (x->on)
		return;
	if (x->skip)
		devpm_block_skip(b, "%s", x->why);
	devpm_test_disk_abort(b, x, "%s", x->why);
}

void devpm_test_disk_abort(struct devpm_block *b,
			   const struct devpm_test_disk *x, const char *fmt,
			   ...)
{
	char why[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	devpm_block_abort(b, "%s: %s", x->d->block, why);
}

size_t devpm_disk_set_select(struct devpm_subtest *s,
			     const struct devpm_scsi_disk *d, size_t n,
			     bool data, struct devpm_test_disk *x)
{
	char why[512];
	size_t i, k = 0;
	long size;

	for (i = 0; i < n; i++) {
		if (!devpm_scsi_pm_ok(&d[i], why, sizeof(why)) ||
		    (data && !devpm_scsi_data_ok(&d[i], why, sizeof(why)))) {
			devpm_subtest_skip(s, d[i].name, "%s", why);
			continue;
		}
		if (!d[i].block[0]) {
			devpm_subtest_skip(s, d[i].name, "no block device yet");
			continue;
		}
		if (devpm_fmt(why, sizeof(why), "/sys/class/block/%s/size",
			      d[i].block) || devpm_read_long(why, &size) ||
		    size <= 0) {
			devpm_subtest_skip(s, d[i].name, "%s: no medium (size 0)",
				       d[i].block);
			continue;
		}
		if (!devpm_test_disk_open(s, &d[i], &x[k]))
			k++;
	}
	return k;
}

struct devpm_trace *devpm_disk_set_trace_names(const char **names)
{
	struct devpm_trace *t = devpm_trace_start(names);

	if (!t)
		devpm_note("no trace (%s): polling runtime_status",
			   devpm_error());
	free(names);
	return t;
}

struct devpm_trace *devpm_disk_set_trace(struct devpm_test_disk *x, size_t n,
					 const char *const *extra)
{
	const char **names = calloc(3 * n + 8, sizeof(*names));
	size_t i, k = 0;

	if (!names)
		return NULL;
	for (i = 0; i < n; i++) {
		names[k++] = x[i].sd.name;
		names[k++] = x[i].tgt.name;
		names[k++] = x[i].host.name;
	}
	for (i = 0; extra && extra[i] && i < 7; i++)
		names[k++] = extra[i];
	return devpm_disk_set_trace_names(names);
}

/*
 * The back-off step of devpm_disk_set_cycles()' poll without a trace
 * event to wait on (1-16 ms; the poll is bounded by bound_ms per disk).
 */
static void backoff_sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* The autosuspend delay the disk waited out before suspending: least_time.h. */
static void disk_floor(const struct devpm_dev *sd)
{
	char k[DEVPM_PATH_MAX];
	long ms;

	if (!devpm_dev_attr(sd, "autosuspend_delay_ms", k, sizeof(k)) &&
	    !devpm_read_long(k, &ms))
		devpm_least_time_add_before(devpm_now_us(), ms);
}

void devpm_disk_set_cycles(struct devpm_test_disk *x, size_t n,
			   struct devpm_trace *t, int cycles, int bound_ms,
			   int (*burst)(struct devpm_test_disk *x, size_t i,
					int cycle, void *arg),
			   void *arg)
{
	int *done = calloc(n ? n : 1, sizeof(*done));
	uint64_t *since = calloc(n ? n : 1, sizeof(*since));
	int backoff = 1;
	size_t i;

	if (!done || !since)
		goto out;
	for (i = 0; i < n; i++)
		since[i] = devpm_now_us();
	for (;;) {
		bool active = false, progress = false;

		for (i = 0; i < n; i++) {
			struct devpm_wait_result res;
			char st[32];

			if (!x[i].on || done[i] == cycles)
				continue;
			active = true;
			if (devpm_dev_status(&x[i].sd, st, sizeof(st)) < 0)
				st[0] = '\0';
			if (!strcmp(st, "suspended")) {
				/* The last burst's suspend waited its delay. */
				if (done[i])
					disk_floor(&x[i].sd);
				if (burst(&x[i], i, done[i], arg)) {
					x[i].on = false;
					continue;
				}
				done[i]++;
				since[i] = devpm_now_us();
				progress = true;
			} else if (devpm_now_us() - since[i] >
				   (uint64_t)bound_ms * 1000) {
				/* A zero wait fills in the diagnosis. */
				devpm_wait_status_why(&x[i].sd, NULL,
						      "suspended", 0, &res);
				snprintf(x[i].why, sizeof(x[i].why),
					 "cycle %d: not suspended within %d ms: %s",
					 done[i] + 1, bound_ms, res.why);
				x[i].on = false;
			}
		}
		if (!active)
			break;
		if (progress) {
			backoff = 1;
			continue;
		}
		if (!t || devpm_trace_poll(t, backoff) < 0)
			backoff_sleep_ms(backoff);
		if (backoff < 16)
			backoff *= 2;
	}
out:
	free(done);
	free(since);
}
