/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suites.h - where the test programs are and what each says of itself.
 *
 * Suites dir: DEVPM_SUITES_DIR, else <dir of devpm>/suites (the build
 * tree), <dir>/../suites, <dir>/../lib/devpm/suites (installed).  A suite
 * is a subdirectory, a program an executable inside it; both sorted.
 * As root (path_trust.h): DEVPM_SUITES_DIR is ignored, with a line, unless
 * it passes the rule; the directory found must pass it, not even sticky
 * (else exit 2); a suite or program another user could change is skipped
 * with a line.
 */
#ifndef DEVPM_RUNNER_SUITES_H
#define DEVPM_RUNNER_SUITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct rn_progspec {
	char *suite, *name, *path;
	/* From --list (cases matching the --test glob) and --needs. */
	char **cases;
	size_t ncases;
	bool list_ok;
	char *list_error;
	int timeout_s;
	struct rn_buf needs;	/* "# NEEDS ..." lines */
	/* "# NEEDS sleep-scope: own-devices" (harness/test_info.h) */
	bool quiet;
	/*
	 * Recorded answers (probe_cache.h); cache_state 0 unchecked, 1 the
	 * program still hashes the same, -1 it changed.  cached: an answer
	 * came from there.
	 */
	char *cache_list, *cache_needs;
	uint64_t cache_size, cache_hash;
	int cache_state;
	bool cached;
};

/* Queries of a program (--list, --needs) may take this long. */
#define RN_QUERY_MS 10000
#define RN_DEFAULT_TIMEOUT_S 60

/* 0, or -ENOENT after printing one line naming where it looked. */
int rn_suites_dir(char *buf, size_t len);

/*
 * Every program of every suite, sorted, with the answers recorded in the
 * dir's probe cache (probe_cache.h).  -errno on an unreadable dir.
 */
int rn_discover(const char *dir, struct rn_progspec **out, size_t *n);
void rn_progspecs_free(struct rn_progspec *v, size_t n);

/*
 * Ask p (opt "--list" or "--needs") for its output, a string the caller
 * frees; NULL with *error (freed by the caller) naming what failed.
 */
char *rn_query_raw(struct rn_progspec *p, const char *opt, char **error);

/* `prog --list` (or its recorded answer): cases matching glob (NULL: all). */
void rn_query_list(struct rn_progspec *p, const char *glob);
/* `prog --needs` (or its recorded answer): timeout and needs lines. */
void rn_query_needs(struct rn_progspec *p);

/*
 * --test GLOB: matched against the case name, "program/case" when GLOB
 * holds one '/', "suite/program/case" when it holds two.
 */
bool rn_glob_match(const char *glob, const char *suite, const char *prog,
		   const char *casename);
/* The part of GLOB a test program matches its case names with. */
const char *rn_glob_case(const char *glob);

#endif
