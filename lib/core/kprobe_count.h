/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kprobe_count.h - how many times a kernel function ran, from perf's
 * kprobe PMU.
 *
 * A counter is one perf event per online CPU (pid -1), of the "kprobe"
 * PMU (/sys/bus/event_source/devices/kprobe, CONFIG_KPROBE_EVENTS): the
 * kernel removes the probe when the file descriptors close, so a crash
 * leaves nothing behind and nothing needs the journal, unlike a probe
 * written to tracefs' kprobe_events.  Used to prove a kernel leak's
 * mechanism: a reference a function takes (usb_hcd_start_port_resume())
 * with no call of the one that drops it (usb_hcd_end_port_resume()).
 * The live kernel only: with a sysfs root set it fails.
 */
#ifndef DEVPM_KPROBE_COUNT_H
#define DEVPM_KPROBE_COUNT_H

#include <stdint.h>

#define DEVPM_KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"

struct devpm_kprobe_count;

/*
 * Count calls of the kernel function func from now on.  0 with *out set,
 * or -errno with devpm_error() naming what is missing (no kprobe PMU, the
 * function is not probeable, no privilege).
 */
int devpm_kprobe_count_open(const char *func, struct devpm_kprobe_count **out);

/* Calls counted so far on all CPUs, or -errno. */
int64_t devpm_kprobe_count_read(const struct devpm_kprobe_count *c);

void devpm_kprobe_count_close(struct devpm_kprobe_count *c);

#endif
