/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.h - results written from the model: results.ktap, junit.xml,
 * summary.json, env.json, dmesg.log, and the run directory itself.
 * Each writer returns a malloc'd text.
 */
#ifndef DEVPM_RUNNER_OUTPUT_H
#define DEVPM_RUNNER_OUTPUT_H

#include <stddef.h>
#include "model.h"
#include "util.h"

/* KTAP v1: suites, then programs, then cases, then devices. */
char *rn_out_ktap(const struct rn_run *r);
char *rn_out_junit(const struct rn_run *r);
char *rn_out_summary(const struct rn_run *r);
char *rn_out_env(const struct rn_run *r);
char *rn_out_dmesg(const struct rn_run *r);
/* lava.sh: a lava-test-case line per case and per metric (LAVA's helper). */
char *rn_out_lava(const struct rn_run *r);

/* Units of a metric from its name: "_us" us, "_ms" ms, else "none". */
const char *rn_metric_units(const char *name);

/* Append s as a JSON string literal / XML-escaped text. */
void rn_json_escape(struct rn_buf *b, const char *s);
void rn_xml_escape(struct rn_buf *b, const char *s);

/*
 * Make <output>/<id>, id = base or base-N when taken (output is created if
 * missing).  Returns the new directory's descriptor and fills dir/idout,
 * or -errno with a message on stderr.  As root, an output directory that
 * is not root's, or that others may write (not sticky), is refused.
 */
int rn_run_dir(const char *output, const char *base, char *dir, size_t len,
	       char *idout, size_t idlen);
/* That check alone (0 when output does not exist yet); says why on stderr. */
int rn_output_check(const char *output);
/* Create name in the run directory: O_CREAT | O_EXCL | O_NOFOLLOW. */
int rn_result_open(int dirfd, const char *name);
int rn_result_put(int dirfd, const char *name, const char *buf, size_t len);

/* UTC "YYYYmmdd-HHMMSS" and ISO 8601 of now. */
void rn_run_id_base(char *id, size_t idlen, char *iso, size_t isolen);

/*
 * Write every result file of r into dir and point <output>/latest at it
 * (replaced atomically).  0 or -errno (message on stderr).
 */
int rn_results_write(const struct rn_run *r, const char *output,
		     const char *dir, int dirfd);

/*
 * One line for stderr: "12 pass, 1 fail, 3 skip, 0 xfail in 34.2 s;
 * device lines: 40 pass, 1 fail, 9 skip, 2 xfail".
 */
void rn_totals_line(const struct rn_run *r, char *buf, size_t len);

#endif
