// SPDX-License-Identifier: GPL-2.0-only
/* journal_lock.c - the journal's directory, files and locks (journal_lock.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "state/journal_lock.h"
#include "core/path_trust.h"
#include "core/sysfs.h"

int devpm_journal_lock_dir(const char *dir, bool make)
{
	char why[512];
	struct stat st;
	int fd, r = 0;

	fd = devpm_path_trust_open(dir, make ? DEVPM_TRUST_MKDIR :
				   DEVPM_TRUST_DIR, DEVPM_TRUST_NOLINK, 0700,
				   NULL, 0);
	snprintf(why, sizeof(why), "%s", devpm_error());
	if (fd == -ELOOP || fd == -ENOTDIR)
		return devpm_fail(EPERM, "journal directory %s is a symlink or not a directory (%s); set DEVPM_JOURNAL_DIR to a directory of yours (mode 0700)",
				  dir, why);
	if (fd == -EPERM)
		return devpm_fail(EPERM, "journal directory %s: %s; set DEVPM_JOURNAL_DIR to a directory of yours (mode 0700) on a path only root can change",
				  dir, why);
	if (fd < 0)
		return devpm_fail(fd, "journal directory %s: %s; set DEVPM_JOURNAL_DIR to a directory you can write (default /run/devpm)",
				  dir, why);
	if (fstat(fd, &st) < 0)
		r = devpm_fail(errno, "journal directory %s: %s", dir,
			       strerror(errno));
	else if (st.st_uid != geteuid())
		r = devpm_fail(EPERM, "journal directory %s belongs to uid %u, not to uid %u running devpm; set DEVPM_JOURNAL_DIR to a directory of yours (mode 0700)",
			       dir, (unsigned int)st.st_uid,
			       (unsigned int)geteuid());
	else if (st.st_mode & 0022)
		r = devpm_fail(EPERM, "journal directory %s is writable by others (mode %04o); chmod go-w it or set DEVPM_JOURNAL_DIR to a directory of yours (mode 0700)",
			       dir, (unsigned int)(st.st_mode & 07777));
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

int devpm_journal_lock_file(int dfd, const char *dir, const char *name,
			    int flags)
{
	struct stat st;
	int fd;

	fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		    0600);
	if (fd < 0 && errno == ELOOP)
		return devpm_fail(EPERM, "%s/%s is a symlink; remove it", dir,
				  name);
	if (fd < 0)
		return devpm_fail(errno, "%s/%s: %s", dir, name,
				  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1) {
		close(fd);
		return devpm_fail(EPERM, "%s/%s is not a regular file of uid %u with one link; remove it",
				  dir, name, (unsigned int)geteuid());
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

static long lock_holder(int fd)
{
	char buf[32];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* A lock file holds nothing or "<pid>\n". */
static bool lock_file_ok(int fd)
{
	char buf[32];
	ssize_t n;
	size_t d;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0 || n == sizeof(buf) - 1)
		return false;
	buf[n] = '\0';
	d = strspn(buf, "0123456789");
	return !n || (d && d < 20 && buf[d] == '\n' && d + 1 == (size_t)n);
}

/* Who holds a flock on the file of st (/proc/locks), 0 if unknown. */
static long flock_holder(const struct stat *st)
{
	unsigned int maj, min;
	unsigned long ino;
	char line[256];
	long pid, found = 0;
	FILE *f = fopen("/proc/locks", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: FLOCK %*s WRITE %ld %x:%x:%lu", &pid,
			   &maj, &min, &ino) == 4 && ino == st->st_ino &&
		    maj == major(st->st_dev) && min == minor(st->st_dev))
			found = pid;
	if (f)
		fclose(f);
	return found;
}

/* An flock on the root directory: nothing to create, gone with its holder. */
int devpm_journal_lock_root(int fd, const char *shown)
{
	struct stat st;
	char pid[32];
	long holder;
	int r;

	if (!flock(fd, LOCK_EX | LOCK_NB))
		return 0;
	r = errno;
	holder = fstat(fd, &st) ? 0 : flock_holder(&st);
	if (r != EWOULDBLOCK)
		return devpm_fail(r, "lock on %s: %s", shown, strerror(r));
	if (holder > 0)
		snprintf(pid, sizeof(pid), "pid %ld", holder);
	else
		snprintf(pid, sizeof(pid), "pid unknown");
	return devpm_fail(EBUSY, "another devpm run (%s) holds the lock on %s; wait for it to end",
			  pid, shown);
}

int devpm_journal_lock_recorded(const char *root, unsigned long long dev,
				unsigned long long ino)
{
	char why[512];
	struct stat st;
	int fd;

	fd = devpm_path_trust_open(root, DEVPM_TRUST_DIR, 0, 0, NULL, 0);
	if (fd < 0) {
		snprintf(why, sizeof(why), "%s", devpm_error());
		return devpm_fail(fd, "the sysfs root %s the journal recorded: %s",
				  root, why);
	}
	if (fstat(fd, &st) < 0 || (unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino) {
		close(fd);
		return devpm_fail(EPERM, "the sysfs root %s is not the directory the journal recorded (device:inode %llu:%llu): it was replaced since",
				  root, dev, ino);
	}
	return fd;
}

int devpm_journal_lock_take(int dfd, const char *dir)
{
	char pid[32];
	long holder;
	int fd, r;

	fd = devpm_journal_lock_file(dfd, dir, "lock", O_RDWR | O_CREAT);
	if (fd < 0)
		return fd;
	/* Empty or a pid: anything else is not ours to overwrite. */
	if (!lock_file_ok(fd)) {
		close(fd);
		return devpm_fail(EPERM, "%s/lock is not a devpm lock file (it holds more than a pid); remove it or set DEVPM_JOURNAL_DIR to a directory of its own",
				  dir);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno;
		holder = lock_holder(fd);
		close(fd);
		if (r != EWOULDBLOCK)
			return devpm_fail(r, "%s/lock: %s", dir, strerror(r));
		if (holder > 0)
			snprintf(pid, sizeof(pid), "pid %ld", holder);
		else
			snprintf(pid, sizeof(pid), "pid unknown");
		return devpm_fail(EBUSY, "another devpm run (%s) holds %s/lock; wait for it or, if it is gone, run 'devpm restore'",
				  pid, dir);
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, pid, strlen(pid), 0) != (ssize_t)strlen(pid)) {
		r = devpm_fail(errno, "%s/lock: %s", dir, strerror(errno));
		close(fd);
		return r;
	}
	return fd;
}
