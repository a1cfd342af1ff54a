// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs.c - where tracefs is, and its files (tracefs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/tracefs.h"
#include "core/sysfs.h"

static char tracefs_dir[PATH_MAX];

bool devpm_tracefs_has(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !stat(p, &st);
}

/* A tracefs mount point from /proc/self/mounts, or "". */
static void mounted_tracefs(char *buf, size_t len)
{
	char dev[256], dir[PATH_MAX], type[64];
	FILE *f;

	buf[0] = '\0';
	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "tracefs") && devpm_tracefs_has(dir, "instances")) {
			snprintf(buf, len, "%s", dir);
			break;
		}
	}
	fclose(f);
}

const char *devpm_tracefs_find(bool may_mount)
{
	static const char *const known[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing", NULL
	};
	int i;

	if (tracefs_dir[0] && devpm_tracefs_has(tracefs_dir, "instances"))
		return tracefs_dir;
	mounted_tracefs(tracefs_dir, sizeof(tracefs_dir));
	if (tracefs_dir[0])
		return tracefs_dir;
	for (i = 0; known[i]; i++) {
		if (devpm_tracefs_has(known[i], "instances")) {
			snprintf(tracefs_dir, sizeof(tracefs_dir), "%s",
				 known[i]);
			return tracefs_dir;
		}
	}
	if (!may_mount)
		return "";
	if (geteuid()) {
		devpm_fail(EACCES, "tracefs is not mounted and mounting it needs root");
		return "";
	}
	if (mount("nodev", known[0], "tracefs", 0, NULL) ||
	    !devpm_tracefs_has(known[0], "instances")) {
		devpm_fail(errno ? errno : ENOENT, "cannot mount tracefs on %s: %s",
			   known[0], strerror(errno ? errno : ENOENT));
		return "";
	}
	snprintf(tracefs_dir, sizeof(tracefs_dir), "%s", known[0]);
	return tracefs_dir;
}

const char *devpm_tracefs(void)
{
	return devpm_tracefs_find(true);
}

/* Write val to <dir>/<file>; tracefs is never under the sysfs root. */
int devpm_tracefs_write(const char *dir, const char *file, const char *val)
{
	char p[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", p, strerror(errno));
	n = write(fd, val, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? errno : EIO;

		close(fd);
		return devpm_fail(err, "%s: writing '%s': %s", p, val,
				  strerror(err));
	}
	close(fd);
	return 0;
}

/*
 * Empty a cleanly stopped instance (tracing off) of what its last user
 * left unread: reading costs less than clearing the buffer ("trace"
 * O_TRUNC resets every CPU's buffer after an RCU grace period).
 */
int devpm_tracefs_drain(const char *dir)
{
	char p[PATH_MAX], buf[4096];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/trace_pipe", dir);
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", p, strerror(errno));
	do
		n = read(fd, buf, sizeof(buf));
	while (n > 0 || (n < 0 && errno == EINTR));
	close(fd);
	return n < 0 && errno != EAGAIN ?
	       devpm_fail(errno, "%s: %s", p, strerror(errno)) : 0;
}

/* What a user killed before its stop may have left on. */
int devpm_tracefs_reset(const char *dir)
{
	int r = devpm_tracefs_write(dir, "tracing_on", "0");

	if (!r)
		r = devpm_tracefs_write(dir, "events/enable", "0");
	if (!r)
		r = devpm_tracefs_write(dir, "trace", "");
	return r;
}
