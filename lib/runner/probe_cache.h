/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_cache.h - every program's answers to --list and --needs, recorded
 * once in <suites dir>/.probe-cache (`devpm list --write-cache`; the QEMU
 * image does it when it is built), each keyed by the size and a hash of
 * the program's bytes.  `devpm run` and `devpm list` take an answer from
 * it only while the program's bytes still hash the same; otherwise, and
 * without the file, they ask the program.  Starting every program twice
 * costs seconds under TCG before the first test.
 *
 * File: a header line, then per program
 *	P <suite>/<name> <size> <hash, 16 hex digits>
 *	L <a line of its --list output>		(any number)
 *	N <a line of its --needs output>	(any number)
 * Only programs whose queries both succeeded are recorded.
 */
#ifndef DEVPM_RUNNER_PROBE_CACHE_H
#define DEVPM_RUNNER_PROBE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "suites.h"

#define RN_PROBE_CACHE_FILE ".probe-cache"
#define RN_PROBE_CACHE_HEADER "devpm-probe-cache 1"

/*
 * Attach the recorded answers of dir's cache to the programs p[0..n).
 * No file is no cache; a file another user could have written, or one
 * that is not a regular file, is ignored with one line on stderr.
 */
void rn_probe_cache_attach(const char *dir, struct rn_progspec *p, size_t n);

/*
 * The recorded output of p for opt ("--list" or "--needs"), a copy the
 * caller frees; NULL when there is none or p's bytes changed since.
 */
char *rn_probe_cache_get(struct rn_progspec *p, const char *opt);

/* Size and hash of a file's bytes: 0, or -errno. */
int rn_probe_hash(const char *path, uint64_t *size, uint64_t *hash);

/*
 * Ask every program with query (suites.h: rn_query_raw(), its own answer
 * to opt, malloc'd, or NULL with *error malloc'd) and write dir's cache
 * (atomically).  Returns the number of programs recorded, or -errno.
 */
int rn_probe_cache_write(const char *dir, struct rn_progspec *p, size_t n,
			 char *(*query)(struct rn_progspec *p,
					const char *opt, char **error));

#endif
