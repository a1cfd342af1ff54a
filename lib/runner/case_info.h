/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * case_info.h - what a consumer of one result needs beside its verdict,
 * the same in every output (junit.xml, summary.json, the KCIDB export,
 * report.html): when it started on the wall clock, the kernel log lines
 * written while it ran, and the run's properties (kernel, config,
 * machine, devpm, options).
 */
#ifndef DEVPM_RUNNER_CASE_INFO_H
#define DEVPM_RUNNER_CASE_INFO_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"
#include "util.h"

enum rn_time_fmt {
	RN_TIME_ISO,	/* 2025-01-02T03:04:05.123Z */
	RN_TIME_ANT,	/* 2025-01-02T03:04:05 (UTC; Ant's schema: no zone) */
	RN_TIME_KCIDB,	/* 2025-01-02T03:04:05.123000+00:00 */
};

/*
 * The wall-clock time of a CLOCK_MONOTONIC stamp of the run: the RUN
 * record's start plus the offset.  0, or -1 (buf "") when the run's start
 * is unknown or unreadable.
 */
int rn_wall_time(const struct rn_run *r, uint64_t mono_us, enum rn_time_fmt f,
		 char *buf, size_t len);

/* A case's start (its program's when it never started). */
uint64_t rn_case_start_us(const struct rn_prog *p, const struct rn_case *c);

/* "suite/program/case" (case NULL: "suite/program"), as rn_klog.where. */
char *rn_where(const struct rn_prog *p, const struct rn_case *c);

/* Kernel log lines kept per failure: every bad one, then the first. */
#define RN_KLOG_EXCERPT_MAX 40

/*
 * The kernel log lines written during where ("suite/program/case"), at
 * most max: the bad ones (WARN, BUG, ...) always, then the earliest of
 * the rest, in log order.  idx gets their indices into r->klog; returns
 * how many, *total (may be NULL) how many there were.
 */
size_t rn_klog_of(const struct rn_run *r, const char *where, size_t max,
		  size_t *idx, size_t *total);

/*
 * The same as text, one "[  12.345678] line" a line (bad lines marked
 * "BAD "), with a last line saying how many were left out; "" none.
 */
char *rn_klog_excerpt(const struct rn_run *r, const char *where, size_t max);

/* The run's properties, in a fixed order: key and value ("" unknown). */
struct rn_prop {
	const char *key;
	char *value;
};

/*
 * devpm_version, run_id, hostname, kernel_release, kernel_version,
 * config_sha256, arch, machine, cmdline, the run's options and the
 * environment a runner added (profile, accelerator).  Free with
 * rn_props_free().
 */
size_t rn_run_props(const struct rn_run *r, struct rn_prop **props);
void rn_props_free(struct rn_prop *props, size_t n);

/* The config's sha256 (64 hex digits) or "" when unknown. */
const char *rn_config_sha256(const struct rn_run *r);

#endif
