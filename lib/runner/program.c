// SPDX-License-Identifier: GPL-2.0-only
/*
 * program.c - spawn a test program, read its output, enforce its timeout
 * and leave no process of it behind (program.h).
 *
 * The kselftest harness forks every case into a process group of its own
 * (setpgrp), so killing the program's group is not enough: the runner is
 * PR_SET_CHILD_SUBREAPER, every orphan is reparented to it, and after the
 * program ends each child still alive is killed with its group until none
 * is left.
 *
 * If the runner itself dies (SIGKILL): the program gets SIGKILL with it
 * (PR_SET_PDEATHSIG, set before exec, the parent checked after), and it
 * leads a session of its own (setsid) that its cases stay in whatever
 * their process group; the session is journaled (P record) before the
 * program may run, so `devpm restore` ends all of it before restoring.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "state/journal.h"
#include "program.h"

#define LINE_MAX_LEN 8192
/* How long a SIGKILLed process may take to go. */
#define REAP_MS 3000

volatile sig_atomic_t rn_interrupted;
static volatile pid_t child_pgid;
static struct sigaction old_act[3];
static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	int i;

	if (!rn_interrupted) {
		rn_interrupted = sig;
		if (child_pgid > 0)
			kill(-child_pgid, SIGKILL);
		return;
	}
	/* Second signal: whoever was there before (journal restore). */
	for (i = 0; i < 3; i++) {
		if (sigs[i] != sig)
			continue;
		if (old_act[i].sa_handler != SIG_DFL &&
		    old_act[i].sa_handler != SIG_IGN) {
			old_act[i].sa_handler(sig);
			return;
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void rn_signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old_act[i]);
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Reap pid, waiting at most ms with back-off.  True if reaped. */
static bool reap(pid_t pid, int *status, int ms)
{
	int waited = 0, step = 1;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		if (waited >= ms)
			return false;
		msleep(step);
		waited += step;
		step = step < 64 ? step * 2 : 64;
	}
}

/* Children of this process from /proc/<pid>/stat; returns how many. */
static int children(pid_t *out, int max, char *state)
{
	char path[64], buf[512], *p;
	pid_t self = getpid();
	struct dirent *de;
	int n = 0, ppid, fd;
	ssize_t len;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) S ppid ...": comm may hold spaces and ')' */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %c %d", &state[n], &ppid) != 2)
			continue;
		if (ppid == self)
			out[n++] = atoi(de->d_name);
	}
	closedir(d);
	return n;
}

static pid_t kept_child;

void rn_child_keep(pid_t pid)
{
	kept_child = pid;
}

int rn_kill_descendants(int *stuck)
{
	pid_t pids[256], given_up[64];
	char state[256];
	int n, i, j, rounds, alive = 0, ngiven = 0, st;
	pid_t pg;

	for (rounds = 0; rounds < 100; rounds++) {
		n = children(pids, 256, state);
		/* Skip those that already refused to die. */
		for (i = 0, j = 0; i < n; i++) {
			int k, skip = 0;

			for (k = 0; k < ngiven; k++)
				skip |= given_up[k] == pids[i];
			skip |= kept_child && pids[i] == kept_child;
			if (!skip) {
				pids[j] = pids[i];
				state[j++] = state[i];
			}
		}
		n = j;
		if (!n)
			break;
		for (i = 0; i < n; i++) {
			if (state[i] == 'Z')
				continue;
			alive++;
			pg = getpgid(pids[i]);
			if (pg == pids[i] && pg != getpgrp())
				kill(-pg, SIGKILL);
			kill(pids[i], SIGKILL);
		}
		for (i = 0; i < n; i++)
			if (!reap(pids[i], &st, REAP_MS) && ngiven < 64)
				given_up[ngiven++] = pids[i];
	}
	if (stuck)
		*stuck = ngiven;
	return alive;
}

struct reader {
	char buf[LINE_MAX_LEN + 1];
	size_t len;
	const struct rn_child_ops *ops;
};

static void emit(struct reader *rd, uint64_t ts, size_t n)
{
	char save = rd->buf[n];

	rd->buf[n] = '\0';
	if (n && rd->buf[n - 1] == '\r')
		rd->buf[n - 1] = '\0';
	rd->ops->line(rd->ops->arg, ts, rd->buf);
	rd->buf[n] = save;
}

