/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * state.h - the agent's run state, shared by agent.c (QEMU, the channels,
 * the watchdog) and serve.c (the guest's requests and wakes via QMP).
 */
#ifndef DEVPM_QEMU_STATE_H
#define DEVPM_QEMU_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "agent.h"
#include "qmp.h"

#define LINE_MAX_LEN	8192
#define QMP_TIMEOUT_MS	3000
/* After DONE, when the guest's exit line does not come (it stops at once). */
#define AFTER_DONE_S	10	/* poweroff -f hangs after S3: then quit */
#define AFTER_DONE_S3_S	2	/* ... sooner when an S3 cycle was seen */
#define AFTER_PANIC_S	5
#define QUIT_TO_KILL_S	5

enum chan { CH_CONSOLE, CH_RESULTS, CH_AGENT, CH_QMP, CH_N };

struct linebuf {
	char buf[LINE_MAX_LEN];
	size_t len;
};

enum status { ST_RUNNING, ST_DONE, ST_CRASH, ST_HANG, ST_ERROR, ST_INTR };

struct agent {
	/* options */
	int boot_timeout_s, margin_s, timeout_s, probe_s;
	bool quiet;
	const char *sleep_dev;	/* QOM path of the virtio device to watch */
	uint64_t next_poll;

	pid_t qemu;
	int qemu_status;
	bool qemu_gone;
	int lfd[CH_N], fd[CH_N], qemu_err;
	int stream_fd;
	FILE *console_log, *log;
	struct linebuf lb[CH_N], errlb;
	struct qmp qmp;
	bool qmp_up, started;
	struct wake wake;
	struct request wake_key;	/* pressed when the armed sleep starts */
	bool wake_key_armed;
	bool s3_seen;		/* a SUSPEND event came: poweroff will hang */

	uint64_t t0, t_first, t_last, t_end, stop_at, kill_at;
	uint64_t t_first_prog;	/* the first PROG record: boot to first test */
	long records;
	char prog[128];
	int prog_timeout;
	int done_code, guest_exit;
	bool probe_ok;

	enum status status;
	char crash[600];	/* remembered kernel crash lines */
	bool crash_fatal;
	char why[600];		/* what ended the run */
	char qemu_msg[512];	/* QEMU's first complaint on stderr */
};

/* state.c */
extern const char *const status_names[];	/* by enum status */
uint64_t now_us(void);
double secs(uint64_t us);	/* µs as seconds */
void logf_(struct agent *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Decide how the run ended (first call wins); QEMU stops after_s. */
void end_run(struct agent *a, enum status st, int after_s, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));
/* Ask QEMU to stop (QMP quit), SIGKILL if it has not after a while. */
void stop_qemu(struct agent *a, int after_s);

/* serve.c */
void on_qmp_event(void *ctx, const char *json);
/* A QMP command, logged; 0 or -errno with QEMU's error in reply. */
int qmp(struct agent *a, const char *cmd, char *reply, size_t len);
void on_agent_line(struct agent *a, const char *line);
void poll_sleep(struct agent *a);
void do_wake(struct agent *a, enum wake_action act);

#endif
