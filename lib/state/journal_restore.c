// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal_restore.c - put back what the journal holds (journal_restore.h).
 *
 * This runs from a signal handler too, so it uses only system calls and
 * snprintf: the journal is mmap'd (no malloc), messages go out with
 * write(2) (journal_say.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/journal_restore.h"
#include "core/module.h"
#include "core/path_trust.h"
#include "core/session.h"
#include "core/sysfs.h"
#include "state/journal_record.h"
#include "state/journal_say.h"

#define LINE_MAX_LEN (DEVPM_PATH_MAX + DEVPM_JOURNAL_VAL_MAX + 8)
/* Invalid or refused lines shown in full; the rest are counted. */
#define SHOW_MAX 5

static off_t journal_size(const struct devpm_journal_state *j)
{
	struct stat st;

	if (j->fd < 0 || fstat(j->fd, &st) < 0)
		return 0;
	return st.st_size;
}

struct target {
	int dfd;		/* the directory rel is relative to */
	const char *rel;	/* below it */
};

/*
 * Where a record may act: below <recorded root>/sys (configfs included)
 * through the open sys directory, or a file devpm made in the journal
 * directory (a gadget's backing image, L only).  False: refused.
 */
static bool target_of(const struct devpm_journal_state *j, char type,
		      const char *path, const char *sysdir, int sys_fd,
		      struct target *t)
{
	size_t n = strlen(sysdir), d = strlen(j->dir);

	if (!strncmp(path, sysdir, n) && path[n] == '/' &&
	    devpm_journal_record_plain_rel(path + n + 1)) {
		t->dfd = sys_fd;
		t->rel = path + n + 1;
		return true;
	}
	if (type == 'L' && j->dir_fd >= 0 && d &&
	    !strncmp(path, j->dir, d) && path[d] == '/' && devpm_journal_record_plain_rel(path + d + 1) &&
	    !strchr(path + d + 1, '/')) {
		t->dfd = j->dir_fd;
		t->rel = path + d + 1;
		return true;
	}
	return false;
}

/* Read a file below the target, one trailing newline stripped. */
static int read_at(const struct target *t, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = devpm_path_trust_beneath(t->dfd, t->rel, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* One write() of the whole value, as devpm_write_file() does. */
static int write_at(const struct target *t, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, r = 0;

	fd = devpm_path_trust_beneath(t->dfd, t->rel, O_WRONLY | O_TRUNC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, val, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	return r;
}

/* The directory of the target into parent; its last part returned. */
static const char *split_parent(const struct target *t, char *parent,
				size_t len)
{
	const char *base = strrchr(t->rel, '/');

	if (!base) {
		snprintf(parent, len, ".");
		return t->rel;
	}
	snprintf(parent, len, "%.*s", (int)(base - t->rel), t->rel);
	return base + 1;
}

/*
 * A knob whose directory is gone went with its device (unbound,
 * unplugged): there is nothing left to put back.
 */
static bool dir_gone(const struct target *t)
{
	char parent[DEVPM_PATH_MAX];
	int fd;

	split_parent(t, parent, sizeof(parent));
	fd = devpm_path_trust_beneath(t->dfd, parent, O_PATH | O_DIRECTORY);
	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == ENOENT;
}

/*
 * A U record that binds dev (".../drivers/<driver>/bind"), and dev is
 * bound to that driver already (its link in the driver's directory):
 * bound again before the restore, by a case or by hand.  Writing bind
 * once more would fail with -EBUSY.
 */
static bool already_bound(const struct target *t, const char *dev)
{
	char parent[DEVPM_PATH_MAX], link[DEVPM_PATH_MAX + 128];
	int fd;

	if (strcmp(split_parent(t, parent, sizeof(parent)), "bind") ||
	    !dev[0] || strchr(dev, '/') || !strcmp(dev, ".") ||
	    !strcmp(dev, ".."))
		return false;
	snprintf(link, sizeof(link), "%s/%s", parent, dev);
	fd = devpm_path_trust_beneath(t->dfd, link, O_PATH | O_NOFOLLOW);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* unlinkat() below the target's parent, which is opened beneath too. */
static int remove_at(const struct target *t, int flags)
{
	char parent[DEVPM_PATH_MAX];
	const char *base = split_parent(t, parent, sizeof(parent));
	int pfd, r = 0;

	pfd = devpm_path_trust_beneath(t->dfd, parent, O_PATH | O_DIRECTORY);
	if (pfd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (unlinkat(pfd, base, flags) < 0 && errno != ENOENT)
		r = -errno;
	close(pfd);
	return r;
}

enum { REC_DONE, REC_INVALID, REC_REFUSED, REC_NOTHING };

/*
 * Put back one record.  REC_DONE, REC_INVALID, REC_REFUSED (acts outside
 * <root>/sys: said on stderr), REC_NOTHING (a P record), or -errno
 * (failed, said on stderr).
 */
static int restore_record(const struct devpm_journal_state *j, char *rec,
			  long lineno, const char *sysdir, int sys_fd)
{
	char cur[DEVPM_JOURNAL_VAL_MAX];
	char e1[DEVPM_JOURNAL_ESC_MAX], e2[DEVPM_JOURNAL_ESC_MAX];
	char *body = rec + 2, *val = NULL, *sp;
	struct target t = { .dfd = -1 };
	int r = 0;

	if (strlen(rec) < 3 || rec[1] != ' ')
		return REC_INVALID;
	if (rec[0] == 'W' || rec[0] == 'U') {
		val = strchr(body, '\t');
		if (!val || strchr(val + 1, '\t'))
			return REC_INVALID;
		*val++ = '\0';
	}
	switch (rec[0]) {
	case 'W':
	case 'U':
	case 'D':
	case 'L':
		if (body[0] != '/' || strchr(body, '\t'))
			return REC_INVALID;
		if (!target_of(j, rec[0], body, sysdir, sys_fd, &t)) {
			devpm_journal_record_escape(e1, sizeof(e1), body, strlen(body));
			devpm_journal_say("devpm: journal line %ld refused: %s is not below %s",
			    lineno, e1, sysdir);
			return REC_REFUSED;
		}
		if (t.dfd < 0) {
			devpm_journal_say("devpm: journal line %ld: cannot open %s", lineno,
			    sysdir);
			return devpm_fail(ENOENT, "%s: cannot open", sysdir);
		}
		break;
	case 'M':
		if (!devpm_module_name_ok(body) ||
		    strlen(body) >= DEVPM_MODULE_NAME_MAX)
			return REC_INVALID;
		break;
	case 'P':
		sp = strchr(body, ' ');
		if (!sp || !devpm_journal_record_digits(body, sp - body) ||
		    !devpm_journal_record_digits(sp + 1, strlen(sp + 1)))
			return REC_INVALID;
		return REC_NOTHING;
	default:
		return REC_INVALID;
	}

	devpm_journal_record_escape(e1, sizeof(e1), body, strlen(body));
	switch (rec[0]) {
	case 'W':
		/* Unchanged since: nothing to write (and nothing to fail). */
		r = read_at(&t, cur, sizeof(cur));
		if (!r) {
			devpm_journal_record_selected(cur);
			if (!strcmp(cur, val))
				return REC_DONE;
		}
		if (r == -ENOENT && dir_gone(&t))
			return REC_DONE;
		/* fallthrough */
	case 'U':
		if (rec[0] == 'U' && already_bound(&t, val))
			return REC_DONE;
		/*
		 * sysfs ignores an empty write: an empty value is written as
		 * the lone newline of `echo > knob`, which clears a
		 * driver_override (suites/pci).
		 */
		r = write_at(&t, val[0] ? val : "\n");
		if (r) {
			devpm_journal_record_escape(e2, sizeof(e2), val, strlen(val));
			devpm_journal_say("devpm: journal line %ld: cannot put back '%s' into %s: %s",
			    lineno, e2, e1, strerror(-r));
			return devpm_fail(r, "%s: %s", e1, strerror(-r));
		}
		return REC_DONE;
	case 'M':
		r = devpm_module_unload(body);
		if (r) {
			devpm_journal_say("devpm: journal line %ld: cannot unload %s",
			    lineno, devpm_error());
			return r;
		}
		return REC_DONE;
	case 'D':
	case 'L':
		r = remove_at(&t, rec[0] == 'D' ? AT_REMOVEDIR : 0);
		if (r) {
			devpm_journal_say("devpm: journal line %ld: cannot remove %s: %s",
			    lineno, e1, strerror(-r));
			return devpm_fail(r, "%s: %s", e1, strerror(-r));
		}
		return REC_DONE;
	}
	return REC_INVALID;
}

/*
 * Put back the records in [from, end) last first, then cut the journal at
 * from (never before the header).  Returns the number restored; -EIO when
 * some could not be or were refused; -EINVAL when the range held lines but
 * not one valid record.  Invalid and refused lines: the first SHOW_MAX of
 * each are shown, the rest counted.
 */
int devpm_journal_restore_range(struct devpm_journal_state *j, off_t from)
{
	char line[LINE_MAX_LEN], shown[DEVPM_JOURNAL_ESC_MAX], first[300] = "";
	char sysdir[DEVPM_PATH_MAX + 8];
	long no = 1, invalid = 0, refused = 0, nothing = 0;
	int done = 0, failed = 0, sys_fd;
	off_t size, i, end, start;
	const char *m;
	int r;

	if (from < j->hdr)
		from = j->hdr;
	size = journal_size(j);
	if (from > size)
		from = size;
	if (from == size)
		return 0;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, j->fd, 0);
	if (m == MAP_FAILED)
		return devpm_fail(errno, "journal %s: %s", j->path,
				  strerror(errno));
	snprintf(sysdir, sizeof(sysdir), "%s/sys", j->root);
	/* Below the root the journal was opened on, never by name again. */
	sys_fd = j->root_fd < 0 ? -1 :
		 openat(j->root_fd, "sys", O_PATH | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	/* no: the number of the line after the last complete one. */
	for (i = 0; i < size; i++)
		no += m[i] == '\n';
	end = size;
	if (m[size - 1] != '\n') {
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		devpm_journal_record_escape(shown, sizeof(shown), m + start, end - start);
		devpm_journal_say("devpm: journal line %ld truncated, not restored: %s",
		    no, shown);
		invalid++;
		end = start;
	}
	while (end > from) {
		end--;		/* the '\n' of this line */
		no--;
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		/* A NUL would cut the value short: "au\0to" is not "au". */
		if (end - start >= (off_t)sizeof(line) ||
		    memchr(m + start, '\0', end - start)) {
			r = REC_INVALID;
		} else {
			memcpy(line, m + start, end - start);
			line[end - start] = '\0';
			r = restore_record(j, line, no, sysdir, sys_fd);
		}
		if (r == REC_INVALID) {
			if (invalid++ < SHOW_MAX) {
				devpm_journal_record_escape(shown, sizeof(shown), m + start,
					end - start);
				devpm_journal_say("devpm: journal line %ld invalid, not restored: %s",
				    no, shown);
			}
		} else if (r == REC_REFUSED) {
			if (!failed++)
				snprintf(first, sizeof(first),
					 "line %ld acts outside %s", no,
					 sysdir);
			refused++;
		} else if (r == REC_NOTHING) {
			nothing++;
		} else if (r < 0) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s",
					 devpm_error());
		} else {
			done++;
		}
		end = start;
	}
	munmap((void *)m, size);
	if (sys_fd >= 0)
		close(sys_fd);
	if (invalid > SHOW_MAX)
		devpm_journal_say("devpm: %ld more invalid journal line(s) not shown",
		    invalid - SHOW_MAX);
	if (ftruncate(j->fd, from) < 0 || fsync(j->fd) < 0)
		return devpm_fail(errno, "journal %s: %s", j->path,
				  strerror(errno));
	if (j->dedup_from > from)
		j->dedup_from = from;
	if (invalid && !done && !failed && !nothing)
		return devpm_fail(EINVAL, "journal %s: none of its %ld line(s) is a valid record; it was emptied",
				  j->path, invalid);
	if (failed)
		return devpm_fail(EIO, "%d of %d journal records not restored (%ld refused); first: %s",
				  failed, failed + done, refused, first);
	return done;
}

/* End what every P record of the journal names, before restoring. */
void devpm_journal_restore_sessions(const struct devpm_journal_state *j)
{
	off_t size = journal_size(j), i;
	unsigned long long start;
	const char *m;
	char rec[64];
	int killed = 0, stuck;
	long sid;
	size_t n;

	if (size <= j->hdr)
		return;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, j->fd, 0);
	if (m == MAP_FAILED)
		return;
	for (i = j->hdr; i + 2 < size; i++) {
		if ((i != j->hdr && m[i - 1] != '\n') || m[i] != 'P' ||
		    m[i + 1] != ' ')
			continue;
		n = 0;
		while (i + (off_t)n < size && m[i + n] != '\n' &&
		       n < sizeof(rec) - 1)
			n++;
		memcpy(rec, m + i, n);
		rec[n] = '\0';
		/* Never our own session (a P record cannot name it). */
		if (sscanf(rec, "P %ld %llu", &sid, &start) != 2 || sid <= 1 ||
		    sid == (long)getsid(0))
			continue;
		killed += devpm_session_end(sid, start, &stuck);
		if (stuck)
			devpm_journal_say("devpm: %d process(es) of the interrupted run (session %ld) did not die after SIGKILL; restoring anyway",
			    stuck, sid);
	}
	munmap((void *)m, size);
	if (killed)
		devpm_journal_say("devpm: ended %d process(es) of the interrupted run before restoring",
		    killed);
}

