// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal.c - the journal of this process (journal.h): opened as owner or
 * attached, appended to, cut at a mark, closed.  Its records' fields are
 * journal_record.c's, their restore journal_restore.c's, the directory
 * and locks journal_lock.c's, the exit and signal hooks journal_hooks.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/journal.h"
#include "core/path_trust.h"
#include "core/session.h"
#include "core/sysfs.h"
#include "state/journal_hooks.h"
#include "state/journal_lock.h"
#include "state/journal_restore.h"
#include "state/journal_say.h"
#include "state/journal_state.h"

static struct devpm_journal_state journal = {
	.fd = -1, .dir_fd = -1, .lock_fd = -1, .root_lock_fd = -1,
	.root_fd = -1,
};

/*
 * Root's journal is /run/devpm; another user's lives in a directory of
 * its own, where a run without root (which writes no knob) can take its
 * lock: $XDG_RUNTIME_DIR/devpm, else /tmp/devpm-<uid> (open_dir() refuses
 * one that is not the user's own).
 */
const char *devpm_journal_dir(void)
{
	static char user[DEVPM_PATH_MAX];
	/* As root, ignored (and said) unless root's alone (path_trust.h). */
	const char *d = devpm_path_trust_env("DEVPM_JOURNAL_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (d)
		return d;
	if (!geteuid())
		return "/run/devpm";
	if (xdg && xdg[0] == '/' &&
	    !devpm_fmt(user, sizeof(user), "%s/devpm", xdg))
		return user;
	snprintf(user, sizeof(user), "/tmp/devpm-%u",
		 (unsigned int)geteuid());
	return user;
}

static off_t journal_size(void)
{
	struct stat st;

	if (journal.fd < 0 || fstat(journal.fd, &st) < 0)
		return 0;
	return st.st_size;
}

/* Is this the process that opened the journal as its owner? */
static bool owner_here(void)
{
	return journal.owner && journal.pid == getpid();
}

/* What this process answers for: all (owner) or since it attached. */
static void restore_mine(void)
{
	if (journal.fd >= 0 && journal.pid == getpid())
		devpm_journal_restore_range(&journal,
					    journal.owner ? 0 : journal.base);
}

/*
 * The "R <root>[\t<dev>:<ino>]" line that opens a journal: the sysfs root
 * its records lie below ("/": the real system), a tree's with its device
 * and inode.  False when the journal does not start with one.
 */
static bool read_header(void)
{
	char buf[DEVPM_PATH_MAX + 64], *nl, *tab, *end;
	ssize_t n;

	journal.hdr = 0;
	journal.root_ids = false;
	snprintf(journal.root, sizeof(journal.root), "%s", devpm_sysfs_root());
	n = pread(journal.fd, buf, sizeof(buf) - 1, 0);
	if (n < 4)
		return false;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (strncmp(buf, "R /", 3) || !nl)
		return false;
	*nl = '\0';
	tab = strchr(buf, '\t');
	if (tab) {
		*tab++ = '\0';
		errno = 0;
		journal.root_dev = strtoull(tab, &end, 10);
		if (errno || end == tab || *end != ':')
			return false;
		tab = end + 1;
		journal.root_ino = strtoull(tab, &end, 10);
		if (errno || end == tab || *end)
			return false;
		journal.root_ids = true;
	}
	/* A tree is known by its inode too: a name can be made to lead elsewhere. */
	if (strcmp(buf + 2, "/") && !journal.root_ids)
		return false;
	journal.hdr = nl + 1 - buf;
	snprintf(journal.root, sizeof(journal.root), "%s", strcmp(buf + 2, "/") ?
		 buf + 2 : "");
	return true;
}

/* This process's sysfs root: a tree's directory or /, opened again. */
static int current_root(int flags)
{
	int fd = devpm_sysfs_root_fd();

	fd = fd >= 0 ? openat(fd, ".", flags | O_DIRECTORY | O_CLOEXEC) :
		       open("/", flags | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? devpm_fail(errno, "sysfs root %s: %s",
				   devpm_sysfs_root()[0] ? devpm_sysfs_root() :
				   "/", strerror(errno)) : fd;
}

/* Is the root the header names this process's own? */
static bool header_is_current(void)
{
	struct stat st;
	int fd;

	if (strcmp(journal.root, devpm_sysfs_root()))
		return false;
	if (!journal.root_ids)
		return true;
	fd = devpm_sysfs_root_fd();
	return fd >= 0 && !fstat(fd, &st) &&
	       (unsigned long long)st.st_dev == journal.root_dev &&
	       (unsigned long long)st.st_ino == journal.root_ino;
}

/*
 * The root the journal's records lie below, into journal.root_fd: this
 * process's own, or the one the header recorded, the same directory still
 * (journal_lock.h), and (lock) flock'd for as long as *lock_fd is open:
 * one run per sysfs root holds for the root written to, not only for the
 * one on the command line.  -ENOENT: it is gone, nothing below it left.
 */
static int records_root(bool lock, int *lock_fd)
{
	char shown[DEVPM_PATH_MAX + 8];
	int fd, r;

	*lock_fd = -1;
	if (header_is_current()) {
		journal.root_fd = current_root(O_PATH);
		return journal.root_fd < 0 ? journal.root_fd : 0;
	}
	if (!journal.root[0])
		fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else
		fd = devpm_journal_lock_recorded(journal.root, journal.root_dev,
						 journal.root_ino);
	if (fd < 0 && !journal.root[0])
		return devpm_fail(errno, "/: %s", strerror(errno));
	if (fd == -ENOENT)
		return fd;
	/* Nothing restored and the journal kept: someone must look. */
	if (fd < 0)
		return devpm_fail(fd, "%s; nothing restored, %s kept: put the tree back, or put its values back by hand and remove it",
				  devpm_error(), journal.path);
	journal.root_fd = fd;
	if (!lock)
		return 0;
	/* The real system's lock is on /sys, as lock_current() takes it. */
	snprintf(shown, sizeof(shown), "%s", journal.root[0] ? journal.root :
		 "/sys");
	*lock_fd = journal.root[0] ? openat(fd, ".", O_RDONLY | O_DIRECTORY |
					    O_CLOEXEC) :
		   open("/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*lock_fd < 0)
		return devpm_fail(errno, "%s: %s", shown, strerror(errno));
	r = devpm_journal_lock_root(*lock_fd, shown);
	if (r) {
		close(*lock_fd);
		*lock_fd = -1;
	}
	return r;
}

/* flock this process's sysfs root (/sys for the real system). */
static int lock_current(void)
{
	const char *shown = devpm_sysfs_root()[0] ? devpm_sysfs_root() :
			    "/sys";
	int fd, r;

	fd = devpm_sysfs_root_fd() >= 0 ? current_root(O_RDONLY) :
	     open("/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "sysfs root %s: %s", shown,
				  strerror(errno));
	r = devpm_journal_lock_root(fd, shown);
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

/* Start an empty journal for this process's sysfs root. */
static int write_header(void)
{
	const char *root = devpm_sysfs_root()[0] ? devpm_sysfs_root() : "/";
	char rec[DEVPM_PATH_MAX + 64];
	struct stat st;
	size_t len;

	if (strchr(root, '\n') || strchr(root, '\t'))
		return devpm_fail(EINVAL, "sysfs root has a tab or newline in its name; rename it");
	if (devpm_sysfs_root_fd() < 0)
		snprintf(rec, sizeof(rec), "R %s\n", root);
	else if (!fstat(devpm_sysfs_root_fd(), &st))
		snprintf(rec, sizeof(rec), "R %s\t%llu:%llu\n", root,
			 (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
	else
		return devpm_fail(errno, "sysfs root %s: %s", root,
				  strerror(errno));
	len = strlen(rec);
	if (ftruncate(journal.fd, 0) < 0 || write(journal.fd, rec, len) != (ssize_t)len ||
	    fsync(journal.fd) < 0)
		return devpm_fail(errno ? errno : EIO, "journal %s: %s",
				  journal.path, strerror(errno ? errno : EIO));
	read_header();
	journal.hdr = len;
	journal.base = journal.dedup_from = len;
	return 0;
}

static void close_all(void)
{
	if (journal.fd >= 0)
		close(journal.fd);
	if (journal.lock_fd >= 0)
		close(journal.lock_fd);
	if (journal.root_lock_fd >= 0)
		close(journal.root_lock_fd);
	if (journal.dir_fd >= 0)
		close(journal.dir_fd);
	if (journal.root_fd >= 0)
		close(journal.root_fd);
	journal.fd = journal.lock_fd = journal.root_lock_fd = -1;
	journal.dir_fd = journal.root_fd = -1;
}

/*
 * An empty file, or one that starts with the R line: anything else in
 * place of the journal is not ours to empty.
 */
static int check_journal(const char *what)
{
	if (!journal_size() || read_header())
		return 0;
	return devpm_fail(EPERM, "%s is not a devpm journal (its first line is not 'R <sysfs root>'); remove it or set DEVPM_JOURNAL_DIR to a directory of its own",
			  what);
}

static int open_owner(const char *dir, int *restored)
{
	int r, rec_lock = -1;

	*restored = 0;
	if (journal.fd >= 0)
		return 0;
	if (!dir || !dir[0])
		dir = devpm_journal_dir();
	if (devpm_fmt(journal.dir, sizeof(journal.dir), "%s", dir) ||
	    devpm_fmt(journal.path, sizeof(journal.path), "%s/journal", dir))
		return devpm_fail(ENAMETOOLONG, "journal directory %.200s: path too long",
				  dir);
	journal.dir_fd = devpm_journal_lock_dir(dir, true);
	if (journal.dir_fd < 0)
		return journal.dir_fd;
	journal.root_lock_fd = lock_current();
	r = journal.root_lock_fd;
	if (r >= 0) {
		journal.lock_fd = devpm_journal_lock_take(journal.dir_fd, dir);
		r = journal.lock_fd;
	}
	if (r >= 0) {
		journal.fd = devpm_journal_lock_file(journal.dir_fd, dir,
						     "journal",
						     O_RDWR | O_CREAT | O_APPEND);
		r = journal.fd;
	}
	if (r >= 0)
		r = check_journal(journal.path);
	/* Nothing recorded: no root to open. */
	if (r >= 0 && journal_size() > journal.hdr) {
		r = records_root(true, &rec_lock);
		if (r == -ENOENT)
			r = 0;	/* each record says it could not be put back */
	}
	if (r < 0) {
		close_all();
		return r;
	}
	journal.owner = true;
	journal.pid = getpid();
	journal.base = 0;
	journal.dedup_from = 0;
	/* Whatever a killed run left behind goes back first. */
	devpm_journal_restore_sessions(&journal);
	r = devpm_journal_restore_range(&journal, 0);
	if (r > 0)
		devpm_journal_say("devpm: put back %d value(s) an earlier run left in %s",
				  r, journal.path);
	else if (r < 0)
		devpm_journal_say("devpm: %s", devpm_error());
	*restored = r;
	if (rec_lock >= 0)
		close(rec_lock);
	if (journal.root_fd >= 0)
		close(journal.root_fd);
	journal.root_fd = current_root(O_PATH);
	r = journal.root_fd < 0 ? journal.root_fd : write_header();
	if (r) {
		close_all();
		journal.owner = false;
		return r;
	}
	setenv("DEVPM_JOURNAL", journal.path, 1);
	devpm_journal_hooks_install(restore_mine);
	return 0;
}

int devpm_journal_open_owner(const char *dir)
{
	int restored;

	return open_owner(dir, &restored);
}

int devpm_journal_attach(void)
{
	/* As root, a path another user could change is ignored (and said). */
	const char *path = devpm_path_trust_env("DEVPM_JOURNAL");
	char why[DEVPM_PATH_MAX];
	int r, unused;
	char *slash;

	if (journal.fd >= 0)
		return 0;
	if (!path)
		return devpm_journal_open_owner(NULL);
	if (devpm_fmt(journal.path, sizeof(journal.path), "%s", path) ||
	    devpm_fmt(journal.dir, sizeof(journal.dir), "%s", path))
		return devpm_fail(ENAMETOOLONG, "DEVPM_JOURNAL=%.200s: path too long",
				  path);
	slash = strrchr(journal.dir, '/');
	if (!slash || slash == journal.dir || !slash[1] || path[0] != '/')
		return devpm_fail(EINVAL, "DEVPM_JOURNAL=%s: not an absolute file path",
				  path);
	*slash = '\0';
	journal.dir_fd = devpm_journal_lock_dir(journal.dir, false);
	r = journal.dir_fd < 0 ? journal.dir_fd : 0;
	if (!r) {
		journal.fd = devpm_journal_lock_file(journal.dir_fd,
						     journal.dir, slash + 1,
						     O_RDWR | O_APPEND);
		r = journal.fd < 0 ? journal.fd : 0;
	}
	if (r) {
		snprintf(why, sizeof(why), "%s", devpm_error());
		close_all();
		return devpm_fail(r, "DEVPM_JOURNAL=%s: %s", path, why);
	}
	/* Records go only into a journal an owner started. */
	if (!r && !read_header())
		r = devpm_fail(EPERM, "DEVPM_JOURNAL=%s is not a devpm journal (its first line is not 'R <sysfs root>'); unset it",
			       path);
	if (!r)
		r = records_root(false, &unused);
	if (r) {
		close_all();
		return r;
	}
	journal.owner = false;
	journal.pid = getpid();
	journal.base = journal_size();
	journal.dedup_from = journal.base;
	devpm_journal_hooks_install(restore_mine);
	return 0;
}

int devpm_journal_attach_for_caller(void)
{
	const char *path = getenv("DEVPM_JOURNAL");
	int r;

	if (!path || !path[0])
		return devpm_fail(ENOENT, "no journal to append to: DEVPM_JOURNAL is unset (run it from a test program or devpm run)");
	r = devpm_journal_attach();
	if (r)
		return r;
	/* What it appends is its caller's to restore: nothing at its exit. */
	journal.pid = 0;
	return 0;
}

int devpm_journal_record_session(pid_t sid)
{
	unsigned long long start;
	char rec[64];

	if (journal.fd < 0)
		return 0;
	if (devpm_session_start_time(sid, &start))
		return devpm_fail(ESRCH, "process %ld is gone", (long)sid);
	snprintf(rec, sizeof(rec), "P %ld %llu\n", (long)sid, start);
	return devpm_journal_append(rec);
}

void devpm_journal_close(void)
{
	if (journal.fd < 0)
		return;
	restore_mine();
	/* All put back: an empty journal, not even the R line. */
	if (owner_here() && journal_size() == journal.hdr &&
	    !ftruncate(journal.fd, 0))
		fsync(journal.fd);
	close_all();
	if (journal.owner)
		unsetenv("DEVPM_JOURNAL");
	journal.owner = false;
	journal.hdr = 0;
}

off_t devpm_journal_mark(void)
{
	if (journal.fd < 0)
		return 0;
	devpm_journal_hooks_die_with_parent(owner_here());
	journal.dedup_from = journal_size();
	return journal.dedup_from;
}

int devpm_journal_restore_since(off_t mark)
{
	if (journal.fd < 0)
		return 0;
	/* Never what the owner recorded before this process attached. */
	if (mark < journal.base)
		mark = journal.base;
	return devpm_journal_restore_range(&journal, mark);
}

int devpm_journal_restore_all(void)
{
	int restored, r;

	if (journal.fd < 0) {
		r = open_owner(NULL, &restored);
		return r < 0 ? r : restored;
	}
	return devpm_journal_restore_range(&journal, 0);
}

int devpm_journal_append(const char *rec)
{
	size_t len = strlen(rec);
	ssize_t n;

	if (journal.fd < 0) {
		int r = devpm_journal_attach();

		if (r)
			return r;
	}
	devpm_journal_hooks_die_with_parent(owner_here());
	n = write(journal.fd, rec, len);
	if (n != (ssize_t)len)
		return devpm_fail(n < 0 ? errno : EIO, "journal %s: %s", journal.path,
				  n < 0 ? strerror(errno) : "short write");
	if (fsync(journal.fd) < 0)
		return devpm_fail(errno, "journal %s: %s", journal.path,
				  strerror(errno));
	return 0;
}

bool devpm_journal_recorded(const char *path)
{
	off_t size = journal_size(), i;
	size_t plen = strlen(path);
	bool found = false;
	const char *m;

	if (journal.dedup_from >= size)
		return false;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, journal.fd, 0);
	if (m == MAP_FAILED)
		return false;	/* recording twice is harmless */
	for (i = journal.dedup_from; i < size && !found; i++) {
		if (i != journal.dedup_from && m[i - 1] != '\n')
			continue;
		found = size - i > (off_t)plen + 2 && m[i] == 'W' &&
			m[i + 1] == ' ' && !memcmp(m + i + 2, path, plen) &&
			m[i + 2 + plen] == '\t';
	}
	munmap((void *)m, size);
	return found;
}
