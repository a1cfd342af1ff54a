// SPDX-License-Identifier: GPL-2.0-only
/*
 * write_file.c - a file devpm writes whole beside results it did not make
 * (write_file.h): report.html, a probe cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_trust.h"
#include "util.h"
#include "write_file.h"

/* Why rn_write_file() failed. */
static char write_why[600];

static int write_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int write_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(write_why, sizeof(write_why), fmt, ap);
	va_end(ap);
	return -err;
}

const char *rn_write_file_why(void)
{
	return write_why;
}

/*
 * name in dfd, not followed: absent (1), a file of ours nobody else can
 * write with one link (0), else refused (-EPERM, -ELOOP for a link).
 */
static int name_ok(int dfd, const char *dir, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : write_fail(errno, "%s/%s: %s",
							dir, name,
							strerror(errno));
	if (S_ISLNK(st.st_mode))
		return write_fail(ELOOP, "%s/%s is a symlink; remove it", dir,
				  name);
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1 || (st.st_mode & 0022))
		return write_fail(EPERM, "%s/%s is not a file of uid %u with one link that only it can write; remove it",
				  dir, name, (unsigned int)geteuid());
	return 0;
}

/* Create name in dfd, never through a link or over a file. */
static int create_at(int dfd, const char *dir, const char *name)
{
	int fd, r;

	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd >= 0 || errno != EEXIST)
		return fd >= 0 ? fd : write_fail(errno, "%s/%s: %s", dir,
						 name, strerror(errno));
	/* Left by a killed writer: ours to remove; a link or theirs: not. */
	r = name_ok(dfd, dir, name);
	if (r < 0)
		return r;
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		return write_fail(errno, "%s/%s: %s", dir, name,
				  strerror(errno));
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	return fd >= 0 ? fd : write_fail(errno, "%s/%s: %s", dir, name,
					 strerror(errno));
}

int rn_write_file(const char *path, const char *buf, size_t len)
{
	char dir[4096], tmp[4096];
	const char *base = strrchr(path, '/');
	int dfd, fd, err;

	write_why[0] = '\0';
	if (strlen(path) + 5 > sizeof(tmp))
		return write_fail(ENAMETOOLONG, "%.200s...: path too long",
				  path);
	if (!base)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 base == path ? 1 : (int)(base - path), path);
	base = base ? base + 1 : path;
	if (!base[0])
		return write_fail(EINVAL, "%s: not a file name", path);
	snprintf(tmp, sizeof(tmp), "%s.tmp", base);
	/*
	 * The directory walked by path_trust.h's rule (a link of root's
	 * such as results/latest is followed, as root nothing another user
	 * could change; sticky allowed); its files never followed.
	 */
	dfd = devpm_path_trust_open(dir, DEVPM_TRUST_DIR, DEVPM_TRUST_STICKY,
				    0, NULL, 0);
	if (dfd < 0)
		return write_fail(-dfd, "%s", devpm_error());
	err = name_ok(dfd, dir, base);
	if (err < 0)
		goto out;
	fd = create_at(dfd, dir, tmp);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	err = rn_write_all(fd, buf, len);
	if (err)
		write_fail(-err, "%s/%s: %s", dir, tmp, strerror(-err));
	else if (renameat(dfd, tmp, dfd, base) < 0)
		err = write_fail(errno, "%s: %s", path, strerror(errno));
	if (err)
		unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return err < 0 ? err : 0;
}
