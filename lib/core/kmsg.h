/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmsg.h - the kernel log and taint between two points in time.
 *
 * A WARN, BUG, Oops, lockdep splat, "Call Trace" or a new taint flag other
 * than E/O (unsigned or out-of-tree modules) is a failure of whatever test
 * ran at the time.
 */
#ifndef DEVPM_KMSG_H
#define DEVPM_KMSG_H

#include <stdbool.h>
#include <stddef.h>

struct devpm_kmsg;

/* Open /dev/kmsg positioned at its end; NULL when unreadable. */
struct devpm_kmsg *devpm_kmsg_open(void);
int devpm_kmsg_fd(struct devpm_kmsg *k);	/* for poll() */

/*
 * Read every pending record.  Each line (text only, no prefix) is passed to
 * cb if non-NULL.  Returns the number of records read, or -errno.  Records
 * overwritten before they were read (EPIPE) are lost: devpm_kmsg_lost().
 */
int devpm_kmsg_drain(struct devpm_kmsg *k, void (*cb)(const char *line,
						     void *arg), void *arg);
/*
 * How many times a drain found records overwritten before it read them
 * (the ring was too small for what was logged meanwhile).
 */
unsigned long devpm_kmsg_lost(const struct devpm_kmsg *k);
void devpm_kmsg_close(struct devpm_kmsg *k);

/* True if the line is a kernel splat; exposed for unit tests. */
bool devpm_kmsg_is_bad(const char *line);

/*
 * How well a splat's line says where it happened, for the one line a
 * failure quotes: 3 names the file and the function ("WARNING: CPU: 0
 * PID: 1 at drivers/base/power/runtime.c:1234 rpm_suspend+0x1a/0x2b0",
 * kernel/panic.c:__warn), 2 the file ("kernel BUG at mm/slub.c:12!") or
 * the function ("BUG: KASAN: use-after-free in f+0x1/0x2"), 1 any other
 * bad line, 0 a marker that names nothing ("------------[ cut here ]",
 * "Call Trace:") or no bad line.
 */
int devpm_kmsg_bad_rank(const char *line);

/*
 * /proc/sys/kernel/tainted (or -errno); taint_new() lists the flags set in
 * now but not in before as their letters in bit order ("DW"; '?' for a bit
 * after N), ignoring E and O; "" if none or either value is negative.
 */
long devpm_taint_read(void);
void devpm_taint_new(long before, long now, char *buf, size_t len);

#endif
