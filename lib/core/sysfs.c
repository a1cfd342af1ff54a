// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c - typed sysfs reads and writes, redirectable to a recorded tree
 * (sysfs.h).  Errors name the path and what was found there.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "core/path_trust.h"

/* "" for the real system, else an absolute path without trailing '/'. */
static char sysfs_root[DEVPM_PATH_MAX];
/* That directory, open since devpm_set_sysfs_root() walked it; -1: none. */
static int root_fd = -1;

int devpm_set_sysfs_root(const char *dir)
{
	char link[64], real[PATH_MAX], why[512];
	ssize_t n;
	int fd;

	if (!dir || !dir[0]) {
		if (root_fd >= 0)
			close(root_fd);
		root_fd = -1;
		sysfs_root[0] = '\0';
		return 0;
	}
	/* Walked from /, each part checked (path_trust.h); kept open. */
	fd = devpm_path_trust_open(dir, DEVPM_TRUST_DIR, 0, 0, NULL, 0);
	snprintf(why, sizeof(why), "%s", devpm_error());
	if (fd == -ENOENT)
		return devpm_fail(ENOENT, "sysfs root %s does not exist (%s)",
				  dir, why);
	if (fd == -ENOTDIR)
		return devpm_fail(ENOTDIR, "sysfs root %s is not a directory%s%s%s",
				  dir, strstr(why, dir) ? "" : " (",
				  strstr(why, dir) ? "" : why,
				  strstr(why, dir) ? "" : ")");
	if (fd == -EPERM)
		return devpm_fail(EPERM, "sysfs root %s: %s; as root devpm takes only a tree that root owns and no one else can write (chown -R root it, chmod go-w it)",
				  dir, why);
	if (fd < 0)
		return devpm_fail(fd, "sysfs root %s: %s", dir, why);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0) {
		close(fd);
		return devpm_fail(n < 0 ? errno : EIO, "sysfs root %s: %s", dir,
				  n < 0 ? strerror(errno) : "no name");
	}
	real[n] = '\0';
	if (strlen(real) >= sizeof(sysfs_root) - 64) {
		close(fd);
		return devpm_fail(ENAMETOOLONG, "sysfs root %s: path too long",
				  dir);
	}
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
	sysfs_root[0] = '\0';
	/* "/" is the real system seen through a root of "/". */
	if (!strcmp(real, "/")) {
		close(fd);
		return 0;
	}
	strcpy(sysfs_root, real);
	root_fd = fd;
	return 0;
}

int devpm_sysfs_root_from_env(void)
{
	const char *dir = getenv("DEVPM_SYSFS_ROOT");

	if (!dir || !dir[0])
		return 0;
	return devpm_set_sysfs_root(dir);
}

const char *devpm_sysfs_root(void)
{
	return sysfs_root;
}

int devpm_sysfs_root_fd(void)
{
	return root_fd;
}

/* Does path start with the directory dir ("/sys" matches "/sys/x", "/sys")? */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

int devpm_real_path(char *buf, size_t len, const char *kpath)
{
	bool redirect;

	redirect = sysfs_root[0] && !under(kpath, sysfs_root) &&
		   (under(kpath, "/sys") || under(kpath, "/proc") ||
		    under(kpath, "/dev"));
	if (redirect)
		return devpm_fmt(buf, len, "%s%s", sysfs_root, kpath);
	return devpm_fmt(buf, len, "%s", kpath);
}

void devpm_link_base(const char *dir, const char *name, char *buf,
		     size_t len)
{
	char p[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX], t[DEVPM_PATH_MAX];
	const char *slash;
	ssize_t n;

	buf[0] = '\0';
	if (devpm_fmt(p, sizeof(p), "%s/%s", dir, name) < 0 ||
	    devpm_real_path(real, sizeof(real), p) < 0)
		return;
	n = readlink(real, t, sizeof(t) - 1);
	if (n <= 0)
		return;
	t[n] = '\0';
	slash = strrchr(t, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : t);
}

