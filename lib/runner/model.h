/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - what a run found: suites' programs, their cases, the devices
 * and metrics inside each case, the kernel log.  Built only by feeding
 * stream records (stream.h), by `devpm run` as it goes and by `devpm
 * collect` afterwards, so both produce the same results from the same
 * input.  Every output (KTAP, JUnit, JSON) is written from this model.
 */
#ifndef DEVPM_RUNNER_MODEL_H
#define DEVPM_RUNNER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rn_result {
	RN_NONE,	/* no result (yet) */
	RN_PASS,
	RN_FAIL,
	RN_SKIP,
	RN_XFAIL,	/* a skip whose reason starts with "XFAIL " */
	RN_NOT_RUN,	/* listed, but the program ended before it started */
};

struct rn_metric {
	char *device;		/* "-" when the metric is not per device */
	char *name;
	double value;
};

struct rn_device {
	char *name;
	enum rn_result result;
	char *reason;		/* "# " line before it, or its SKIP reason */
	char *note;		/* a skip's "# " line (the kernel's name); NULL */
};

struct rn_case {
	char *name;		/* RUN name without its fixture */
	char *full;		/* fixture[.variant].case as printed */
	enum rn_result result;
	bool open;		/* RUN seen, result not yet */
	char *reason;
	uint64_t start_us, end_us;
	struct rn_metric *metrics;
	size_t nmetrics, cmetrics;
	struct rn_device *devs;
	size_t ndevs, cdevs;
	char **out;		/* raw lines from RUN to the result */
	size_t nout;
	/* Candidate failure reasons, best first when the result comes. */
	char *assert_msg;	/* "# file:line:case:msg" */
	char *harness_msg;	/* "# case: Test terminated by ..." */
	char *step_msg;		/* "# case: Test failed at step #N" */
	char *kernel;		/* first kernel problem during the case */
	char *dev_note;		/* nested "# " line before a device's result */
};

struct rn_prog {
	char *suite, *name;
	int timeout_s;
	bool ended;
	char *status;		/* END: exit:N signal:N timeout ... */
	uint64_t start_us, end_us;
	char **listed;		/* cases it was asked to run */
	size_t nlisted;
	struct rn_case *cases;
	size_t ncases, ccases;
	int cur;		/* index of the open case, -1 none */
	char *skip_reason;	/* "1..0 # SKIP reason" */
	bool tap_seen;
	long plan;		/* top-level "1..N", -1 none */
	/* A result that belongs to no case: skip, crash, bad exit. */
	enum rn_result result;
	char *reason;
	char *kernel;		/* kernel problem outside any case */
	char **notes;
	size_t nnotes;
	char **out;		/* lines outside any case */
	size_t nout;
};

struct rn_klog {
	uint64_t ts_us;
	char *text;
	char *where;		/* "suite/prog/case" running then, "" none */
	bool bad;
};

struct rn_kv {
	char *key, *value;
};

/* A program of the run's plan (plan.h), recorded before the first runs. */
struct rn_planned {
	char *suite, *name;
	int timeout_s;
	char **cases;
	size_t ncases;
	bool started;		/* its PROG record came */
};

struct rn_run {
	int version;		/* of the stream */
	char *run_id;
	char *started;		/* ISO 8601 UTC */
	uint64_t start_us, end_us;
	struct rn_kv *env;
	size_t nenv;
	struct rn_prog *progs;
	size_t nprogs, cprogs;
	struct rn_klog *klog;
	size_t nklog, cklog;
	struct rn_planned *plan;
	size_t nplan, cplan;
	/* Run-level: kernel problems outside programs, an incomplete run. */
	char **problems;
	size_t nproblems;
	int cur;		/* program between PROG and END, -1 none */
	uint64_t last_us;	/* latest timestamp seen */
	bool header_seen;
	bool done;
	int done_code;
	bool incomplete;	/* no DONE: the machine stopped */
	size_t bad_records;	/* records that could not be parsed */
	char *first_bad;
};

struct rn_totals {
	unsigned int pass, fail, skip, xfail, not_run;
	/*
	 * The cases' device lines, counted apart: an XFAIL of a device in a
	 * case that passed is counted here (not in the cases' xfail).
	 */
	struct {
		unsigned int pass, fail, skip, xfail;
	} dev;
};

struct rn_run *rn_run_new(void);
void rn_run_free(struct rn_run *r);

const char *rn_result_name(enum rn_result res);

/*
 * Result of a program (of a suite's programs): fail if anything failed,
 * not_run if a case was not run, pass if one passed, skip if everything
 * skipped.
 */
enum rn_result rn_prog_result(const struct rn_prog *p);
/* Result of a suite's programs (by name) in the run. */
enum rn_result rn_suite_result(const struct rn_run *r, const char *suite);

/*
 * Count cases; a program-level result counts as one case.  Cases not run
 * count apart (not_run).
 */
void rn_totals(const struct rn_run *r, struct rn_totals *t);
void rn_prog_totals(const struct rn_prog *p, struct rn_totals *t);

/*
 * 1 if any failure, a case not run or a run-level problem; 4 (kselftest's
 * skip) when nothing was tested: no case passed, failed or hit its
 * expected failure but the final re-check's (rn_tested()); else 0.
 */
int rn_exit_code(const struct rn_run *r);
/* Did any case but the final re-check's pass, fail or xfail? */
bool rn_tested(const struct rn_run *r);
/* The run's own program after the last one (run.c: final_recheck). */
bool rn_prog_is_recheck(const struct rn_prog *p);

/* The listed cases that never started (after a timeout or a crash). */
bool rn_case_listed_ran(const struct rn_prog *p, const char *listed);

/* Distinct suite names in run order. */
size_t rn_suites(const struct rn_run *r, const char ***names);

const char *rn_env_get(const struct rn_run *r, const char *key);
void rn_env_set(struct rn_run *r, const char *key, const char *value);

/* Duration of a case or program in ms (0 when unknown). */
long long rn_case_ms(const struct rn_case *c);
long long rn_prog_ms(const struct rn_prog *p);

#endif
