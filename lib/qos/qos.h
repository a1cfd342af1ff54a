/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qos.h - PM QoS as the kernel records it: the power:* QoS trace events,
 * /dev/cpu_dma_latency, and cpuidle state usage.
 *
 * Device QoS (drivers/base/power/qos.c) traces the request first
 * (dev_pm_qos_{add,update,remove}_request, with the device's name) and
 * then, only when the request's value changed, the list's new aggregate
 * (pm_qos_update_target, kernel/power/qos.c, without a device name).  An
 * aggregate is therefore the pm_qos_update_target that directly follows
 * the device's request event.  The CPU latency list traces the same way
 * after pm_qos_{add,update,remove}_request ("CPU_DMA_LATENCY value=N").
 *
 * Values are as the kernel keeps them: a resume latency of 2147483647
 * (S32_MAX) is "no constraint", 0 is "never suspend" (sysfs shows them
 * inverted: "0" and "n/a").
 */
#ifndef DEVPM_QOS_H
#define DEVPM_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"
#include "trace/trace.h"

#define DEVPM_QOS_NO_CONSTRAINT	2147483647	/* S32_MAX */
#define DEVPM_CPU_LATENCY_DEV	"/dev/cpu_dma_latency"

/* The trace events a QoS check enables ("system:event"), NULL-ended. */
extern const char *const devpm_qos_events[];
/* Enable them on t (those the kernel has); 0 or -errno. */
int devpm_qos_trace_events(struct devpm_trace *t);

/* One request event and the aggregate it produced. */
struct devpm_qos_update {
	uint64_t ts_us;
	char req[32];		/* "add", "update", "remove" */
	char type[32];		/* "DEV_PM_QOS_RESUME_LATENCY", "CPU" */
	int value;		/* the request's new value (-1 on remove) */
	bool changed;		/* a pm_qos_update_target followed */
	char action[16];	/* ADD_REQ, UPDATE_REQ, REMOVE_REQ */
	int prev, curr;		/* aggregate before and after */
};

/*
 * Request events of dev (NULL: the CPU latency list) of the given type
 * (NULL: any; "DEV_PM_QOS_RESUME_LATENCY", "DEV_PM_QOS_FLAGS") from
 * from_us on, each with the aggregate that followed it.  Stores at most
 * max; returns how many there are.
 */
size_t devpm_qos_updates(const struct devpm_event *ev, size_t n,
			 const char *dev, const char *type, uint64_t from_us,
			 struct devpm_qos_update *out, size_t max);

/*
 * The aggregate the kernel traced after the last of k updates against the
 * expected one: 1 equal, 0 not (msg names request, traced and expected
 * values), -ENOENT when no request or no aggregate was traced.
 */
int devpm_qos_check_aggregate(const struct devpm_qos_update *u, size_t k,
			      int expect, char *msg, size_t len);

/*
 * rpm_return_int of dev from rpm_idle or rpm_suspend with ret (-EPERM is
 * rpm_check_suspend_allowed()'s "QoS says never"), from from_us on: the
 * count.
 */
int devpm_qos_refusals(const struct devpm_event *ev, size_t n,
		       const char *dev, int ret, uint64_t from_us);

/*
 * The resume of dev that completed last in [from_us, to_us]: its time
 * from rpm_resume to its rpm_return_int 0, in µs.  0 with *us set, or
 * -ENOENT when the window has no completed resume.
 */
int devpm_qos_resume_us(const struct devpm_event *ev, size_t n,
			const char *dev, uint64_t from_us, uint64_t to_us,
			uint64_t *us);

/*
 * The verdict on a resume-latency limit: 1 when the measured resume fits
 * the limit, 0 when it does not (msg names device, limit, measured
 * resume and state), -ENOENT when no resume was traced (msg says so).
 * state: what the device says it entered ("" if unknown).
 */
int devpm_qos_limit_verdict(const char *dev, long limit_us,
			    uint64_t resume_us, bool traced,
			    const char *state, char *msg, size_t len);

/*
 * /dev/cpu_dma_latency: open (a request at the default value until the fd
 * is closed; a killed process leaves nothing), write as a 4-byte binary
 * s32 or as a hex string of any other length (kernel/power/qos.c:
 * cpu_latency_qos_write()), read the aggregate.  Writes return 0 or
 * -errno as the kernel gave it.
 */
int devpm_cpu_latency_open(void);
int devpm_cpu_latency_write_s32(int fd, int32_t value);
/* The hex text for value, never 4 bytes long (that would be binary). */
int devpm_cpu_latency_hex(int32_t value, char *buf, size_t len);
int devpm_cpu_latency_write_str(int fd, const char *text);
int devpm_cpu_latency_read(int fd, int32_t *value);

/*
 * Invalid values: each is written to kpath through the journal
 * (devpm_knob_write) and must give err (a -errno; 0: the kernel accepts
 * it, and then the file must read back reads, and the old value is put
 * back).  A rejected value must leave the old value in place.
 */
struct devpm_qos_bad {
	const char *val;
	int err;
	const char *reads;	/* when accepted; NULL: anything */
};

/*
 * 1 when every value did as expected, 0 when one did not (msg names the
 * file, the value, what the kernel did and what was expected), -errno
 * when kpath cannot be read.  log (may be NULL) gets one "val:result"
 * word per value.
 */
int devpm_qos_check_values(const char *kpath, const struct devpm_qos_bad *bad,
			   size_t n, char *msg, size_t len, char *log,
			   size_t loglen);

/*
 * Devices under /sys/devices with any of the QoS files (names NULL-ended,
 * e.g. "pm_qos_latency_tolerance_us"), sorted by path: a walk of the
 * directories only, without a snapshot of each device.  *paths is one
 * malloc'd array; returns the count or -errno.
 */
struct devpm_qos_path {
	char path[DEVPM_PATH_MAX];
};
int devpm_qos_devices(const char *const *files, struct devpm_qos_path **paths);

/* cpuidle state usage of the online CPUs (sysfs, under the sysfs root). */
#define DEVPM_CPUIDLE_MAX_CPUS	64
#define DEVPM_CPUIDLE_MAX_STATES 10

struct devpm_cpuidle {
	int ncpus;
	int cpu[DEVPM_CPUIDLE_MAX_CPUS];	/* CPU numbers */
	int nstates;				/* of cpu[0] */
	char name[DEVPM_CPUIDLE_MAX_STATES][32];
	long latency_us[DEVPM_CPUIDLE_MAX_STATES];
	long residency_us[DEVPM_CPUIDLE_MAX_STATES];	/* 0: unknown */
	unsigned long long usage[DEVPM_CPUIDLE_MAX_CPUS]
				[DEVPM_CPUIDLE_MAX_STATES];
};

/* current_driver and current_governor ("" when absent); 0 or -errno. */
int devpm_cpuidle_driver(char *drv, size_t dlen, char *gov, size_t glen);
/* Snapshot every CPU that has cpuidle states; -ENOENT when none has. */
int devpm_cpuidle_read(struct devpm_cpuidle *c);

/*
 * Usage growth between two snapshots of the same CPUs, judged against a
 * latency limit for the CPUs in mask (bit i: c->cpu[i]; others are not
 * judged): every state whose exit latency exceeds limit_us must not
 * grow, and some state within it must (else nothing was idle: no
 * verdict).  1 held, 0 broken (msg names CPU, state, latency, limit and
 * the growth), -EAGAIN no idle entry at all in the window.  deltas
 * (may be NULL) gets a "cpu0: C1+12 C2+0 ..." summary.
 */
int devpm_cpuidle_limit_verdict(const struct devpm_cpuidle *before,
				const struct devpm_cpuidle *after,
				uint64_t mask, long limit_us, char *msg,
				size_t len, char *deltas, size_t dlen);

/*
 * Growth of states with exit latency above limit_us on the CPUs in mask,
 * summed.  For "closing the fd lets it grow again".
 */
unsigned long long devpm_cpuidle_growth_above(const struct devpm_cpuidle *b,
					      const struct devpm_cpuidle *a,
					      uint64_t mask, long limit_us);

#endif