/* Read what the pipe holds.  Returns 0 at EOF, 1 if more may come. */
static int drain(int fd, struct reader *rd)
{
	char chunk[4096];
	uint64_t ts;
	size_t i;
	ssize_t r;

	for (;;) {
		r = read(fd, chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN ? 1 : 0;
		if (r == 0)
			return 0;
		if (rd->ops->poke)
			rd->ops->poke(rd->ops->arg);
		ts = rn_mono_us();
		for (i = 0; i < (size_t)r; i++) {
			if (chunk[i] == '\0')
				chunk[i] = '?';
			if (chunk[i] == '\n') {
				emit(rd, ts, rd->len);
				rd->len = 0;
				continue;
			}
			rd->buf[rd->len++] = chunk[i];
			if (rd->len == LINE_MAX_LEN) {
				emit(rd, ts, rd->len);
				rd->len = 0;
			}
		}
	}
}

static void child_exec(char *const argv[], int out, bool quiet,
		       pid_t parent, int go)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	char c = 0;
	int i;

	for (i = 0; i < 3; i++)
		signal(sigs[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	setsid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The runner died before the prctl: nobody would restore after us. */
	if (getppid() != parent)
		_exit(127);
	/* Until the runner has journaled our session (EOF: it died). */
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(127);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(quiet && null >= 0 ? null : out, 2);
	execv(argv[0], argv);
	dprintf(out, "devpm: cannot execute %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

int rn_child_run(char *const argv[], int timeout_ms,
		 const struct rn_child_ops *ops, struct rn_child_end *end)
{
	struct reader *rd = rn_xmalloc(sizeof(*rd));
	sigset_t block, old;
	struct pollfd pfd[3];
	uint64_t deadline;
	int fds[2], go[2], pidfd, status = 0, more = 1, n, wait_ms, i;
	pid_t pid, self = getpid();
	bool exited = false;

	memset(end, 0, sizeof(*end));
	rd->ops = ops;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(rd);
		return -errno;
	}
	if (pipe2(go, O_CLOEXEC) < 0) {
		n = -errno;
		close(fds[0]);
		close(fds[1]);
		free(rd);
		return n;
	}
	sigemptyset(&block);
	for (i = 0; i < 3; i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	end->start_us = rn_mono_us();
	pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[1]);
		child_exec(argv, fds[1], ops->quiet_stderr, self, go[0]);
	}
	n = pid < 0 ? -errno : 0;
	if (pid > 0) {
		child_pgid = pid;
		/* Not journaled, not run (the journal says why). */
		if (devpm_journal_record_session(pid) < 0) {
			fprintf(stderr, "devpm: %s\n", devpm_error());
			kill_group(pid);
		} else if (write(go[1], "g", 1) != 1) {
			kill_group(pid);
		}
	}
	close(go[0]);
	close(go[1]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		free(rd);
		return n;
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	deadline = timeout_ms ? end->start_us + timeout_ms * 1000ULL : 0;
	end->how = RN_EXITED;

	while (!exited) {
		n = 0;
		if (more) {
			pfd[n].fd = fds[0];
			pfd[n++].events = POLLIN;
		}
		if (ops->kfd >= 0) {
			pfd[n].fd = ops->kfd;
			pfd[n++].events = POLLIN;
		}
		if (pidfd >= 0) {
			pfd[n].fd = pidfd;
			pfd[n++].events = POLLIN;
		}
		/* Without a pidfd, look at the child every 20 ms. */
		wait_ms = pidfd >= 0 ? 1000 : 20;
		if (deadline) {
			uint64_t now = rn_mono_us();

			if (now >= deadline)
				wait_ms = 0;
			else if ((deadline - now) / 1000 + 1 < (uint64_t)wait_ms)
				wait_ms = (deadline - now) / 1000 + 1;
		}
		poll(pfd, n, wait_ms);
		if (rn_interrupted) {
			kill_group(pid);
			end->how = RN_INTERRUPTED;
			end->code = rn_interrupted;
			break;
		}
		if (ops->kfd >= 0 && ops->poke)
			ops->poke(ops->arg);
		if (more)
			more = drain(fds[0], rd);
		if (ops->tick)
			ops->tick(ops->arg);
		if (waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			break;
		}
		if (deadline && rn_mono_us() >= deadline) {
			kill_group(pid);
			end->how = RN_TIMEDOUT;
			break;
		}
	}
	if (!exited && !reap(pid, &status, REAP_MS))
		end->stuck++;
	child_pgid = 0;
	end->end_us = rn_mono_us();
	if (end->how == RN_EXITED && WIFSIGNALED(status)) {
		end->how = RN_SIGNALED;
		end->code = WTERMSIG(status);
	} else if (end->how == RN_EXITED) {
		end->code = WEXITSTATUS(status);
	}
	/* What it printed last, then whatever it left running. */
	if (more)
		more = drain(fds[0], rd);
	end->leftovers = rn_kill_descendants(&n);
	end->stuck += n;
	for (i = 0; more && i < 100; i++) {
		pfd[0].fd = fds[0];
		pfd[0].events = POLLIN;
		if (poll(pfd, 1, 10) > 0)
			more = drain(fds[0], rd);
	}
	if (rd->len)
		emit(rd, rn_mono_us(), rd->len);
	if (ops->poke)
		ops->poke(ops->arg);
	if (pidfd >= 0)
		close(pidfd);
	close(fds[0]);
	free(rd);
	return 0;
}

static void capture_line(void *arg, uint64_t ts_us, const char *line)
{
	struct rn_buf *b = arg;

	(void)ts_us;
	rn_buf_add(b, line);
	rn_buf_add(b, "\n");
}

int rn_child_capture(char *const argv[], int timeout_ms, struct rn_buf *out,
		     struct rn_child_end *end)
{
	struct rn_child_ops ops = {
		.line = capture_line, .kfd = -1, .quiet_stderr = true,
		.arg = out,
	};

	rn_buf_add(out, "");
	return rn_child_run(argv, timeout_ms, &ops, end);
}

void rn_child_status(const struct rn_child_end *end, char *buf, size_t len)
{
	switch (end->how) {
	case RN_EXITED:
		snprintf(buf, len, "exit:%d", end->code);
		break;
	case RN_SIGNALED:
		snprintf(buf, len, "signal:%d", end->code);
		break;
	case RN_TIMEDOUT:
		snprintf(buf, len, "timeout");
		break;
	case RN_INTERRUPTED:
		snprintf(buf, len, "interrupted:%d", end->code);
		break;
	}
}