int devpm_resolve(const char *kpath, char *buf, size_t len)
{
	char path[DEVPM_PATH_MAX], real[PATH_MAX];
	size_t n = strlen(sysfs_root);
	int r;

	r = devpm_real_path(path, sizeof(path), kpath);
	if (r)
		return r;
	if (!realpath(path, real))
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	if (n) {
		if (!under(real, sysfs_root))
			return devpm_fail(EXDEV, "%s resolves to %s, outside the sysfs root %s",
					  path, real, sysfs_root);
		return devpm_fmt(buf, len, "%s", real[n] ? real + n : "/");
	}
	return devpm_fmt(buf, len, "%s", real);
}

/*
 * Open a kernel path.  Under a sysfs root, below the root's descriptor and
 * never out of it (openat2 RESOLVE_BENEATH): a link of the tree that is
 * absolute is resolved under the root first (devpm_resolve()) and the
 * open tried once more, beneath again.  path gets the real path, for
 * messages.  fd, or -errno with devpm_error() set.
 */
static int open_kpath(const char *kpath, int flags, char *path, size_t len)
{
	char dir[DEVPM_PATH_MAX], res[DEVPM_PATH_MAX], rel[DEVPM_PATH_MAX];
	size_t n = strlen(sysfs_root);
	const char *base;
	int fd, r;

	r = devpm_real_path(path, len, kpath);
	if (r)
		return r;
	if (root_fd < 0 || !under(path, sysfs_root)) {
		fd = open(path, flags | O_CLOEXEC);
		return fd < 0 ? devpm_fail(errno, "%s: %s", path,
					   strerror(errno)) : fd;
	}
	fd = path[n] ? devpm_path_trust_beneath(root_fd, path + n + 1, flags) :
		       -1;
	if (fd >= 0 || errno != EXDEV)
		return fd >= 0 ? fd : devpm_fail(errno, "%s: %s", path,
						 strerror(errno));
	base = strrchr(path + n, '/');
	if (devpm_fmt(dir, sizeof(dir), "%.*s", (int)(base - path), path) ||
	    devpm_resolve(dir, res, sizeof(res)) ||
	    devpm_fmt(rel, sizeof(rel), "%s%s", res[1] ? res + 1 : "", base))
		return devpm_fail(EXDEV, "%s: leaves the sysfs root %s",
				  path, sysfs_root);
	fd = devpm_path_trust_beneath(root_fd, rel[0] == '/' ? rel + 1 : rel,
				      flags);
	return fd >= 0 ? fd : devpm_fail(errno, "%s: %s", path,
					 strerror(errno));
}

/* What devpm_read_file() does once the file is open; closes fd. */
static int read_fd(int fd, const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	char extra;
	int r;

	/* sysfs gives the whole value in one read; a plain file may not. */
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = devpm_fail(errno, "%s: %s", path, strerror(errno));
			close(fd);
			return r;
		}
		if (!n)
			break;
		got += n;
	}
	buf[got] = '\0';
	/* Full buffer: only the newline that would be stripped may remain. */
	if (got == len - 1 && read(fd, &extra, 1) > 0 &&
	    (extra != '\n' || read(fd, &extra, 1) > 0)) {
		close(fd);
		return devpm_fail(EOVERFLOW, "%s: value longer than %zu bytes",
				  path, len - 1);
	}
	close(fd);
	if (got && buf[got - 1] == '\n')
		buf[got - 1] = '\0';
	return 0;
}

int devpm_read_file(const char *path, char *buf, size_t len)
{
	int fd;

	if (!len)
		return devpm_fail(EINVAL, "%s: no room to read into", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	return read_fd(fd, path, buf, len);
}

int devpm_open_dir(const char *kpath)
{
	char path[DEVPM_PATH_MAX];
	int fd, r;

	r = devpm_real_path(path, sizeof(path), kpath);
	if (r)
		return r;
	fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? devpm_fail(errno, "%s: %s", path, strerror(errno)) :
			fd;
}

int devpm_read_str_at(int dfd, const char *name, const char *kpath,
		      char *buf, size_t len)
{
	char path[DEVPM_PATH_MAX];
	int fd;

	if (!len)
		return devpm_fail(EINVAL, "%s: no room to read into", kpath);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		devpm_real_path(path, sizeof(path), kpath);
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	}
	devpm_real_path(path, sizeof(path), kpath);
	return read_fd(fd, path, buf, len);
}

