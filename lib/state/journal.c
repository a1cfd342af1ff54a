// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal.c - record every PM knob before writing it, put it all back
 * (journal.h): the journal's format, its records and their restore.
 * Loading and unloading modules is module.c's, ending the sessions of a
 * crashed run session.c's.
 *
 * Restore runs from a signal handler too, so its path uses only system
 * calls and snprintf: the journal is mmap'd (no malloc), messages go out
 * with write(2) (no stdio locks).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "state/journal.h"
#include "core/module.h"
#include "core/safety.h"
#include "core/session.h"
#include "core/sysfs.h"

#define VAL_MAX 4096
#define LINE_MAX_LEN (DEVPM_PATH_MAX + VAL_MAX + 8)
/* Invalid or refused lines shown in full; the rest are counted. */
#define SHOW_MAX 5

static int append(const char *rec);

static struct {
	int fd;			/* the journal, O_APPEND; -1: not open */
	int dir_fd;		/* its directory: ours, not group/world-writable */
	int lock_fd;		/* owner only: <dir>/lock */
	int root_lock_fd;	/* owner only: the sysfs root, flock'd */
	bool owner;
	pid_t pid;		/* only the opener restores at exit/signal */
	pid_t pdeath;		/* this process dies with its parent */
	off_t hdr;		/* end of the "R <root>" line (0: none) */
	off_t base;		/* this process restores from here */
	off_t dedup_from;	/* last mark: a knob recorded since is not again */
	bool hooks;
	char root[DEVPM_PATH_MAX];	/* records lie below <root>/sys */
	char dir[DEVPM_PATH_MAX];
	char path[DEVPM_PATH_MAX];
} journal = { .fd = -1, .dir_fd = -1, .lock_fd = -1, .root_lock_fd = -1 };

/* One line on stderr without stdio: safe in a signal handler. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

/*
 * Root's journal is /run/devpm; another user's lives in a directory of
 * its own, where a run without root (which writes no knob) can take its
 * lock: $XDG_RUNTIME_DIR/devpm, else /tmp/devpm-<uid> (open_dir() refuses
 * one that is not the user's own).
 */
const char *devpm_journal_dir(void)
{
	static char user[DEVPM_PATH_MAX];
	const char *d = getenv("DEVPM_JOURNAL_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (d && d[0])
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

static int mkdir_p(const char *dir)
{
	char p[DEVPM_PATH_MAX];
	char *s, c;
	int r;

	r = devpm_fmt(p, sizeof(p), "%s", dir);
	if (r)
		return r;
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return devpm_fail(errno, "journal directory %s: %s; set DEVPM_JOURNAL_DIR to a directory you can write (default /run/devpm)",
					  p, strerror(errno));
		*s = c;
		if (!c)
			break;
	}
	return 0;
}

static off_t journal_size(void)
{
	struct stat st;

	if (journal.fd < 0 || fstat(journal.fd, &st) < 0)
		return 0;
	return st.st_size;
}

/*
 * Untrusted bytes for a message: \xNN for a control byte, a backslash or
 * anything not ASCII, at most 160 bytes of input.  out holds 4 * 160 + 1.
 */
static void escaped(char *out, size_t len, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t i, o = 0;

	if (n > 160)
		n = 160;
	for (i = 0; i < n && o + 5 < len; i++) {
		c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
}

#define ESC_MAX (4 * 160 + 1)

static bool digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0 && n < 20;
}

/*
 * "s2idle [deep]", "[none] core processor": the kernel shows a choice list
 * with the current one in brackets; only that word can be written back.
 */
static void selected(char *v)
{
	char *open = strchr(v, '['), *close;

	if (!open)
		return;
	close = strchr(open, ']');
	if (!close || close == open + 1 || memchr(open, ' ', close - open) ||
	    strchr(close + 1, '[') || (open > v && open[-1] != ' ') ||
	    (close[1] != '\0' && close[1] != ' '))
		return;
	*close = '\0';
	memmove(v, open + 1, close - open);
}

/* rel names something below a directory: no empty, "." or ".." part. */
static bool plain_rel(const char *rel)
{
	const char *c = rel;
	size_t n;

	for (;;) {
		n = strcspn(c, "/");
		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!c[n])
			return true;
		c += n + 1;
	}
}

/*
 * Open rel below dfd, every link it meets staying below dfd (sysfs links
 * are relative and stay in /sys): openat2 RESOLVE_BENEATH.
 */
