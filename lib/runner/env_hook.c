// SPDX-License-Identifier: GPL-2.0-only
/*
 * env_hook.c - the environment's hook in the runner (env_hook.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_trust.h"
#include "env_hook.h"
#include "program.h"
#include "util.h"

int rn_env_hook_check(const char *path)
{
	struct stat st;
	bool ok;
	int fd;

	if (path[0] != '/')
		return rn_usage_error("--env-hook %s: give an absolute path to the environment's hook program",
				      path);
	/* The rule of paths (path_trust.h), and no link at its own name. */
	fd = devpm_path_trust_open_file(path, O_RDONLY, 0,
					DEVPM_TRUST_NOLINK);
	if (fd < 0)
		return rn_usage_error("--env-hook %s: %s; keep the hook root's, mode 0755, in a directory only root may write",
				      path, devpm_error());
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	     (st.st_mode & S_IXUSR);
	close(fd);
	if (!ok)
		return rn_usage_error("--env-hook %s: not an executable regular file; give the program itself",
				      path);
	return 0;
}

/* One line of the hook's; returns 1 on READY, 2 on DONE or FAILED. */
static int on_line(struct rn_env_window *w, struct rn_stream *st,
		   const char *line)
{
	if (!strncmp(line, "READY", 5)) {
		snprintf(w->what, sizeof(w->what), "%s",
			 line[5] == ' ' ? line + 6 : "");
		return 1;
	}
	if (!strncmp(line, "DONE", 4)) {
		snprintf(w->what, sizeof(w->what), "%s",
			 line[4] == ' ' ? line + 5 : "");
		return 2;
	}
	if (!strncmp(line, "FAILED ", 7)) {
		snprintf(w->fail, sizeof(w->fail), "%s", line + 7);
		return 2;
	}
	if (!strncmp(line, "NOTE ", 5))
		rn_stream_emit(st, "NOTE quiet window: %s", line + 5);
	return 0;
}

/* Read lines until one that on_line() says ends the wait, or EOF. */
static int read_until(struct rn_env_window *w, struct rn_stream *st,
		      int want)
{
	char *buf = w->buf, *nl;
	size_t len = w->len;
	ssize_t n;
	int r;

	for (;;) {
		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			r = on_line(w, st, buf);
			len -= nl + 1 - buf;
			memmove(buf, nl + 1, len);
			if (r >= want) {
				w->len = len;
				return r;
			}
		}
		if (len == sizeof(w->buf) - 1)
			len = 0;	/* a line too long: dropped */
		n = read(w->out, buf + len, sizeof(w->buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->len = 0;
			return 0;
		}
		len += n;
	}
}

static void reap(struct rn_env_window *w)
{
	int status = -1;	/* reaped elsewhere: not a clean end */

	if (w->in >= 0)
		close(w->in);
	close(w->out);
	w->in = w->out = -1;
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	rn_child_keep(0);
	w->pid = 0;
	if (!w->fail[0] && !(WIFEXITED(status) && !WEXITSTATUS(status)))
		snprintf(w->fail, sizeof(w->fail), "the environment hook %s",
			 WIFEXITED(status) ? "exited with an error" :
			 "was killed");
}

int rn_env_window_open(struct rn_env_window *w, const char *hook,
		       struct rn_stream *st)
{
	int in[2], out[2];

	memset(w, 0, sizeof(*w));
	w->in = w->out = -1;
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		snprintf(w->fail, sizeof(w->fail), "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		snprintf(w->fail, sizeof(w->fail), "fork: %s", strerror(errno));
		w->pid = 0;
		return -1;
	}
	if (!w->pid) {
		/* dup2() onto itself would keep O_CLOEXEC: cleared so. */
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		fcntl(STDIN_FILENO, F_SETFD, 0);
		fcntl(STDOUT_FILENO, F_SETFD, 0);
		execl(hook, hook, "window", (char *)NULL);
		printf("FAILED cannot run %s: %s\n", hook, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	rn_child_keep(w->pid);
	w->in = in[1];
	w->out = out[0];
	if (read_until(w, st, 1) == 1)
		return 0;
	reap(w);
	return -1;
}

int rn_env_window_close(struct rn_env_window *w, struct rn_stream *st)
{
	if (!w->pid)
		return w->fail[0] ? -1 : 0;
	close(w->in);
	w->in = -1;
	read_until(w, st, 2);
	reap(w);
	return w->fail[0] ? -1 : 0;
}
