/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - a private tracefs instance with runtime-PM events.
 *
 * devpm_trace_start() makes instances/devpm-<pid>-<n>, sets trace_clock to
 * "mono" (so timestamps compare with CLOCK_MONOTONIC), enables rpm_suspend,
 * rpm_resume, rpm_idle, rpm_return_int, rpm_usage and rpm_status (those
 * present) and, when device names are given, filters each event to them.  Extra events
 * ("power:device_pm_callback_start", "scsi:scsi_dispatch_cmd_start", ...)
 * can be added.  The instance is removed by devpm_trace_stop() (or kept
 * for the next start: devpm_trace_pool_begin()) and, after a crash, by
 * devpm_trace_cleanup_stale().  tracefs is the live kernel's:
 * with a sysfs root set (a recorded tree) devpm_trace_start() fails.  When
 * devpm mounts tracefs itself it leaves it mounted.
 */
#ifndef DEVPM_TRACE_H
#define DEVPM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace_event.h"
#include "trace/tracefs.h"

struct devpm_trace;


/*
 * Start tracing.  devs: NULL-terminated device names to filter on (NULL
 * or an empty list: all devices).  Returns NULL with devpm_error() set when tracefs is not
 * usable; callers then poll (wait.h does that).
 */
struct devpm_trace *devpm_trace_start(const char *const *devs);
/*
 * A trace of every device's rpm_return_int events with an error return
 * other than the ordinary ones (-EAGAIN, -EBUSY, -EINPROGRESS, -EACCES,
 * -EPERM): the runtime callbacks' failures (verdict.h).  In a program of
 * the runner, a view of its DEVPM_TRACE_RPM_KEPT instance when it has one:
 * every device's rpm_return_int, the ordinary returns too.
 */
struct devpm_trace *devpm_trace_start_rpm_errors(void);

/* Enable one more event ("system:event"), optional filter (NULL: none). */
int devpm_trace_add_event(struct devpm_trace *t, const char *sysev,
			  const char *filter);
/* Add a device to the rpm event filters (no-op on an unfiltered trace). */
int devpm_trace_add_dev(struct devpm_trace *t, const char *dev);

/*
 * Whether t keeps event e: every event, or, filtered on devices, an rpm
 * event only of one of them.  The kernel's filter does that, unless it is
 * a pooled instance's wider one (its last user's, naming every device of
 * t: kept, not rewritten, since a rewrite waits for an RCU grace period)
 * or too long for the kernel.  Exposed for the unit tests.
 */
bool devpm_trace_keeps(const struct devpm_trace *t,
		       const struct devpm_event *e);

/*
 * Read the events that arrived so far into the trace's buffer, waiting at
 * most timeout_ms for the first one (0: do not wait).  Returns the number
 * of new events; they are appended to the list devpm_trace_events() gives.
 */
int devpm_trace_poll(struct devpm_trace *t, int timeout_ms);
const struct devpm_event *devpm_trace_events(struct devpm_trace *t,
					     size_t *n);
/*
 * devpm_trace_poll() then devpm_trace_events(): every event so far.  A
 * NULL trace has none (*n 0): a case that polls instead asks the same.
 */
const struct devpm_event *devpm_trace_read(struct devpm_trace *t,
					   int timeout_ms, size_t *n);

/* Forget the events read so far. */
void devpm_trace_clear(struct devpm_trace *t);

void devpm_trace_stop(struct devpm_trace *t);
void devpm_trace_cleanup_stale(void);

/*
 * From now on the traces of this process and of the children it forks
 * (a test program's cases) reuse a few instances instead of making and
 * removing one each; they go when this process exits.
 */
void devpm_trace_pool_begin(void);

/*
 * In the runner, before the first program: its pool outlives every
 * program it starts (DEVPM_TRACE_POOL names the runner, checked to be the program's
 * parent), instead of each program making and removing its own: ~0.3 s a
 * program under TCG.  devpm_trace_pool_end() removes them at the end
 * (devpm_trace_cleanup_stale() after a crash).
 */
void devpm_trace_pool_share(void);
void devpm_trace_pool_end(void);

/*
 * In the runner, after devpm_trace_pool_share(): an instance it keeps for
 * all its programs, devpm-<runner>-k<suffix>, with events ("system:event",
 * or "system:event if <filter>"; NULL-terminated; those the kernel lacks
 * are left out) of every device,
 * on from now until devpm_trace_pool_end() removes it.  A program reads it
 * with devpm_trace_attach(suffix), which changes nothing in it: turning a
 * tracepoint on or off patches kernel text, ~0.1 s a program under TCG.
 * Its stop leaves the instance to the runner.
 */
struct devpm_trace *devpm_trace_keep(const char *suffix,
				     const char *const *events);
/*
 * A program of the runner: read its kept instance, from now on (what it
 * held is dropped).  NULL with devpm_error() set when there is none.
 * Each attach in a process is a view of one reader of the instance: every
 * view gets every event from its attach on, and its clear drops them for
 * it only.
 */
struct devpm_trace *devpm_trace_attach(const char *suffix);

/*
 * The events a kept trace's buffer holds now (the keeper's: the runner's),
 * read from its "trace" file without consuming them, those in [from_us,
 * to_us] passed to cb.  Opening that file pauses the instance's recording
 * while it is read (the kernel's pause-on-trace): call it between
 * programs.  Returns how many were passed, or -errno.
 */
int devpm_trace_read_buffer(struct devpm_trace *t, uint64_t from_us,
			    uint64_t to_us,
			    void (*cb)(const struct devpm_event *e, void *arg),
			    void *arg);

/*
 * The runner's kept instance of every device's runtime-PM calls
 * (lib/runner/kept.h): the floor's windows (least_time_sleeps.h) and the
 * verdict's error watch (devpm_trace_start_rpm_errors()) read it.
 */
#define DEVPM_TRACE_RPM_KEPT	"rpm"

#endif
