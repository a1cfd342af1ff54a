/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qos_bench.h - the QoS suite's bench: a devpm_mock device with its
 * resume-latency limit and NO_POWER_OFF flag exposed (docs/fixtures.md),
 * traced with the runtime-PM and QoS events, set up once per program and
 * brought back to "suspended" before every case.
 */
#ifndef DEVPM_QOS_BENCH_H
#define DEVPM_QOS_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "rpm/device.h"
#include "trace/trace.h"

#define DEVPM_QOS_BENCH_ID		0
#define DEVPM_QOS_BENCH_AUTOSUSPEND_MS	50
/* Suspended within the delay, its 25% timer slack and a margin. */
#define DEVPM_QOS_BENCH_SUSPEND_MS	(DEVPM_QOS_BENCH_AUTOSUSPEND_MS * 5 / 4 + 1000)
/* "Held through three autosuspend delays", slack included. */
#define DEVPM_QOS_BENCH_HOLD_MS		(3 * DEVPM_QOS_BENCH_AUTOSUSPEND_MS * 5 / 4)

struct devpm_qos_bench {
	bool ok;
	char why[256];		/* !ok: why there is no device */
	struct devpm_dev d;
	struct devpm_trace *t;
};

void devpm_qos_bench_init(struct devpm_qos_bench *m);
void devpm_qos_bench_fini(struct devpm_qos_bench *m);

/*
 * Load devpm_mock, create devpm_mock.0 (autosuspend
 * DEVPM_QOS_BENCH_AUTOSUSPEND_MS) and trace it; it must reach "suspended"
 * (it can suspend: the baseline every case starts from).  0, or 1 with
 * m->why set.  Done once, before the harness forks the cases: a tracefs
 * instance and a module load each cost most of a second in a TCG guest.
 * The journal unloads the module when the program exits.
 */
int devpm_qos_bench_setup(struct devpm_qos_bench *m, bool cpuidle);

/*
 * A resume and a new idle check, as user space gets them: control=on
 * (pm_runtime_forbid(): a synchronous resume) then auto
 * (pm_runtime_allow(): rpm_idle, which suspends after the delay unless
 * something refuses).  Both journaled.
 */
int devpm_qos_bench_kick(struct devpm_qos_bench *m);

/*
 * At the start of a case: the shared device is back where every case
 * starts (the previous case's knobs restored), suspended; the trace is
 * cleared.  0, or 1 with m->why set.
 */
int devpm_qos_bench_ready(struct devpm_qos_bench *m);

/*
 * DEVPM_QOS_RECORD=1 (for fixtures/trace/qemu-6.1/qos-*.txt): a second,
 * unfiltered tracefs instance with the rpm and QoS events whose "trace"
 * file is printed verbatim as "# RECORD <line>" when the program ends.
 * Off in every normal run.
 */
void devpm_qos_record_start(void);
void devpm_qos_record_dump(void);

#endif
