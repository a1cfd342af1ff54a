/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env_hook.h - the environment's hook (lib/harness/environment.h) as the
 * runner calls it: checked once (`devpm run --env-hook PROG`), handed to
 * the programs in DEVPM_ENV_HOOK, and run as the window of the programs
 * whose sleep cycles judge only their own devices.
 *
 * The window is one process, "PROG window": it sets devices aside
 * (journaled in the runner's journal, as an attached process; it dies
 * with the runner, and `devpm restore` puts back what it did), prints
 * "READY <what it set aside>", and waits for its stdin to close; then it
 * puts them back, waits until they are whole, prints "DONE <what>" or
 * "FAILED <why>" and exits.  Its "NOTE ..." lines go to the stream.
 */
#ifndef DEVPM_RUNNER_ENV_HOOK_H
#define DEVPM_RUNNER_ENV_HOOK_H

#include <stdbool.h>
#include <sys/types.h>

#include "stream.h"

/*
 * path is a regular file (not a link) that may be run; as root also
 * root's, writable by nobody else, in a directory of root's that nobody
 * else may write.  0, or an exit code after one line naming the problem
 * and the fix.
 */
int rn_env_hook_check(const char *path);

struct rn_env_window {
	pid_t pid;		/* 0: not open */
	int in, out;		/* its stdin (closed: the end) and stdout */
	char what[512];		/* READY's: what it set aside */
	char fail[512];		/* why it failed ("" it did not) */
	char buf[4096];		/* its stdout, up to a line's end */
	size_t len;
};

/* Start "hook window" and wait for its READY.  0, or -1 with w->fail. */
int rn_env_window_open(struct rn_env_window *w, const char *hook,
		       struct rn_stream *st);

/* End the window: 0, or -1 with w->fail ("" before: it did not fail). */
int rn_env_window_close(struct rn_env_window *w, struct rn_stream *st);

#endif
