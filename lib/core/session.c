// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - the sessions of the test programs a run started: tell
 * their leader from a reused pid, end them after a crash (session.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/session.h"
#include "core/poll.h"

/* How long the processes of a dead run may take to go. */
#define END_MS 5000

/* State, session and start time (clock ticks) from /proc/<pid>/stat. */
static int proc_stat(long pid, char *state, long *sid,
		     unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) S ppid pgrp session ... starttime": comm may hold ')' */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %ld %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			 state, sid, start) != 3)
		return -1;
	return 0;
}

int devpm_session_start_time(pid_t pid, unsigned long long *start)
{
	long sid;
	char st;

	return proc_stat(pid, &st, &sid, start) ? -ESRCH : 0;
}

struct sweep {
	long sid;
	unsigned long long start;
	int left;		/* alive at the last round */
};

/* SIGKILL what is alive of the session; how many that was. */
static int kill_round(struct sweep *sw)
{
	unsigned long long t;
	struct dirent *de;
	long s, pid;
	char st;
	DIR *d;

	sw->left = 0;
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		pid = atol(de->d_name);
		if (pid <= 0 || pid == getpid() ||
		    proc_stat(pid, &st, &s, &t) || s != sw->sid ||
		    t < sw->start || st == 'Z' || st == 'X')
			continue;
		kill(pid, SIGKILL);
		sw->left++;
	}
	if (d)
		closedir(d);
	return sw->left;
}

static bool none_left(void *arg)
{
	return !kill_round(arg);
}

/*
 * SIGKILL every process of the session a dead run started (its leader's
 * pid and start time recorded by P), until none is left.  A leader pid
 * alive with another start time was reused: not ours.  Members cannot
 * have started before their leader.  Returns how many were killed.
 */
int devpm_session_end(long sid, unsigned long long start, int *stuck)
{
	struct sweep sw = { .sid = sid, .start = start };
	unsigned long long t;
	int killed;
	long s;
	char st;

	*stuck = 0;
	if (!proc_stat(sid, &st, &s, &t) && t != start)
		return 0;
	killed = kill_round(&sw);
	if (killed && !devpm_poll_until(none_left, &sw, END_MS))
		*stuck = sw.left;
	return killed;
}
