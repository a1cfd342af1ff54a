// SPDX-License-Identifier: GPL-2.0-only
/*
 * host.c - requests to the QEMU host agent (host.h) over the virtio-serial
 * port named org.devpm.agent.  A port has one opener at a time: each
 * request opens it, sends one tagged line and waits for the reply with
 * the same tag, so a late reply to an earlier request is never taken for
 * this one's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/host.h"
#include "core/poll.h"
#include "core/sysfs.h"

#define AGENT_PORT_NAME	"org.devpm.agent"
#define PORTS_DIR	"/sys/class/virtio-ports"
#define REQ_MAX		480
#define DEFAULT_TIMEOUT_MS 5000

static long long host_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Kernel path of the agent's port ("/dev/vport1p1"); 0 or -ENODEV. */
static int agent_port(char *dev, size_t len)
{
	char dir[DEVPM_PATH_MAX], kpath[DEVPM_PATH_MAX], name[64];
	struct dirent *de;
	DIR *d;
	int r = -ENODEV;

	if (devpm_real_path(dir, sizeof(dir), PORTS_DIR) < 0)
		return -ENODEV;
	d = opendir(dir);
	if (!d)
		return -ENODEV;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (devpm_fmt(kpath, sizeof(kpath), PORTS_DIR "/%s/name",
			      de->d_name) < 0 ||
		    devpm_read_str(kpath, name, sizeof(name)) < 0 ||
		    strcmp(name, AGENT_PORT_NAME))
			continue;
		if (devpm_fmt(dev, len, "/dev/%s", de->d_name) < 0)
			break;
		r = 0;
		break;
	}
	closedir(d);
	return r;
}

bool devpm_host_available(void)
{
	char dev[DEVPM_PATH_MAX];

	return !agent_port(dev, sizeof(dev)) && devpm_exists(dev);
}

struct port_open {
	char path[DEVPM_PATH_MAX];
	int fd, err;
};

/* Opened, or failed for another reason than a holder (EBUSY). */
static bool port_opened(void *arg)
{
	struct port_open *p = arg;

	p->fd = open(p->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	p->err = p->fd < 0 ? errno : 0;
	return p->fd >= 0 || p->err != EBUSY;
}

static int open_port(const char *dev, long long end)
{
	long long left = end - host_now_ms();
	struct port_open p;

	if (devpm_real_path(p.path, sizeof(p.path), dev) < 0)
		return -ENAMETOOLONG;
	/* Another process holds the port: wait for it, bounded. */
	devpm_poll_until(port_opened, &p, left > 0 ? (int)left : 0);
	if (p.fd >= 0)
		return p.fd;
	return devpm_fail(p.err, "%s: %s", dev, strerror(p.err));
}

static int write_all(int fd, const char *buf, size_t n, long long end)
{
	size_t o = 0;

	while (o < n) {
		ssize_t w = write(fd, buf + o, n - o);
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		long long left = end - host_now_ms();

		if (w > 0) {
			o += w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (left <= 0)
			return -ETIMEDOUT;
		poll(&p, 1, (int)left);
	}
	return 0;
}

/*
 * Read lines until one starts with tag; its rest into reply.  0, or
 * -ETIMEDOUT, -ECONNRESET (agent gone), -errno.
 */
static int read_reply(int fd, const char *tag, char *reply, size_t len,
		      long long end)
{
	char buf[1024];
	size_t have = 0, tl = strlen(tag);

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = end - host_now_ms();
		char *nl;
		ssize_t n;

		while ((nl = memchr(buf, '\n', have))) {
			*nl = '\0';
			if (!strncmp(buf, tag, tl) && buf[tl] == ' ') {
				snprintf(reply, len, "%s", buf + tl + 1);
				return 0;
			}
			/* A stale reply to an earlier request: drop it. */
			have -= nl + 1 - buf;
			memmove(buf, nl + 1, have);
		}
		if (have == sizeof(buf))
			have = 0;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n > 0)
			have += n;
		else if (!n)
			return -ECONNRESET;
		else if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

int devpm_host_request(const char *req, char *reply, size_t len, int timeout_ms)
{
	static unsigned int seq;
	char dev[DEVPM_PATH_MAX], line[REQ_MAX + 32], tag[32], buf[512];
	long long end;
	int fd, r;

	if (!req || !req[0] || strlen(req) > REQ_MAX || strchr(req, '\n'))
		return devpm_fail(EINVAL,
				  "host request must be one line of 1..%d characters",
				  REQ_MAX);
	if (agent_port(dev, sizeof(dev)))
		return devpm_fail(ENODEV,
				  "no host agent: virtio port %s absent (not in devpm's QEMU image)",
				  AGENT_PORT_NAME);
	if (timeout_ms <= 0)
		timeout_ms = DEFAULT_TIMEOUT_MS;
	end = host_now_ms() + timeout_ms;
	fd = open_port(dev, end);
	if (fd < 0)
		return fd;
	snprintf(tag, sizeof(tag), "#%d.%u", (int)getpid(), ++seq);
	snprintf(line, sizeof(line), "%s %s\n", tag, req);
	r = write_all(fd, line, strlen(line), end);
	if (!r)
		r = read_reply(fd, tag, buf, sizeof(buf), end);
	close(fd);
	if (r == -ETIMEDOUT)
		return devpm_fail(ETIMEDOUT,
				  "host agent: no reply to '%s' within %d ms",
				  req, timeout_ms);
	if (r == -ECONNRESET)
		return devpm_fail(ECONNRESET,
				  "host agent not connected (port %s)", dev);
	if (r < 0)
		return devpm_fail(-r, "host agent port %s: %s", dev,
				  strerror(-r));
	if (reply && len)
		snprintf(reply, len, "%s", buf);
	if (!strncmp(buf, "ok", 2) && (!buf[2] || buf[2] == ' '))
		return 0;
	if (!strncmp(buf, "err", 3))
		return devpm_fail(EREMOTEIO, "host agent: '%s': %s", req, buf);
	return devpm_fail(EPROTO, "host agent: '%s': unexpected reply '%s'",
			  req, buf);
}
