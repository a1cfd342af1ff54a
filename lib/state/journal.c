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
#include "core/session.h"
#include "core/sysfs.h"
#include "state/journal_hooks.h"
#include "state/journal_lock.h"
#include "state/journal_restore.h"
#include "state/journal_say.h"
#include "state/journal_state.h"

static struct devpm_journal_state journal = {
	.fd = -1, .dir_fd = -1, .lock_fd = -1, .root_lock_fd = -1,
};

const char *devpm_journal_dir(void)
{
	const char *d = getenv("DEVPM_JOURNAL_DIR");

	return d && d[0] ? d : "/run/devpm";
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
 * The "R <root>" line that opens a journal: the sysfs root its records lie
 * below.  Without it (an older journal), the root of this process.
 */
static void read_header(void)
{
	char buf[DEVPM_PATH_MAX + 4], *nl;
	ssize_t n;

	journal.hdr = 0;
	snprintf(journal.root, sizeof(journal.root), "%s", devpm_sysfs_root());
	n = pread(journal.fd, buf, sizeof(buf) - 1, 0);
	if (n < 4)
		return;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (strncmp(buf, "R /", 3) || !nl || memchr(buf, '\t', nl - buf))
		return;
	*nl = '\0';
	journal.hdr = nl + 1 - buf;
	snprintf(journal.root, sizeof(journal.root), "%s", strcmp(buf + 2, "/") ?
		 buf + 2 : "");
}

/* Start an empty journal for this process's sysfs root. */
static int write_header(void)
{
	const char *root = devpm_sysfs_root()[0] ? devpm_sysfs_root() : "/";
	char rec[DEVPM_PATH_MAX + 4];
	size_t len;

	if (strchr(root, '\n') || strchr(root, '\t'))
		return devpm_fail(EINVAL, "sysfs root has a tab or newline in its name; rename it");
	snprintf(rec, sizeof(rec), "R %s\n", root);
	len = strlen(rec);
	if (ftruncate(journal.fd, 0) < 0 || write(journal.fd, rec, len) != (ssize_t)len ||
	    fsync(journal.fd) < 0)
		return devpm_fail(errno ? errno : EIO, "journal %s: %s",
				  journal.path, strerror(errno ? errno : EIO));
	snprintf(journal.root, sizeof(journal.root), "%s", devpm_sysfs_root());
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
	journal.fd = journal.lock_fd = journal.root_lock_fd = journal.dir_fd = -1;
}

static int open_owner(const char *dir, int *restored)
{
	int r;

	*restored = 0;
	if (journal.fd >= 0)
		return 0;
	if (!dir || !dir[0])
		dir = devpm_journal_dir();
	if (devpm_fmt(journal.dir, sizeof(journal.dir), "%s", dir) ||
	    devpm_fmt(journal.path, sizeof(journal.path), "%s/journal", dir))
		return devpm_fail(ENAMETOOLONG, "journal directory %s: path too long",
				  dir);
	r = devpm_journal_lock_mkdir(dir);
	if (r)
		return r;
	journal.dir_fd = devpm_journal_lock_dir(dir);
	if (journal.dir_fd < 0)
		return journal.dir_fd;
	journal.root_lock_fd = devpm_journal_lock_root();
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
	if (r < 0) {
		close_all();
		return r;
	}
	journal.owner = true;
	journal.pid = getpid();
	journal.base = 0;
	journal.dedup_from = 0;
	/* Whatever a killed run left behind goes back first. */
	read_header();
	devpm_journal_restore_sessions(&journal);
	r = devpm_journal_restore_range(&journal, 0);
	if (r > 0)
		devpm_journal_say("devpm: put back %d value(s) an earlier run left in %s",
				  r, journal.path);
	else if (r < 0)
		devpm_journal_say("devpm: %s", devpm_error());
	*restored = r;
	r = write_header();
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
	const char *path = getenv("DEVPM_JOURNAL");
	char *slash;
	int r;

	if (journal.fd >= 0)
		return 0;
	if (!path || !path[0])
		return devpm_journal_open_owner(NULL);
	if (devpm_fmt(journal.path, sizeof(journal.path), "%s", path) ||
	    devpm_fmt(journal.dir, sizeof(journal.dir), "%s", path))
		return devpm_fail(ENAMETOOLONG, "DEVPM_JOURNAL=%s: path too long",
				  path);
	slash = strrchr(journal.dir, '/');
	if (!slash || slash == journal.dir || !slash[1])
		return devpm_fail(EINVAL, "DEVPM_JOURNAL=%s: not an absolute file path",
				  path);
	*slash = '\0';
	journal.dir_fd = open(journal.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (journal.dir_fd < 0)
		return devpm_fail(errno, "DEVPM_JOURNAL=%s: %s", path,
				  strerror(errno));
	close(journal.dir_fd);
	journal.dir_fd = devpm_journal_lock_dir(journal.dir);
	if (journal.dir_fd < 0)
		return journal.dir_fd;
	journal.fd = devpm_journal_lock_file(journal.dir_fd, journal.dir,
					     slash + 1, O_RDWR | O_APPEND);
	if (journal.fd < 0) {
		r = journal.fd;
		close_all();
		return r;
	}
	journal.owner = false;
	journal.pid = getpid();
	read_header();
	journal.base = journal_size();
	journal.dedup_from = journal.base;
	devpm_journal_hooks_install(restore_mine);
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
