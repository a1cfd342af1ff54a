// SPDX-License-Identifier: GPL-2.0-only
/*
 * environment.c - a case's requests to the environment's hook
 * (environment.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/environment.h"
#include "core/note.h"
#include "core/path_trust.h"
#include "core/sysfs.h"

static bool asked;	/* this case asked the hook something */

/*
 * The hook the runner handed down, by the rule of paths (path_trust.h:
 * as root, no component another user could change) and not a link at its
 * own name: an executable regular file.  NULL: none, or refused.
 */
static const char *hook_path(void)
{
	const char *p = devpm_path_trust_env(DEVPM_ENV_HOOK_VAR);
	struct stat st;
	bool ok;
	int fd;

	if (!p || p[0] != '/')
		return NULL;
	fd = devpm_path_trust_open_file(p, O_RDONLY, 0, DEVPM_TRUST_NOLINK);
	if (fd < 0)
		return NULL;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR);
	close(fd);
	return ok ? p : NULL;
}

bool devpm_env_hook(void)
{
	return hook_path() != NULL;
}

/* One line of the hook's: a count, an error, or a note for the case. */
static void hook_line(char *line, int *changed, char *err, size_t len)
{
	line[strcspn(line, "\n")] = '\0';
	if (!strncmp(line, "CHANGED ", 8))
		*changed = atoi(line + 8);
	else if (!strncmp(line, "ERROR ", 6))
		snprintf(err, len, "%s", line + 6);
	else if (line[0])
		devpm_note("%s", strncmp(line, "# ", 2) ? line : line + 2);
}

int devpm_env_request(const char *req)
{
	const char *hook = hook_path();
	char line[1024], err[512] = "";
	int p[2], st, changed = 0;
	FILE *f;
	pid_t pid;

	if (!hook)
		return 0;
	asked = true;
	fflush(stdout);
	if (pipe2(p, O_CLOEXEC) < 0)
		return devpm_fail(errno, "%s %s: %s", hook, req, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return devpm_fail(errno, "%s %s: %s", hook, req, strerror(errno));
	}
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		execl(hook, hook, req, (char *)NULL);
		printf("ERROR cannot run %s: %s\n", hook, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	if (!f) {
		close(p[0]);
	} else {
		while (fgets(line, sizeof(line), f))
			hook_line(line, &changed, err, sizeof(err));
		fclose(f);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return devpm_fail(errno, "%s %s: %s", hook, req,
					  strerror(errno));
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return changed;
	if (!err[0])
		snprintf(err, sizeof(err), "%s %d", WIFEXITED(st) ?
			 "exit status" : "killed by signal", WIFEXITED(st) ?
			 WEXITSTATUS(st) : WTERMSIG(st));
	return devpm_fail(EIO, "environment hook %s %s: %s", hook, req, err);
}

void devpm_env_case_begin(void)
{
	asked = false;
}

int devpm_env_case_settle(void)
{
	int r;

	if (!asked)
		return 0;
	r = devpm_env_request(DEVPM_ENV_SETTLE);
	asked = false;
	return r < 0 ? r : 0;
}