int devpm_read_str(const char *kpath, char *buf, size_t len)
{
	char path[DEVPM_PATH_MAX];
	int fd;

	if (!len)
		return devpm_fail(EINVAL, "%s: no room to read into", kpath);
	/* In a tree, a FIFO does not hang the read (sysfs ignores it). */
	fd = open_kpath(kpath, O_RDONLY | (root_fd >= 0 ? O_NONBLOCK : 0),
			path, sizeof(path));
	if (fd < 0)
		return fd;
	return read_fd(fd, path, buf, len);
}

static int parse_long(const char *kpath, const char *s, long *val)
{
	char path[DEVPM_PATH_MAX];
	char *end;
	long v;

	devpm_real_path(path, sizeof(path), kpath);
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		return devpm_fail(EINVAL, "%s: '%s' is not a number", path, s);
	if (errno == ERANGE)
		return devpm_fail(ERANGE, "%s: '%s' is out of range", path, s);
	*val = v;
	return 0;
}

int devpm_read_long(const char *kpath, long *val)
{
	char buf[64];
	int r;

	r = devpm_read_str(kpath, buf, sizeof(buf));
	if (r)
		return r;
	return parse_long(kpath, buf, val);
}

int devpm_read_long_at(int dfd, const char *name, const char *kpath,
		       long *val)
{
	char buf[64];
	int r;

	r = devpm_read_str_at(dfd, name, kpath, buf, sizeof(buf));
	if (r)
		return r;
	return parse_long(kpath, buf, val);
}

/* A value as devpm_read_long_or_na() reads it: 1 for "n/a". */
static int parse_long_or_na(const char *kpath, const char *s, long *val)
{
	return strcmp(s, "n/a") ? parse_long(kpath, s, val) : 1;
}

int devpm_read_long_or_na_at(int dfd, const char *name, const char *kpath,
			     long *val)
{
	char buf[64];
	int r = devpm_read_str_at(dfd, name, kpath, buf, sizeof(buf));

	return r ? r : parse_long_or_na(kpath, buf, val);
}

int devpm_read_long_or_na(const char *kpath, long *val)
{
	char buf[64];
	int r = devpm_read_str(kpath, buf, sizeof(buf));

	return r ? r : parse_long_or_na(kpath, buf, val);
}

DIR *devpm_opendir(const char *kpath)
{
	char real[DEVPM_PATH_MAX];
	DIR *dir;
	int e;

	if (devpm_real_path(real, sizeof(real), kpath)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	dir = opendir(real);
	if (!dir) {
		e = errno;
		devpm_fail(e, "%s: %s", real, strerror(e));
		errno = e;
	}
	return dir;
}

bool devpm_exists(const char *kpath)
{
	char path[DEVPM_PATH_MAX];

	if (devpm_real_path(path, sizeof(path), kpath))
		return false;
	return access(path, F_OK) == 0;
}

/* One write(): a sysfs store sees the value whole or not at all. */
static int write_fd(int fd, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int r = 0;

	do {
		n = write(fd, val, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		r = devpm_fail(errno, "%s: writing '%s': %s", path, val,
			       strerror(errno));
	else if ((size_t)n != len)
		r = devpm_fail(EIO, "%s: writing '%s': short write (%zd of %zu)",
			       path, val, n, len);
	if (close(fd) < 0 && !r)
		r = devpm_fail(errno, "%s: writing '%s': %s", path, val,
			       strerror(errno));
	return r;
}

int devpm_write_file(const char *path, const char *val)
{
	int fd;

	/* No O_CREAT: a knob that is not there is an error, also in a tree. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	return write_fd(fd, path, val);
}

int devpm_write_str(const char *kpath, const char *val)
{
	char path[DEVPM_PATH_MAX];
	int fd;

	/* Never through a link at the knob itself (a tree's planted one). */
	fd = open_kpath(kpath, O_WRONLY | O_TRUNC | O_NOFOLLOW, path,
			sizeof(path));
	if (fd < 0)
		return fd;
	return write_fd(fd, path, val);
}
