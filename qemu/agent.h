/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * agent.h - devpm's QEMU host agent (build/devpm-qemu-agent): boots the
 * guest, serves its requests over QMP, saves its record stream and
 * console, and ends a guest that crashed or hangs.
 *
 * The pure parts (request parsing, console and stream lines, the wake
 * state machine, the summary) are apart from the I/O so that
 * tests/test_qemu_agent.c can check them.
 */
#ifndef DEVPM_QEMU_AGENT_H
#define DEVPM_QEMU_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- json.c: lookups in one JSON text (QMP replies and events) ---- */

/*
 * path names a member of the top-level object, or of objects inside it
 * with dots: "return.status".  The text is parsed whole (the runner's
 * lib/runner/json_read.c), so text that is not JSON has no members.
 * json_str copies a string value into out (cut to len); json_bool and
 * json_int read a literal.  Return 0, or -ENOENT (no such member) /
 * -EINVAL (not JSON, or another type).
 */
int json_str(const char *text, const char *path, char *out, size_t len);
int json_bool(const char *text, const char *path, bool *val);
int json_int(const char *text, const char *path, long *val);
/* Has the text a member at path? */
bool json_has(const char *text, const char *path);

/* ---- request.c: one request line from the guest ---- */

enum req_kind { REQ_PING, REQ_KEY, REQ_LINK, REQ_WAKE };

enum wake_mode { WAKE_AUTO, WAKE_MEM, WAKE_FREEZE };

#define REQ_MAX_KEYS 16

struct request {
	enum req_kind kind;
	char dev[64];			/* key --dev: QOM id, "" = default */
	int nkeys;
	char keys[REQ_MAX_KEYS][32];	/* "a", "shift+a" (a chord) */
	char netdev[64];		/* link */
	bool up;
	enum wake_mode wake;
	int timeout_ms;			/* wake: how long the arm lasts */
	bool wake_key;			/* wake ... key: dev, keys as key */
	int delay_ms;			/* wake ... delay MS: first kick later */
};

/* 0, or -EINVAL with why set to the "err ..." reply text. */
int request_parse(const char *line, struct request *r, char *why,
		  size_t len);
/*
 * The QMP command for a key or link request; 0 or -ENOSPC.  Key events go
 * to the keyboard bound to console (a display device's QOM id) and head,
 * or with console NULL or "" to the default keyboard: QEMU's
 * input-send-event can only name a display, not a keyboard (ui/input.c).
 */
int request_qmp(const struct request *r, const char *console, int head,
		char *buf, size_t len);

/* ---- console.c: lines of the guest's serial console ---- */

/* A kernel message: it begins with the printk timestamp. */
bool console_kernel_line(const char *line);
/* A line that means the kernel crashed (panic, oops, BUG, lockup). */
bool console_crash_line(const char *line, bool *fatal);
/* "DEVPM-GUEST-EXIT <n>": 1 and *code, else 0. */
int console_guest_exit(const char *line, int *code);

/* ---- stream.c: the runner's record stream (lib/runner) ---- */

enum rec_kind { REC_OTHER, REC_PROG, REC_END, REC_DONE };

struct record {
	enum rec_kind kind;
	char prog[128];		/* PROG/END: suite/program */
	int value;		/* PROG: timeout_s; DONE: exit code */
};

void stream_record(const char *line, struct record *rec);

/* ---- wake.c: when and how to wake a sleeping guest ---- */

enum wake_action {
	WAKE_NONE,
	WAKE_SYSTEM_WAKEUP,	/* QMP system_wakeup: S3 */
	WAKE_SERIAL,		/* a character on the console: s2idle */
	WAKE_POWER_BUTTON,	/* QMP system_powerdown: s2idle */
	WAKE_EXPIRED,		/* armed, but the guest never slept */
};

struct wake {
	bool armed;
	enum wake_mode mode;
	uint64_t deadline_us;
	bool asleep;		/* its devices froze (virtio reset) */
	bool suspended;		/* QEMU reports S3 */
	uint64_t asleep_us, kick_us, button_us;
	int kicks;
	uint64_t delay_us;	/* first kick this much later (wake ... delay) */
};

void wake_arm(struct wake *w, enum wake_mode mode, int timeout_ms,
	      uint64_t now_us);
/* The guest's virtio device was reset (devices froze) or is driven again. */
void wake_port(struct wake *w, bool open, uint64_t now_us);
/* QEMU's SUSPEND event: the guest is in S3. */
void wake_suspended(struct wake *w);
/* The guest runs again (a request, RESUME/WAKEUP events): disarm. */
void wake_awake(struct wake *w);
enum wake_action wake_tick(struct wake *w, uint64_t now_us);

/* ---- summary.c: counts per suite from summary.json ---- */

/*
 * Print the table and each failure; returns the number of failures or
 * -errno when the file cannot be read.
 */
int summary_print(const char *path, FILE *out);

#endif
