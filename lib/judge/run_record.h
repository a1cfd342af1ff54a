/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_record.h - what the cases of one run judged and saw, for the cases
 * and programs after them and for the runner's final re-check: a fault
 * judged once is not judged again, a case whose cycle another device
 * refused says so and who judges it.
 *
 * The file is <run dir>/verdicts.tsv, beside the baseline file that
 * DEVPM_BASELINE names (a program run by hand has none: what it records
 * stays in the process).  Appended a whole line at a time (O_APPEND),
 * opened without following a symlink, read only when it is a regular file
 * of this user that nobody else may write.  One record a line, tab
 * separated, the case (suite/program/case) last:
 *	judged	<dev>	<rule>	<case>
 *	fault	<dev>	<driver>	<phase>	<err>	<case>
 *	held	<source>	<dev>	<driver>	<active_ms>	<case>
 */
#ifndef DEVPM_RUN_RECORD_H
#define DEVPM_RUN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#define DEVPM_RUN_RECORD_FILE	"verdicts.tsv"
#define DEVPM_RUN_RECORD_FIELDS	8

/* Who records: the program (suite, name) and, per case, its name. */
void devpm_run_record_program(const char *suite, const char *program);
void devpm_run_record_case(const char *casename);
/* "suite/program/case" of the running case ("" outside one). */
const char *devpm_run_record_who(void);

/*
 * Append one record: the fields given (no tab or newline in them: those
 * become spaces), then the case.  0, or -errno (no run file: -ENOENT,
 * nothing written).
 */
int devpm_run_record(const char *kind, const char *const *fields,
		     size_t n);

/*
 * Every record, oldest first: fn gets its fields (f[0] the kind, the
 * case last) and n; a non-zero return stops.  0 or -errno.
 */
int devpm_run_records(int (*fn)(void *arg, char **f, int n), void *arg);

/* Whether a record kind/dev (f[1]) exists, with the case that made it. */
bool devpm_run_record_find(const char *kind, const char *dev, char *who,
			   size_t len);

/* The file (unit tests); NULL: from DEVPM_BASELINE again. */
void devpm_run_record_path(const char *path);

#endif
