/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - the run as a line-oriented record stream.
 *
 * `devpm run` writes every event as one record, flushed per line, to
 * <run dir>/stream.log and to --stream FILE (in devpm's QEMU image a
 * virtio-serial port), and builds its own results by feeding the same
 * records to the model.  `devpm collect` feeds a stream file the same way,
 * so results survive a guest that dies mid-run.
 *
 *	DEVPM-STREAM 1
 *	RUN <run-id> <started, ISO 8601 UTC> <mono_us>
 *	ENV <key>=<value>
 *	PLAN <suite>/<prog> <timeout_s> [<case>]	before the first PROG (plan.h)
 *	PROG <mono_us> <suite>/<prog> <timeout_s>
 *	CASE <name>				a case the program will run
 *	OUT <mono_us> <raw program line>
 *	KMSG <mono_us> <kernel log line>
 *	TAINT <mono_us> <new taint flags>
 *	NOTE <text>				the runner's remark on the program
 *	END <mono_us> <suite>/<prog> <duration_ms> <status>
 *	TIMELINE <suite>/<prog>/<case> <TIMELINE fields>
 *						a failed case's runtime-PM
 *						calls (rpm_timeline.h)
 *	DONE <mono_us> <exit code>
 *
 * status: exit:N | signal:N | timeout | interrupted:N | error:<text>.
 * A second header starts a new run: the last run in a file wins.
 */
#ifndef DEVPM_RUNNER_STREAM_H
#define DEVPM_RUNNER_STREAM_H

#include <stddef.h>
#include "model.h"

#define RN_STREAM_HEADER "DEVPM-STREAM 1"

/*
 * ENV key before DONE when the runner stopped before its plan's end (a
 * signal): why, for the cases it did not run.
 */
#define RN_ENV_STOPPED "stopped"

/*
 * The NOTEs of the program whose time holds the runner's quiet-window
 * unbind (ENV quiet_window_unbind_ms) or bind (ENV quiet_window_bind_ms):
 * devpm-bench counts that time to the runner, not to the program.
 */
#define RN_NOTE_QUIET_UNBOUND "quiet window: the runner unbound "
#define RN_NOTE_QUIET_BOUND "quiet window: bound again; "

/*
 * Feed one record (no newline).  0, or -1 if it was not understood (it is
 * counted in r->bad_records and otherwise ignored).
 */
int rn_stream_feed(struct rn_run *r, const char *rec);

/*
 * No more records.  A program without END died with the machine: its open
 * case fails with "guest crashed during this case: <crash>" (crash may be
 * NULL: "guest stopped responding").  A run without DONE is incomplete;
 * the planned programs that never started are not run (plan.h).
 */
void rn_stream_finish(struct rn_run *r, const char *crash);

/*
 * Read and feed a whole stream file: a regular file of at most
 * RN_READ_MAX bytes (util.h), so that neither a FIFO nor /dev/zero in its
 * place hangs or fills memory.  -errno (err says why) when it cannot be
 * read or holds no stream (-EINVAL).
 */
int rn_stream_read(const char *path, struct rn_run *r, char *err,
		   size_t len);

/* The writer: every record goes to each fd, then into run. */
struct rn_stream {
	int fd[2];
	const char *path[2];
	int nfd;
	struct rn_run *run;
};

void rn_stream_emit(struct rn_stream *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Open the file of `devpm run --stream FILE` for appending, by
 * path_trust.h's rule: never through a symlink at FILE, a regular file or
 * a character device (a virtio-serial port), as root on a path only root
 * can change.  fd, or -errno after one line on stderr.
 */
int rn_stream_open(const char *path);

#endif
