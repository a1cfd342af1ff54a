/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktap_summary.h - `devpm compare` of KTAP from any runner (KUnit,
 * kselftest, devpm's own results.ktap): the KTAP turned into the shape of
 * summary.json that compare reads, so that both inputs are judged by the
 * same rules.
 *
 * Every result line is one entry, named by its path of enclosing tests
 * ("# Subtest: NAME" headers, nested by indentation): suite = the first,
 * program = the second, case = the rest joined by '/'.  "# SKIP" reads as
 * skip, "# SKIP XFAIL..." and "# XFAIL" as xfail, "# TODO" as skip; the
 * comment after '#' is the reason.  A "# METRIC <device> <name>=<value>"
 * line (devpm's) belongs to the next result at its indentation.
 */
#ifndef DEVPM_RUNNER_KTAP_SUMMARY_H
#define DEVPM_RUNNER_KTAP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text holds KTAP or TAP: a "KTAP version" or "TAP version" line. */
bool rn_ktap_input(const char *text);

/*
 * The summary JSON text (free it), or NULL with err when the KTAP holds no
 * result line.
 */
char *rn_ktap_summary(const char *text, char *err, size_t len);

#endif