static int open_beneath(int dfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};

	return syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
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
static bool target_of(char type, const char *path, const char *sysdir,
		      int sys_fd, struct target *t)
{
	size_t n = strlen(sysdir), d = strlen(journal.dir);

	if (!strncmp(path, sysdir, n) && path[n] == '/' &&
	    plain_rel(path + n + 1)) {
		t->dfd = sys_fd;
		t->rel = path + n + 1;
		return true;
	}
	if (type == 'L' && journal.dir_fd >= 0 && d && !strncmp(path, journal.dir, d) &&
	    path[d] == '/' && plain_rel(path + d + 1) &&
	    !strchr(path + d + 1, '/')) {
		t->dfd = journal.dir_fd;
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

	fd = open_beneath(t->dfd, t->rel, O_RDONLY | O_NOFOLLOW);
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

	fd = open_beneath(t->dfd, t->rel, O_WRONLY | O_TRUNC | O_NOFOLLOW);
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
	fd = open_beneath(t->dfd, parent, O_PATH | O_DIRECTORY);
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
	fd = open_beneath(t->dfd, link, O_PATH | O_NOFOLLOW);
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

	pfd = open_beneath(t->dfd, parent, O_PATH | O_DIRECTORY);
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
static int restore_record(char *rec, long lineno, const char *sysdir,
			  int sys_fd)
{
	char cur[VAL_MAX], e1[ESC_MAX], e2[ESC_MAX];
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
		if (!target_of(rec[0], body, sysdir, sys_fd, &t)) {
			escaped(e1, sizeof(e1), body, strlen(body));
			say("devpm: journal line %ld refused: %s is not below %s",
			    lineno, e1, sysdir);
			return REC_REFUSED;
		}
		if (t.dfd < 0) {
			say("devpm: journal line %ld: cannot open %s", lineno,
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
		if (!sp || !digits(body, sp - body) ||
		    !digits(sp + 1, strlen(sp + 1)))
			return REC_INVALID;
		return REC_NOTHING;
	default:
		return REC_INVALID;
	}

	escaped(e1, sizeof(e1), body, strlen(body));
	switch (rec[0]) {
	case 'W':
		/* Unchanged since: nothing to write (and nothing to fail). */
		r = read_at(&t, cur, sizeof(cur));
		if (!r) {
			selected(cur);
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
			escaped(e2, sizeof(e2), val, strlen(val));
			say("devpm: journal line %ld: cannot put back '%s' into %s: %s",
			    lineno, e2, e1, strerror(-r));
			return devpm_fail(r, "%s: %s", e1, strerror(-r));
		}
		return REC_DONE;
	case 'M':
		r = devpm_module_unload(body);
		if (r) {
			say("devpm: journal line %ld: cannot unload %s",
			    lineno, devpm_error());
			return r;
		}
		return REC_DONE;
	case 'D':
	case 'L':
		r = remove_at(&t, rec[0] == 'D' ? AT_REMOVEDIR : 0);
		if (r) {
			say("devpm: journal line %ld: cannot remove %s: %s",
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
static int restore_range(off_t from)
{
	char line[LINE_MAX_LEN], shown[ESC_MAX], first[300] = "";
	char sysdir[DEVPM_PATH_MAX + 8];
	long no = 1, invalid = 0, refused = 0, nothing = 0;
	int done = 0, failed = 0, sys_fd;
	off_t size, i, end, start;
	const char *m;
	int r;

	if (from < journal.hdr)
		from = journal.hdr;
	size = journal_size();
	if (from > size)
		from = size;
	if (from == size)
		return 0;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, journal.fd, 0);
	if (m == MAP_FAILED)
		return devpm_fail(errno, "journal %s: %s", journal.path,
				  strerror(errno));
	snprintf(sysdir, sizeof(sysdir), "%s/sys", journal.root);
	sys_fd = open(sysdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* no: the number of the line after the last complete one. */
	for (i = 0; i < size; i++)
		no += m[i] == '\n';
	end = size;
	if (m[size - 1] != '\n') {
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		escaped(shown, sizeof(shown), m + start, end - start);
		say("devpm: journal line %ld truncated, not restored: %s",
		    no, shown);
		invalid++;
		end = start;
	}
	while (end > from) {
		end--;		/* the '\n' of this line */
		no--;
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		if (end - start >= (off_t)sizeof(line)) {
			r = REC_INVALID;
		} else {
			memcpy(line, m + start, end - start);
			line[end - start] = '\0';
			r = restore_record(line, no, sysdir, sys_fd);
		}
		if (r == REC_INVALID) {
			if (invalid++ < SHOW_MAX) {
				escaped(shown, sizeof(shown), m + start,
					end - start);
				say("devpm: journal line %ld invalid, not restored: %s",
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
		say("devpm: %ld more invalid journal line(s) not shown",
		    invalid - SHOW_MAX);
	if (ftruncate(journal.fd, from) < 0 || fsync(journal.fd) < 0)
		return devpm_fail(errno, "journal %s: %s", journal.path,
				  strerror(errno));
	if (journal.dedup_from > from)
		journal.dedup_from = from;
	if (invalid && !done && !failed && !nothing)
		return devpm_fail(EINVAL, "journal %s: none of its %ld line(s) is a valid record; it was emptied",
				  journal.path, invalid);
	if (failed)
		return devpm_fail(EIO, "%d of %d journal records not restored (%ld refused); first: %s",
				  failed, failed + done, refused, first);
	return done;
}

/* What this process answers for: all (owner) or since it attached. */
static void restore_mine(void)
{
	if (journal.fd >= 0 && journal.pid == getpid())
		restore_range(journal.owner ? 0 : journal.base);
}

static void at_exit(void)
{
	restore_mine();
}

static const int hook_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	sigset_t set;

	restore_mine();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static void install_hooks(void)
{
	struct sigaction sa, old;
	size_t i;

	if (journal.hooks)
		return;
	journal.hooks = true;
	atexit(at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(hook_signals) / sizeof(hook_signals[0]); i++)
		sigaddset(&sa.sa_mask, hook_signals[i]);
	for (i = 0; i < sizeof(hook_signals) / sizeof(hook_signals[0]); i++) {
		/* Started with the signal ignored (nohup): keep it so. */
		if (sigaction(hook_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(hook_signals[i], &sa, NULL);
	}
}

/*
 * A process that writes knobs for someone else (a test program, a case
 * the harness forked) dies with its parent: nothing may write after the
 * runner is gone and `devpm restore` has put the knobs back.
 */
static void die_with_parent(void)
{
	if (journal.owner && journal.pid == getpid())
		return;
	if (journal.pdeath == getpid())
		return;
	journal.pdeath = getpid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* The journal directory: a directory (not a link) of ours nobody else writes. */
static int open_dir(const char *dir)
{
	struct stat st;
	int fd, r = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return devpm_fail(EPERM, "journal directory %s is a symlink or not a directory; set DEVPM_JOURNAL_DIR to a directory of yours (mode 0700)",
				  dir);
	if (fd < 0)
		return devpm_fail(errno, "journal directory %s: %s", dir,
				  strerror(errno));
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

/* A file in the journal directory: not a link, ours, one name. */
static int open_in_dir(int dfd, const char *dir, const char *name, int flags)
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

/*
 * One run per sysfs root, whatever its journal directory: flock on the
 * root directory itself (/sys for the real system).  Nothing to create,
 * and it goes with its holder.
 */
static int lock_root(void)
{
	const char *root = devpm_sysfs_root()[0] ? devpm_sysfs_root() : "/sys";
	struct stat st;
	char pid[32];
	long holder;
	int fd, r;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "sysfs root %s: %s", root,
				  strerror(errno));
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	r = errno;
	holder = fstat(fd, &st) ? 0 : flock_holder(&st);
	close(fd);
	if (r != EWOULDBLOCK)
		return devpm_fail(r, "lock on %s: %s", root, strerror(r));
	if (holder > 0)
		snprintf(pid, sizeof(pid), "pid %ld", holder);
	else
		snprintf(pid, sizeof(pid), "pid unknown");
	return devpm_fail(EBUSY, "another devpm run (%s) holds the lock on %s; wait for it to end",
			  pid, root);
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

/* End what every P record of the journal names, before restoring. */
static void end_sessions(void)
{
	off_t size = journal_size(), i;
	unsigned long long start;
	const char *m;
	char rec[64];
	int killed = 0, stuck;
	long sid;
	size_t n;

	if (size <= journal.hdr)
		return;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, journal.fd, 0);
	if (m == MAP_FAILED)
		return;
	for (i = journal.hdr; i + 2 < size; i++) {
		if ((i != journal.hdr && m[i - 1] != '\n') || m[i] != 'P' ||
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
			say("devpm: %d process(es) of the interrupted run (session %ld) did not die after SIGKILL; restoring anyway",
			    stuck, sid);
	}
	munmap((void *)m, size);
	if (killed)
		say("devpm: ended %d process(es) of the interrupted run before restoring",
		    killed);
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

static int take_dir_lock(const char *dir)
{
	char pid[32];
	long holder;
	int r;

	journal.lock_fd = open_in_dir(journal.dir_fd, dir, "lock", O_RDWR | O_CREAT);
	if (journal.lock_fd < 0)
		return journal.lock_fd;
	/* flock dies with its holder: a stale lock file is simply taken. */
	if (flock(journal.lock_fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno;
		holder = lock_holder(journal.lock_fd);
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
	if (ftruncate(journal.lock_fd, 0) < 0 ||
	    pwrite(journal.lock_fd, pid, strlen(pid), 0) != (ssize_t)strlen(pid))
		return devpm_fail(errno, "%s/lock: %s", dir, strerror(errno));
	return 0;
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
	r = mkdir_p(dir);
	if (r)
		return r;
	journal.dir_fd = open_dir(dir);
	if (journal.dir_fd < 0)
		return journal.dir_fd;
	journal.root_lock_fd = lock_root();
	r = journal.root_lock_fd < 0 ? journal.root_lock_fd : take_dir_lock(dir);
	if (!r) {
		journal.fd = open_in_dir(journal.dir_fd, dir, "journal",
				   O_RDWR | O_CREAT | O_APPEND);
		r = journal.fd < 0 ? journal.fd : 0;
	}
	if (r) {
		close_all();
		return r;
	}
	journal.owner = true;
	journal.pid = getpid();
	journal.base = 0;
	journal.dedup_from = 0;
	/* Whatever a killed run left behind goes back first. */
	read_header();
	end_sessions();
	r = restore_range(0);
	if (r > 0)
		say("devpm: put back %d value(s) an earlier run left in %s", r,
		    journal.path);
	else if (r < 0)
		say("devpm: %s", devpm_error());
	*restored = r;
	r = write_header();
	if (r) {
		close_all();
		journal.owner = false;
		return r;
	}
	setenv("DEVPM_JOURNAL", journal.path, 1);
	install_hooks();
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
	journal.dir_fd = open_dir(journal.dir);
	if (journal.dir_fd < 0)
		return journal.dir_fd;
	journal.fd = open_in_dir(journal.dir_fd, journal.dir, slash + 1, O_RDWR | O_APPEND);
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
	install_hooks();
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
	return append(rec);
}

void devpm_journal_close(void)
{
	if (journal.fd < 0)
		return;
	restore_mine();
	/* All put back: an empty journal, not even the R line. */
	if (journal.owner && journal.pid == getpid() && journal_size() == journal.hdr &&
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
	die_with_parent();
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
	return restore_range(mark);
}

int devpm_journal_restore_all(void)
{
	int restored, r;

	if (journal.fd < 0) {
		r = open_owner(NULL, &restored);
		return r < 0 ? r : restored;
	}
	return restore_range(0);
}

static int append(const char *rec)
{
	size_t len = strlen(rec);
	ssize_t n;

	if (journal.fd < 0) {
		int r = devpm_journal_attach();

		if (r)
			return r;
	}
	die_with_parent();
	n = write(journal.fd, rec, len);
	if (n != (ssize_t)len)
		return devpm_fail(n < 0 ? errno : EIO, "journal %s: %s", journal.path,
				  n < 0 ? strerror(errno) : "short write");
	if (fsync(journal.fd) < 0)
		return devpm_fail(errno, "journal %s: %s", journal.path,
				  strerror(errno));
	return 0;
}

/* Is there a "W <path>\t" record since the last mark? */
static bool recorded(const char *path)
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

static bool clean_field(const char *s)
{
	return !strchr(s, '\t') && !strchr(s, '\n');
}

/*
 * The path a record names: the real path, its directory's links resolved
 * (the restore follows no link that leaves <root>/sys, and a tree's links
 * may be absolute), the last part as it is (a configfs link is removed,
 * not followed).
 */
static int record_path(char *buf, size_t len, const char *kpath)
{
	char dir[DEVPM_PATH_MAX], res[DEVPM_PATH_MAX];
	const char *base = strrchr(kpath, '/');

	if (strncmp(kpath, "/sys/", 5) || !base || base == kpath ||
	    devpm_fmt(dir, sizeof(dir), "%.*s", (int)(base - kpath), kpath) ||
	    devpm_resolve(dir, res, sizeof(res)) || !strcmp(res, "/"))
		return devpm_real_path(buf, len, kpath);
	if (devpm_fmt(dir, sizeof(dir), "%s%s", res, base))
		return -ENAMETOOLONG;
	return devpm_real_path(buf, len, dir);
}

/*
 * The device a knob belongs to: the path before /power/, else the knob's
 * directory, links resolved (a /sys/bus/.../devices/X path is a device).
 */
static void knob_device(const char *kpath, char *dev, size_t len)
{
	char d[DEVPM_PATH_MAX];
	char *p;

	snprintf(d, sizeof(d), "%s", kpath);
	p = strstr(d, "/power/");
	if (!p)
		p = strrchr(d, '/');
	if (p && p != d)
		*p = '\0';
	if (devpm_resolve(d, dev, len))
		snprintf(dev, len, "%s", d);
}

int devpm_knob_write(const char *kpath, const char *val)
{
	char cur[VAL_MAX], want[VAL_MAX], path[DEVPM_PATH_MAX];
	char rec[LINE_MAX_LEN], dev[DEVPM_PATH_MAX], why[300];
	const char *p;
	size_t n;
	int r;

	if (!kpath || kpath[0] != '/' || !clean_field(kpath) || !val)
		return devpm_fail(EINVAL, "bad knob path '%s'",
				  kpath ? kpath : "(null)");
	if (devpm_fmt(want, sizeof(want), "%s", val))
		return devpm_fail(EINVAL, "%s: value too long", kpath);
	n = strlen(want);
	if (n && want[n - 1] == '\n')
		want[--n] = '\0';
	if (!clean_field(want))
		return devpm_fail(EINVAL, "%s: value '%s' has a tab or newline",
				  kpath, val);
	if (!devpm_allow_disk()) {
		knob_device(kpath, dev, sizeof(dev));
		if (devpm_dev_protected(dev, why, sizeof(why)))
			return devpm_fail(EPERM, "refusing to write %s: %s; pass --allow-disk to allow it",
					  kpath, why);
	}
	r = devpm_read_str(kpath, cur, sizeof(cur));
	if (r)
		return r;
	selected(cur);
	/* An unset driver_override reads "(null)"; written, it would stick. */
	p = strrchr(kpath, '/');
	if (!strcmp(p, "/driver_override") && !strcmp(cur, "(null)"))
		cur[0] = '\0';
	if (!strcmp(cur, want))
		return 0;
	if (!clean_field(cur))
		return devpm_fail(EINVAL, "%s: cannot journal its value '%s' (tab or newline)",
				  kpath, cur);
	/* Record the path the restore must write: inside a tree, the tree. */
	r = record_path(path, sizeof(path), kpath);
	if (r)
		return r;
	if (!recorded(path)) {
		snprintf(rec, sizeof(rec), "W %s\t%s\n", path, cur);
		r = append(rec);
		if (r)
			return r;
	}
	/* sysfs ignores an empty write: clear with a newline, as echo does. */
	return devpm_write_str(kpath, want[0] ? want : "\n");
}

int devpm_knob_write_long(const char *kpath, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", val);
	return devpm_knob_write(kpath, buf);
}

int devpm_knob_writef(const char *val, const char *fmt, ...)
{
	char kpath[DEVPM_PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(kpath, sizeof(kpath), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(kpath))
		return devpm_fail(ENAMETOOLONG, "knob path %.120s...: longer than %zu bytes",
				  kpath, sizeof(kpath) - 1);
	return devpm_knob_write(kpath, val);
}

static int undo_path(char type, const char *kpath, const char *val)
{
	char path[DEVPM_PATH_MAX], rec[LINE_MAX_LEN];
	int r;

	if (!kpath || kpath[0] != '/' || !clean_field(kpath) ||
	    (val && !clean_field(val)))
		return devpm_fail(EINVAL, "cannot journal '%s' (%s)",
				  kpath ? kpath : "(null)",
				  "absolute path and value without tab or newline");
	r = record_path(path, sizeof(path), kpath);
	if (r)
		return r;
	if (val)
		r = devpm_fmt(rec, sizeof(rec), "%c %s\t%s\n", type, path, val);
	else
		r = devpm_fmt(rec, sizeof(rec), "%c %s\n", type, path);
	return r ? r : append(rec);
}

int devpm_journal_undo_write(const char *kpath, const char *val)
{
	if (!val)
		return devpm_fail(EINVAL, "%s: no value to put back",
				  kpath ? kpath : "(null)");
	return undo_path('U', kpath, val);
}

int devpm_journal_undo_rmdir(const char *kpath)
{
	return undo_path('D', kpath, NULL);
}

int devpm_journal_undo_unlink(const char *kpath)
{
	return undo_path('L', kpath, NULL);
}

int devpm_journal_undo_module(const char *module)
{
	char rec[128];

	if (!module || !devpm_module_name_ok(module) || strlen(module) > 60)
		return devpm_fail(EINVAL, "bad module name '%s'",
				  module ? module : "(null)");
	snprintf(rec, sizeof(rec), "M %s\n", module);
	return append(rec);
}
