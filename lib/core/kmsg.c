// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmsg.c - kernel log records and taint flags between two points (kmsg.h).
 *
 * /dev/kmsg gives one record per read(): "pri,seq,ts_us,flags[,...];text"
 * followed by " KEY=value" continuation lines (device info), which are
 * skipped.  EPIPE means records were overwritten before we read them; the
 * next read goes on with the oldest one left.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/kmsg.h"
#include "core/sysfs.h"

/* Bound on one drain, should the kernel log faster than we read. */
#define DRAIN_MAX 65536

struct devpm_kmsg {
	int fd;
	unsigned long lost;	/* EPIPE seen: records overwritten unread */
	char buf[8192];		/* a record is at most ~1 KiB of text + dict */
};

struct devpm_kmsg *devpm_kmsg_open(void)
{
	char path[DEVPM_PATH_MAX];
	struct devpm_kmsg *k;

	if (devpm_real_path(path, sizeof(path), "/dev/kmsg"))
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k) {
		devpm_fail(ENOMEM, "/dev/kmsg: %s", strerror(ENOMEM));
		return NULL;
	}
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		devpm_fail(errno, "%s: %s", path, strerror(errno));
		free(k);
		return NULL;
	}
	/* Only what is logged from now on. */
	lseek(k->fd, 0, SEEK_END);
	return k;
}

int devpm_kmsg_fd(struct devpm_kmsg *k)
{
	return k ? k->fd : -EBADF;
}

/* The records in buf (one from /dev/kmsg, maybe several from a file). */
static int parse(char *buf, void (*cb)(const char *line, void *arg),
		 void *arg)
{
	char *line, *next, *text;
	int n = 0;

	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (line[0] == ' ')
			continue;	/* continuation: SUBSYSTEM=, DEVICE= */
		text = strchr(line, ';');
		if (!text)
			continue;
		n++;
		if (cb)
			cb(text + 1, arg);
	}
	return n;
}

int devpm_kmsg_drain(struct devpm_kmsg *k, void (*cb)(const char *line,
						     void *arg), void *arg)
{
	int count = 0;
	ssize_t n;

	if (!k)
		return devpm_fail(EBADF, "/dev/kmsg: not open");
	while (count < DRAIN_MAX) {
		n = read(k->fd, k->buf, sizeof(k->buf) - 1);
		if (n < 0 && errno == EPIPE)
			k->lost++;
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return devpm_fail(errno, "/dev/kmsg: %s",
					  strerror(errno));
		if (!n)
			break;
		k->buf[n] = '\0';
		count += parse(k->buf, cb, arg);
	}
	return count;
}

unsigned long devpm_kmsg_lost(const struct devpm_kmsg *k)
{
	return k ? k->lost : 0;
}

void devpm_kmsg_close(struct devpm_kmsg *k)
{
	if (!k)
		return;
	close(k->fd);
	free(k);
}

static const char *const bad[] = {
	"WARNING:",
	"------------[ cut here ]",
	"BUG:",
	"Oops",
	"Call Trace:",
	"kernel BUG at",
	"general protection fault",
	"possible circular locking dependency",
	"lockdep",
	"Kernel panic",
	"UBSAN:",
	"KASAN:",
	"refcount_t:",
};

bool devpm_kmsg_is_bad(const char *line)
{
	const char *task;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(line, bad[i]))
			return true;
	/* hung task: "INFO: task kworker/0:1:42 blocked for more than 120 s" */
	task = strstr(line, "INFO: task ");
	return task && strstr(task, " blocked for more than ");
}

/* " at <path>.<ext>:<line>": a source file and line. */
static bool names_file(const char *s)
{
	const char *at, *colon;

	for (at = strstr(s, " at "); at; at = strstr(at + 1, " at ")) {
		colon = strchr(at + 4, ':');
		if (colon && colon[1] >= '0' && colon[1] <= '9' &&
		    memchr(at + 4, '.', colon - at - 4) &&
		    !memchr(at + 4, ' ', colon - at - 4))
			return true;
	}
	return false;
}

/* A symbol with its offset: "rpm_suspend+0x1a/0x2b0". */
static bool names_function(const char *s)
{
	const char *p = strstr(s, "+0x");

	return p && p > s && p[-1] != ' ' && strchr(p, '/');
}

int devpm_kmsg_bad_rank(const char *line)
{
	bool file, func;

	if (!devpm_kmsg_is_bad(line) || strstr(line, "[ cut here ]") ||
	    strstr(line, "Call Trace:"))
		return 0;
	file = names_file(line);
	func = names_function(line);
	if (file && func)
		return 3;
	return file || func ? 2 : 1;
}

long devpm_taint_read(void)
{
	long v;
	int r;

	r = devpm_read_long("/proc/sys/kernel/tainted", &v);
	return r ? r : v;
}

/* Documentation/admin-guide/tainted-kernels.rst, bit 0 upwards. */
static const char taint_letters[] = "PFSRMBUDAWCIOELKXTN";

void devpm_taint_new(long before, long now, char *buf, size_t len)
{
	unsigned long added;
	size_t n = 0;
	int bit;

	if (!len)
		return;
	buf[0] = '\0';
	if (before < 0 || now < 0)
		return;
	added = (unsigned long)now & ~(unsigned long)before;
	for (bit = 0; bit < (int)(8 * sizeof(added)) && n + 1 < len; bit++) {
		char c;

		if (!(added & (1UL << bit)))
			continue;
		c = bit < (int)strlen(taint_letters) ? taint_letters[bit] : '?';
		/* O, E: out-of-tree and unsigned modules (our own fixtures). */
		if (c == 'O' || c == 'E')
			continue;
		buf[n++] = c;
	}
	buf[n] = '\0';
}
