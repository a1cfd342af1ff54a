/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qmp.h - a QMP client on a connected socket: one command at a time,
 * events handed to a callback as they arrive (also while a command
 * waits for its reply).
 */
#ifndef DEVPM_QEMU_QMP_H
#define DEVPM_QEMU_QMP_H

#include <stddef.h>

struct qmp {
	int fd;
	char buf[65536];
	size_t len;
	void (*on_event)(void *ctx, const char *json);
	void *ctx;
};

/* Read the greeting and negotiate capabilities: 0 or -errno. */
int qmp_open(struct qmp *q, int fd, int timeout_ms);
/*
 * Send one command (a JSON object) and wait for its reply.  0 with the
 * reply's JSON in reply; -EIO with the error's "desc" in reply;
 * -ETIMEDOUT; -EPIPE when QEMU is gone.
 */
int qmp_cmd(struct qmp *q, const char *cmd, char *reply, size_t len,
	    int timeout_ms);
/* Read what is there (fd readable): events go to on_event.  0 or -EPIPE. */
int qmp_pump(struct qmp *q);

#endif
