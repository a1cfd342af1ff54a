/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * async_suite.h - what the async test programs share: a wake source for a
 * real s2idle cycle, the per-phase figures of a cycle, and the cycles a
 * program's cases share.
 */
#ifndef DEVPM_ASYNC_SUITE_H
#define DEVPM_ASYNC_SUITE_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devpm.h"

/* The mock devices (devpm_mock): their cycles trace only them. */
#define MOCK_GLOB	"devpm_mock.*"

#define TTY_WAKEUP	"/sys/class/tty/ttyS0/power/wakeup"

#define RTC_WAKEALARM	"/sys/class/rtc/rtc0/wakealarm"
#define RTC_WAKE_S	"+3"	/* seconds from the write */

/*
 * A wake by the platform for a real s2idle cycle.  In devpm's QEMU image
 * the host agent (lib/host.h): s2idle is not woken by the RTC there
 * (DESIGN.md), the agent's console characters do, with ttyS0's
 * power/wakeup enabled.  Elsewhere the RTC alarm (rtc0's wakealarm,
 * journaled: the restore writes the old value back, "" clears it).
 */
static bool wake_by_rtc;

static inline int platform_wake_setup(char *why, size_t len)
{
	wake_by_rtc = false;
	if (devpm_host_available()) {
		if (devpm_knob_write(TTY_WAKEUP, "enabled")) {
			snprintf(why, len, "ttyS0 cannot wake the system: %s",
				 devpm_error());
			return 1;
		}
		return 0;
	}
	if (devpm_exists(RTC_WAKEALARM)) {
		wake_by_rtc = true;
		return 0;
	}
	snprintf(why, len, "no wake source for s2idle: no QEMU host agent and no %s",
		 RTC_WAKEALARM);
	return 1;
}

static inline int platform_wake_arm(const char *state, char *why, size_t len)
{
	char req[64], reply[256] = "";

	if (wake_by_rtc) {
		/* An alarm still pending makes the kernel refuse a new one. */
		if (devpm_knob_write(RTC_WAKEALARM, "0") ||
		    devpm_knob_write(RTC_WAKEALARM, RTC_WAKE_S)) {
			snprintf(why, len, "%s", devpm_error());
			return -1;
		}
		return 0;
	}
	snprintf(req, sizeof(req), "wake %s 20000", state);
	if (devpm_host_request(req, reply, sizeof(reply), 5000)) {
		snprintf(why, len, "host agent '%s': %s %s", req, reply,
			 devpm_error());
		return -1;
	}
	return 0;
}

/*
 * A mock case's cycles without QEMU's USB chain: in devpm's QEMU image
 * (the host agent answers), unless DEVPM_ASYNC_KEEP_USB=1, the xHCI
 * controllers are unbound for the case (lib/qemu_xhci.h: each of those
 * cycles would otherwise resume every USB device, ~1.5 s).  0 or -errno.
 */
static inline int quiet_usb(void)
{
	int r = devpm_qemu_xhci_unbind(devpm_host_available(),
				       "DEVPM_ASYNC_KEEP_USB");

	return r < 0 ? r : 0;
}

/* Span of a phase from its suspend_resume events, 0 if not seen. */
static inline uint64_t phase_us(const struct devpm_sleep_cycle *c,
				enum devpm_pm_phase ph)
{
	const struct devpm_pm_span *s = &c->phase[ph];

	return s->end_us > s->begin_us && s->begin_us ?
	       s->end_us - s->begin_us : 0;
}

/* From dpm_prepare's begin to dpm_suspend_noirq's end (or the last
 * suspend phase seen), and from dpm_resume_noirq's begin to
 * dpm_complete's end. */
static inline uint64_t side_us(const struct devpm_sleep_cycle *c,
			       bool suspend)
{
	int first = suspend ? DEVPM_PH_PREPARE : DEVPM_PH_RESUME_NOIRQ;
	int last = suspend ? DEVPM_PH_SUSPEND_NOIRQ : DEVPM_PH_COMPLETE;
	uint64_t b = 0, e = 0;
	int i;

	for (i = first; i <= last; i++) {
		if (!b && c->phase[i].begin_us)
			b = c->phase[i].begin_us;
		if (c->phase[i].end_us)
			e = c->phase[i].end_us;
	}
	return b && e > b ? e - b : 0;
}

