/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_sleep.h - the delays the kernel chose to sleep: each call of
 * msleep(ms) and usleep_range_state(min, max, state), with the calling
 * task's pid, when it began and how long it asked for; and when usbcore's
 * hub_event() work (whose sleeps a USB port's resume or enumeration
 * waits out) began and returned, where usbcore is loaded.
 *
 * Both always sleep at least what they were asked (kernel/time/timer.c:
 * msleep() loops until its timeout ran out, usleep_range_state() until
 * its hrtimer fired), so [at, at + len] is time the caller could not beat
 * on any CPU: least_time_sleeps.h counts those inside PM transitions in a
 * case's floor.  The samples come from perf's kprobe PMU, one probe per
 * function and online CPU, with the first argument's register: the kernel
 * removes the probes when the descriptors close (kprobe_count.h), so a
 * crash leaves nothing behind.  The live kernel only.
 */
#ifndef DEVPM_KERNEL_SLEEP_H
#define DEVPM_KERNEL_SLEEP_H

#include <stddef.h>
#include <stdint.h>

struct devpm_kernel_sleep {
	int pid;		/* the task that slept (its thread id) */
	uint64_t at_us;		/* its call, CLOCK_MONOTONIC */
	uint64_t len_us;	/* what it asked for */
	/*
	 * 0: a sleep.  1, -1: no sleep but a work function the kernel
	 * sleeps in for a device, entered (1) or returned from (-1):
	 * usbcore's hub_event() (least_time_sleeps.h counts the sleeps between).
	 */
	int edge;
};

struct devpm_kernel_sleep_probe;

/* Start sampling: 0 with *out set, or -errno with devpm_error() set. */
int devpm_kernel_sleep_open(struct devpm_kernel_sleep_probe **out);

/*
 * Append the sleeps sampled since the last read to *v (grown as needed;
 * *n entries, *cap allocated), ordered by at_us.  Returns how many were
 * appended or -errno.  Samples the kernel dropped because a buffer was
 * full are added to *lost: the list then misses some sleeps.
 */
int devpm_kernel_sleep_read(struct devpm_kernel_sleep_probe *p, struct devpm_kernel_sleep **v,
		      size_t *n, size_t *cap, uint64_t *lost);

void devpm_kernel_sleep_close(struct devpm_kernel_sleep_probe *p);

/*
 * In the runner: the programs it starts inherit its probes (descriptors
 * and the runner's pid in DEVPM_KSLEEP) instead of making their own: a
 * kprobe's registration and removal patch kernel text, ~0.1 s a program
 * under TCG.  A program attaches with devpm_kernel_sleep_attach(), from now on
 * (what the probes held is dropped); -ENOENT when it was not started by
 * the runner that shared them.
 */
#define DEVPM_KERNEL_SLEEP_ENV "DEVPM_KSLEEP"
int devpm_kernel_sleep_share(struct devpm_kernel_sleep_probe *p);
int devpm_kernel_sleep_attach(struct devpm_kernel_sleep_probe **out);

/*
 * One perf record (header included, len bytes) of a probe whose argument
 * counts unit_us microseconds (0: none, a window's edge): 1 and *out set
 * for a sample (edge 0: the caller sets the probe's), 0 for another
 * record (a PERF_RECORD_LOST adds to *lost), -EINVAL when malformed.
 * Exposed for the unit tests and the fuzzer.
 */
int devpm_kernel_sleep_parse_record(const void *rec, size_t len, uint64_t unit_us,
			      struct devpm_kernel_sleep *out, uint64_t *lost);

#endif
