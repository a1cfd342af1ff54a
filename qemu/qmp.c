// SPDX-License-Identifier: GPL-2.0-only
/*
 * qmp.c - QMP client.  QEMU sends one JSON object per line: the greeting,
 * replies ("return" or "error") and events ("event").
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "qmp.h"

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Fill the buffer from the socket, waiting at most timeout_ms. */
static int fill(struct qmp *q, int timeout_ms)
{
	struct pollfd p = { .fd = q->fd, .events = POLLIN };
	ssize_t n;
	int r;

	if (q->len == sizeof(q->buf) - 1)
		q->len = 0;	/* a line this long is garbage: drop it */
	r = poll(&p, 1, timeout_ms);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (!r)
		return -ETIMEDOUT;
	n = read(q->fd, q->buf + q->len, sizeof(q->buf) - 1 - q->len);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -EPIPE;
	if (!n)
		return -EPIPE;
	q->len += n;
	q->buf[q->len] = '\0';
	return 0;
}

/* Take one complete line out of the buffer into line; 1 if there was. */
static int take_line(struct qmp *q, char *line, size_t len)
{
	char *nl = memchr(q->buf, '\n', q->len);
	size_t n;

	if (!nl)
		return 0;
	n = nl - q->buf;
	snprintf(line, len, "%.*s", (int)n, q->buf);
	memmove(q->buf, nl + 1, q->len - n - 1);
	q->len -= n + 1;
	q->buf[q->len] = '\0';
	return 1;
}

static bool is_event(const char *line)
{
	return json_has(line, "event") && json_has(line, "timestamp");
}

int qmp_pump(struct qmp *q)
{
	char line[sizeof(q->buf)];
	int r = fill(q, 0);

	if (r == -EPIPE)
		return r;
	while (take_line(q, line, sizeof(line)))
		if (is_event(line) && q->on_event)
			q->on_event(q->ctx, line);
	return 0;
}

/* Wait for the next reply line; events in between go to on_event. */
static int reply_line(struct qmp *q, char *out, size_t len, int timeout_ms)
{
	static char line[sizeof(((struct qmp *)0)->buf)];
	long long end = ms_now() + timeout_ms;
	int r;

	for (;;) {
		while (take_line(q, line, sizeof(line))) {
			if (is_event(line)) {
				if (q->on_event)
					q->on_event(q->ctx, line);
				continue;
			}
			if (json_has(line, "return") || json_has(line, "error") ||
			    json_has(line, "QMP")) {
				snprintf(out, len, "%s", line);
				return 0;
			}
		}
		if (ms_now() >= end)
			return -ETIMEDOUT;
		r = fill(q, (int)(end - ms_now()));
		if (r < 0 && r != -ETIMEDOUT)
			return r;
	}
}

int qmp_cmd(struct qmp *q, const char *cmd, char *reply, size_t len,
	    int timeout_ms)
{
	size_t n = strlen(cmd), o = 0;
	char buf[4096];
	int r;

	while (o < n) {
		ssize_t w = write(q->fd, cmd + o, n - o);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -EPIPE;
		o += w;
	}
	if (write(q->fd, "\n", 1) != 1)
		return -EPIPE;
	r = reply_line(q, buf, sizeof(buf), timeout_ms);
	if (r < 0)
		return r;
	if (json_has(buf, "error")) {
		if (json_str(buf, "error.desc", reply, len))
			snprintf(reply, len, "%s", buf);
		return -EIO;
	}
	snprintf(reply, len, "%s", buf);
	return 0;
}

int qmp_open(struct qmp *q, int fd, int timeout_ms)
{
	char buf[4096];
	int r;

	q->fd = fd;
	q->len = 0;
	q->buf[0] = '\0';
	r = reply_line(q, buf, sizeof(buf), timeout_ms);
	if (r < 0)
		return r;
	if (!json_has(buf, "QMP"))
		return -EPROTO;
	return qmp_cmd(q, "{\"execute\":\"qmp_capabilities\"}", buf,
		       sizeof(buf), timeout_ms);
}
