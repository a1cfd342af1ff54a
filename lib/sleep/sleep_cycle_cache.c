// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_cycle_cache.c - the traced sleep cycles a program's cases share
 * (sleep_cycle_cache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleep/sleep_cycle_cache.h"
#include "core/path_trust.h"
#include "core/sysfs.h"
#include "state/journal.h"
#include "trace/pm_print_times.h"
#include "trace/sleep_trace.h"

static int cache_path(const char *name, const char *ext, char *buf,
		      size_t len, char *dir, size_t dlen)
{
	/* As root, only a journal path root alone can change (path_trust.h). */
	const char *j = devpm_path_trust_env("DEVPM_JOURNAL");
	char *slash;

	snprintf(dir, dlen, "%s", j && j[0] == '/' ? j : devpm_journal_dir());
	slash = j && j[0] == '/' ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	return devpm_fmt(buf, len, "%s/async-cycle-%d-%s.%s", dir,
			 (int)getppid(), name, ext);
}

/* Remove the files of runs whose harness is gone. */
static void cache_sweep(const char *dir)
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
static FILE *cache_create(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f && fd >= 0)
		close(fd);
	return f;
}

/* Only a file this user wrote and nobody else may write. */
static FILE *cache_open(const char *p)
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

void devpm_sleep_cycle_cache_save(const char *name,
			    const struct devpm_sleep_cycle *c,
			    const struct devpm_sleep_cycle_meta *m)
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

int devpm_sleep_cycle_cache_load(const char *name, struct devpm_sleep_cycle *c,
			   struct devpm_sleep_cycle_meta *m)
{
	char p[DEVPM_PATH_MAX], q[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX];
	struct devpm_sleep_cycle_meta mm;
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

void devpm_pm_prints_cache_save(const char *name,
				const struct devpm_pm_prints *pr,
				unsigned long lost)
{
	char p[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX];
	FILE *f;
	int bad;

	if (cache_path(name, "prints", p, sizeof(p), dir, sizeof(dir)))
		return;
	f = cache_create(p);
	if (!f)
		return;
	fprintf(f, "%lu\n", lost);
	bad = devpm_pm_prints_save(pr, f);
	if (fclose(f) || bad)
		unlink(p);
}

int devpm_pm_prints_cache_load(const char *name, struct devpm_pm_prints *pr,
			       unsigned long *lost)
{
	char p[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX];
	FILE *f;
	int r;

	memset(pr, 0, sizeof(*pr));
	if (cache_path(name, "prints", p, sizeof(p), dir, sizeof(dir)))
		return -1;
	f = cache_open(p);
	if (!f)
		return -1;
	r = fscanf(f, "%lu\n", lost) == 1 ? devpm_pm_prints_load(f, pr) : -1;
	fclose(f);
	return r ? -1 : 0;
}
