/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * least_time_sleeps.h - the kernel's own sleeps inside PM transitions, counted
 * in a case's floor (least_time.h).
 *
 * A resume or suspend waits out delays no CPU can beat that the kernel
 * chose, not the test: libata's link resume sleeps 200 ms and debounces
 * for 100 ms more on every hard reset (drivers/ata/libata-sata.c:
 * sata_link_resume(), sata_link_debounce()), a USB port resume signals
 * for 40 ms (drivers/usb/core/hub.c: usb_port_resume()).  Of the sleeps
 * kernel_sleep.h samples, a case's floor counts [at, at + len] for those
 * whose task was inside a PM window when it called:
 *
 *  rpm		between its rpm_resume or rpm_suspend event and the
 *		rpm_return_int that ends that call (nested calls of a parent
 *		count as the outer one);
 *  ata reset	between ata_*reset_begin and ata_*reset_end (libata's EH
 *		thread, which a port's runtime resume schedules);
 *  hub work	between usbcore's hub_event() entry and return (kprobes,
 *		kernel_sleep.h): the port debounce and enumeration that a
 *		USB resume or a new device waits for.
 *
 * A sleep of another task, or before a window's first event was seen,
 * does not count: the floor stays a lower bound.  The windows come from a
 * program-wide trace of every device's rpm events and libata's reset
 * events; without tracefs or the kprobe PMU the floor has the configured
 * delays only, and the program says so once.  (The probes outlive a CPU
 * taken offline and back: with -smp 2, pm_test=core's non-boot CPU kept
 * its probes enabled through it.)
 */
#ifndef DEVPM_LEAST_TIME_SLEEPS_H
#define DEVPM_LEAST_TIME_SLEEPS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/kernel_sleep.h"
#include "trace/trace.h"

/*
 * Call add(from, len, ctx) for each sleep of s[0..ns) (ordered by at_us;
 * its hub_event() edges bound windows too) made inside a PM window of
 * ev[0..nev) (trace order), clipped to the window's end.  Returns how
 * many counted.
 */
size_t devpm_least_time_sleeps_spans(const struct devpm_event *ev, size_t nev,
			       const struct devpm_kernel_sleep *s, size_t ns,
			       void (*add)(uint64_t from, uint64_t len,
					   void *ctx),
			       void *ctx);

/*
 * In the program's main process, before the harness forks the cases:
 * start the sleep probes and the windows' trace.  Idempotent.
 */
void devpm_least_time_sleeps_watch(void);

/*
 * The windows' events ("system:event", NULL-terminated): rpm's, and
 * libata's resets (without libata, none).  The runner keeps an instance
 * of them, DEVPM_TRACE_RPM_KEPT (lib/runner/kept.h).
 */
extern const char *const devpm_least_time_sleeps_events[];

/*
 * In the runner (lib/runner/kept.h): the probes, made once and kept for
 * every program it starts, which attach to them and to the runner's
 * DEVPM_TRACE_RPM_KEPT instance in devpm_least_time_sleeps_watch(); _ready()
 * before the first program (it names the probes to them), _unshare() at
 * the end.  Without them each program makes its own, or says why it
 * cannot.
 */
void devpm_least_time_sleeps_share(void);
void devpm_least_time_sleeps_share_ready(void);
void devpm_least_time_sleeps_unshare(void);

/*
 * At a case's end, before devpm_least_time_report(): add the case's kernel
 * sleeps to its floor, and report what they added as the metric "-"
 * floor_sleep_ms.
 */
void devpm_least_time_sleeps_case_end(void);

#endif
