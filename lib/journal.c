// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal.c - record every PM knob before writing it, put it all back
 * (journal.h).
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "needs.h"
#include "safety.h"
#include "sysfs.h"

#define VAL_MAX 4096
#define LINE_MAX_LEN (DEVPM_PATH_MAX + VAL_MAX + 8)

static struct {
	int fd;			/* the journal, O_APPEND; -1: not open */
	int lock_fd;		/* owner only */
	bool owner;
	pid_t pid;		/* only the opener restores at exit/signal */
	off_t base;		/* this process restores from here */
	off_t dedup_from;	/* last mark: a knob recorded since is not again */
	bool hooks;
	char path[DEVPM_PATH_MAX];
} J = { .fd = -1, .lock_fd = -1 };

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

const char *devpm_journal_dir(void)
{
	const char *d = getenv("DEVPM_JOURNAL_DIR");

	return d && d[0] ? d : "/run/devpm";
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
			return devpm_fail(errno, "journal directory %s: %s", p,
					  strerror(errno));
		*s = c;
		if (!c)
			break;
	}
	return 0;
}

static off_t journal_size(void)
{
	struct stat st;

	if (J.fd < 0 || fstat(J.fd, &st) < 0)
		return 0;
	return st.st_size;
}

/* A record's text for a message: printable, at most 160 bytes. */
static void printable(char *out, size_t len, const char *s, size_t n)
{
	size_t i;

	if (n > len - 1)
		n = len - 1;
	if (n > 160)
		n = 160;
	for (i = 0; i < n; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	out[n] = '\0';
}

static bool module_name_ok(const char *m)
{
	if (!*m)
		return false;
	for (; *m; m++)
		if (!(*m == '_' || *m == '-' || (*m >= '0' && *m <= '9') ||
		      (*m >= 'a' && *m <= 'z') || (*m >= 'A' && *m <= 'Z')))
			return false;
	return true;
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

/*
 * Put back one record.  0 done, 1 invalid, -errno failed (reported).  The
 * paths are the ones really written (inside a tree for a tree): used as
 * they are, whatever the sysfs root of the restoring process.
 */
static int restore_record(char *rec, long lineno)
{
	char cur[VAL_MAX], name[64], *body = rec + 2, *val = NULL;
	size_t i;
	int r;

	if (strlen(rec) < 3 || rec[1] != ' ')
		return 1;
	if (rec[0] == 'W' || rec[0] == 'U') {
		val = strchr(body, '\t');
		if (!val || strchr(val + 1, '\t'))
			return 1;
		*val++ = '\0';
	}
	switch (rec[0]) {
	case 'W':
	case 'U':
	case 'D':
	case 'L':
		if (body[0] != '/' || strchr(body, '\t'))
			return 1;
		break;
	case 'M':
		if (!module_name_ok(body) || strlen(body) >= sizeof(name))
			return 1;
		break;
	default:
		return 1;
	}

	switch (rec[0]) {
	case 'W':
		/* Unchanged since: nothing to write (and nothing to fail). */
		if (!devpm_read_file(body, cur, sizeof(cur))) {
			selected(cur);
			if (!strcmp(cur, val))
				return 0;
		}
		/* fallthrough */
	case 'U':
		/*
		 * sysfs ignores an empty write: an empty value is written as
		 * the lone newline of `echo > knob`, which clears a
		 * driver_override (suites/pci).
		 */
		r = devpm_write_file(body, val[0] ? val : "\n");
		if (r)
			say("devpm: journal line %ld: cannot put back '%s': %s",
			    lineno, val, devpm_error());
		return r;
	case 'M':
		for (i = 0; body[i]; i++)
			name[i] = body[i] == '-' ? '_' : body[i];
		name[i] = '\0';
		/* Gone already, or a kernel without modules: nothing to do. */
		if (syscall(SYS_delete_module, name, O_NONBLOCK) < 0 &&
		    errno != ENOENT && errno != ENOSYS) {
			r = devpm_fail(errno, "module %s: %s", name,
				       strerror(errno));
			say("devpm: journal line %ld: cannot unload %s",
			    lineno, devpm_error());
			return r;
		}
		return 0;
	case 'D':
		if (rmdir(body) < 0 && errno != ENOENT) {
			r = devpm_fail(errno, "%s: %s", body, strerror(errno));
			say("devpm: journal line %ld: cannot remove %s",
			    lineno, devpm_error());
			return r;
		}
		return 0;
	case 'L':
		if (unlink(body) < 0 && errno != ENOENT) {
			r = devpm_fail(errno, "%s: %s", body, strerror(errno));
			say("devpm: journal line %ld: cannot unlink %s",
			    lineno, devpm_error());
			return r;
		}
		return 0;
	}
	return 1;
}

/*
 * Put back the records in [from, end) last first, then cut the journal at
 * from.  Returns the number restored, or -EIO when some could not be.
 */
static int restore_range(off_t from)
{
	char line[LINE_MAX_LEN], shown[200], first[300] = "";
	long no = 1;
	int done = 0, failed = 0;
	off_t size, i, end, start;
	const char *m;
	int r;

	size = journal_size();
	if (from > size)
		from = size;
	if (from == size)
		return 0;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, J.fd, 0);
	if (m == MAP_FAILED)
		return devpm_fail(errno, "journal %s: %s", J.path,
				  strerror(errno));
	/* no: the number of the line after the last complete one. */
	for (i = 0; i < size; i++)
		no += m[i] == '\n';
	end = size;
	if (m[size - 1] != '\n') {
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		printable(shown, sizeof(shown), m + start, end - start);
		say("devpm: journal line %ld truncated, not restored: %s",
		    no, shown);
		end = start;
	}
	while (end > from) {
		end--;		/* the '\n' of this line */
		no--;
		for (start = end; start > from && m[start - 1] != '\n'; start--)
			;
		if (end - start >= (off_t)sizeof(line)) {
			r = 1;
		} else {
			memcpy(line, m + start, end - start);
			line[end - start] = '\0';
			r = restore_record(line, no);
		}
		if (r == 1) {
			printable(shown, sizeof(shown), m + start, end - start);
			say("devpm: journal line %ld invalid, not restored: %s",
			    no, shown);
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
	if (ftruncate(J.fd, from) < 0 || fsync(J.fd) < 0)
		return devpm_fail(errno, "journal %s: %s", J.path,
				  strerror(errno));
	if (J.dedup_from > from)
		J.dedup_from = from;
	if (failed)
		return devpm_fail(EIO, "%d of %d journal records not restored; first: %s",
				  failed, failed + done, first);
	return done;
}

/* What this process answers for: all (owner) or since it attached. */
static void restore_mine(void)
{
	if (J.fd >= 0 && J.pid == getpid())
		restore_range(J.owner ? 0 : J.base);
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

	if (J.hooks)
		return;
	J.hooks = true;
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

static int open_owner(const char *dir, int *restored)
{
	char lock[DEVPM_PATH_MAX], pid[32];
	long holder;
	int fd, r;

	*restored = 0;
	if (J.fd >= 0)
		return 0;
	if (!dir || !dir[0])
		dir = devpm_journal_dir();
	r = mkdir_p(dir);
	if (r)
		return r;
	if (devpm_fmt(lock, sizeof(lock), "%s/lock", dir) ||
	    devpm_fmt(J.path, sizeof(J.path), "%s/journal", dir))
		return devpm_fail(ENAMETOOLONG, "journal directory %s: path too long",
				  dir);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", lock, strerror(errno));
	/* flock dies with its holder: a stale lock file is simply taken. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno;
		holder = lock_holder(fd);
		close(fd);
		if (r != EWOULDBLOCK)
			return devpm_fail(r, "%s: %s", lock, strerror(r));
		if (holder > 0)
			snprintf(pid, sizeof(pid), "pid %ld", holder);
		else
			snprintf(pid, sizeof(pid), "pid unknown");
		return devpm_fail(EBUSY, "another devpm run (%s) holds %s; wait for it or, if it is gone, run 'devpm restore'",
				  pid, lock);
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, pid, strlen(pid), 0) != (ssize_t)strlen(pid)) {
		r = devpm_fail(errno, "%s: %s", lock, strerror(errno));
		close(fd);
		return r;
	}
	J.fd = open(J.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (J.fd < 0) {
		r = devpm_fail(errno, "%s: %s", J.path, strerror(errno));
		close(fd);
		return r;
	}
	J.lock_fd = fd;
	J.owner = true;
	J.pid = getpid();
	J.base = 0;
	J.dedup_from = 0;
	/* Whatever a killed run left behind goes back first. */
	r = restore_range(0);
	if (r > 0)
		say("devpm: put back %d value(s) an earlier run left in %s", r,
		    J.path);
	else if (r < 0)
		say("devpm: %s", devpm_error());
	*restored = r;
	setenv("DEVPM_JOURNAL", J.path, 1);
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

	if (J.fd >= 0)
		return 0;
	if (!path || !path[0])
		return devpm_journal_open_owner(NULL);
	if (devpm_fmt(J.path, sizeof(J.path), "%s", path))
		return devpm_fail(ENAMETOOLONG, "DEVPM_JOURNAL=%s: path too long",
				  path);
	J.fd = open(J.path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (J.fd < 0)
		return devpm_fail(errno, "DEVPM_JOURNAL=%s: %s", path,
				  strerror(errno));
	J.owner = false;
	J.pid = getpid();
	J.base = journal_size();
	J.dedup_from = J.base;
	install_hooks();
	return 0;
}

void devpm_journal_close(void)
{
	if (J.fd < 0)
		return;
	restore_mine();
	close(J.fd);
	J.fd = -1;
	if (J.lock_fd >= 0) {
		close(J.lock_fd);
		J.lock_fd = -1;
	}
	if (J.owner)
		unsetenv("DEVPM_JOURNAL");
	J.owner = false;
}

off_t devpm_journal_mark(void)
{
	if (J.fd < 0)
		return 0;
	J.dedup_from = journal_size();
	return J.dedup_from;
}

int devpm_journal_restore_since(off_t mark)
{
	if (J.fd < 0)
		return 0;
	/* Never what the owner recorded before this process attached. */
	if (mark < J.base)
		mark = J.base;
	return restore_range(mark);
}

int devpm_journal_restore_all(void)
{
	int restored, r;

	if (J.fd < 0) {
		r = open_owner(NULL, &restored);
		return r < 0 ? r : restored;
	}
	return restore_range(0);
}

static int append(const char *rec)
{
	size_t len = strlen(rec);
	ssize_t n;

	if (J.fd < 0) {
		int r = devpm_journal_attach();

		if (r)
			return r;
	}
	n = write(J.fd, rec, len);
	if (n != (ssize_t)len)
		return devpm_fail(n < 0 ? errno : EIO, "journal %s: %s", J.path,
				  n < 0 ? strerror(errno) : "short write");
	if (fsync(J.fd) < 0)
		return devpm_fail(errno, "journal %s: %s", J.path,
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

	if (J.dedup_from >= size)
		return false;
	m = mmap(NULL, size, PROT_READ, MAP_SHARED, J.fd, 0);
	if (m == MAP_FAILED)
		return false;	/* recording twice is harmless */
	for (i = J.dedup_from; i < size && !found; i++) {
		if (i != J.dedup_from && m[i - 1] != '\n')
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
	r = devpm_real_path(path, sizeof(path), kpath);
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

static int undo_path(char type, const char *kpath, const char *val)
{
	char path[DEVPM_PATH_MAX], rec[LINE_MAX_LEN];
	int r;

	if (!kpath || kpath[0] != '/' || !clean_field(kpath) ||
	    (val && !clean_field(val)))
		return devpm_fail(EINVAL, "cannot journal '%s' (%s)",
				  kpath ? kpath : "(null)",
				  "absolute path and value without tab or newline");
	r = devpm_real_path(path, sizeof(path), kpath);
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

	if (!module || !module_name_ok(module) || strlen(module) > 60)
		return devpm_fail(EINVAL, "bad module name '%s'",
				  module ? module : "(null)");
	snprintf(rec, sizeof(rec), "M %s\n", module);
	return append(rec);
}

/* modprobe module params...; 0, or -errno with its complaint as error. */
static int run_modprobe(const char *module, const char *params)
{
	char args[512], out[512] = "", *argv[34], *save = NULL, *tok;
	int p[2], status, argc = 0, dn;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(args, sizeof(args), "%s", params ? params : "");
	argv[argc++] = "modprobe";
	argv[argc++] = (char *)module;
	for (tok = strtok_r(args, " \t", &save); tok && argc < 33;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (pipe2(p, O_CLOEXEC) < 0)
		return devpm_fail(errno, "modprobe %s: %s", module,
				  strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return devpm_fail(errno, "modprobe %s: %s", module,
				  strerror(errno));
	}
	if (!pid) {
		dn = open("/dev/null", O_RDWR);
		if (dn >= 0)
			dup2(dn, STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv("/sbin/modprobe", argv);
		execvp("modprobe", argv);
		dprintf(STDERR_FILENO, "cannot run modprobe: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		n = read(p[0], out + got, sizeof(out) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
		if (got == sizeof(out) - 1)
			break;
	}
	out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return devpm_fail(errno, "modprobe %s: %s", module,
					  strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	out[strcspn(out, "\n")] = '\0';
	if (out[0])
		return devpm_fail(ENOENT, "%s", out);
	if (WIFEXITED(status))
		return devpm_fail(ENOENT, "modprobe %s exited with status %d",
				  module, WEXITSTATUS(status));
	return devpm_fail(ENOENT, "modprobe %s killed by signal %d", module,
			  WTERMSIG(status));
}

int devpm_module_load(const char *module, const char *params)
{
	char name[64], kpath[DEVPM_PATH_MAX];
	size_t i;
	int r;

	if (!module || !module_name_ok(module) || strlen(module) >= sizeof(name))
		return devpm_fail(EINVAL, "bad module name '%s'",
				  module ? module : "(null)");
	for (i = 0; module[i]; i++)
		name[i] = module[i] == '-' ? '_' : module[i];
	name[i] = '\0';
	if (devpm_module_loaded(name))
		return 0;
	if (devpm_sysfs_root()[0])
		return devpm_fail(ENOENT, "module %s is not loaded in the recorded tree %s (a tree cannot load modules)",
				  name, devpm_sysfs_root());
	r = run_modprobe(module, params);
	if (r)
		return r;
	/* Built in (no initstate): loaded, but nothing to unload. */
	snprintf(kpath, sizeof(kpath), "/sys/module/%s/initstate", name);
	if (!devpm_exists(kpath))
		return 0;
	return devpm_journal_undo_module(name);
}