/* The phases the trace saw, "prepare,suspend,..." */
static inline void phases_seen(const struct devpm_sleep_cycle *c, char *buf,
			       size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < DEVPM_PH_NR && used < len; i++)
		if (c->phase[i].begin_us)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "",
					 devpm_pm_phase_name(i));
	if (!buf[0])
		snprintf(buf, len, "none");
}


/*
 * What a cycle was: its pm_test level and state, the write's result, the
 * success count around it, how long it took, the name its TIMELINE lines
 * carry.
 */
struct cycle_meta {
	char level[16];
	char state[16];
	int ret;
	long success_before, success_after;
	unsigned long long wall_us;
	char name[64];
};

/*
 * The cycles of one run of a program, shared by its cases (each case is a
 * child of the harness: getppid() names the run).  In the journal's
 * directory (root's, 0700): <name>.cycle (lib/sleep_trace.h text) and
 * <name>.meta.  Files of runs that are gone are removed when a new one is
 * saved.
 */
static inline int cache_path(const char *name, const char *ext, char *buf,
			     size_t len, char *dir, size_t dlen)
{
	const char *j = getenv("DEVPM_JOURNAL");
	char *slash;

	snprintf(dir, dlen, "%s", j && j[0] == '/' ? j : devpm_journal_dir());
	slash = j && j[0] == '/' ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	return devpm_fmt(buf, len, "%s/async-cycle-%d-%s.%s", dir,
			 (int)getppid(), name, ext);
}

static inline void cache_sweep(const char *dir)
{
	char p[DEVPM_PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	int pid;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "async-cycle-%d-", &pid) != 1 ||
		    pid <= 0 || pid == getppid() || !kill(pid, 0) ||
		    errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
}

/* A new file of ours (O_EXCL, no symlink), or NULL. */
static inline FILE *cache_create(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f && fd >= 0)
		close(fd);
	return f;
}

/* Only a file this user wrote and nobody else may write. */
static inline FILE *cache_open(const char *p)
{
	int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

static inline void cache_save(const char *name,
			      const struct devpm_sleep_cycle *c,
			      const struct cycle_meta *m)
{
	char p[DEVPM_PATH_MAX], q[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX];
	FILE *f;
	int bad;

	if (cache_path(name, "cycle", p, sizeof(p), dir, sizeof(dir)) ||
	    cache_path(name, "meta", q, sizeof(q), dir, sizeof(dir)))
		return;
	cache_sweep(dir);
	f = cache_create(p);
	if (!f)
		return;
	bad = devpm_sleep_cycle_save(c, f);
	if (fclose(f) || bad) {
		unlink(p);
		return;
	}
	f = cache_create(q);
	if (!f) {
		unlink(p);
		return;
	}
	fprintf(f, "%s %s %d %ld %ld %llu %s\n", m->level, m->state, m->ret,
		m->success_before, m->success_after, m->wall_us, m->name);
	if (fclose(f)) {
		unlink(p);
		unlink(q);
	}
}

/* 0 with c (and m, if not NULL) filled, else -1: run the cycle. */
static inline int cache_load(const char *name, struct devpm_sleep_cycle *c,
			     struct cycle_meta *m)
{
	char p[DEVPM_PATH_MAX], q[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX];
	struct cycle_meta mm;
	FILE *f;
	int n;

	memset(c, 0, sizeof(*c));
	if (cache_path(name, "cycle", p, sizeof(p), dir, sizeof(dir)) ||
	    cache_path(name, "meta", q, sizeof(q), dir, sizeof(dir)))
		return -1;
	f = cache_open(q);
	if (!f)
		return -1;
	memset(&mm, 0, sizeof(mm));
	n = fscanf(f, "%15s %15s %d %ld %ld %llu %63s", mm.level, mm.state,
		   &mm.ret, &mm.success_before, &mm.success_after,
		   &mm.wall_us, mm.name);
	fclose(f);
	if (n != 7)
		return -1;
	f = cache_open(p);
	if (!f)
		return -1;
	n = devpm_sleep_cycle_load(f, c);
	fclose(f);
	if (n)
		return -1;
	if (m)
		*m = mm;
	return 0;
}

#endif
