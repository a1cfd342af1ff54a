// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_record.c - the run's record of what its cases judged (run_record.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/run_record.h"
#include "core/sysfs.h"
#include "judge/baseline.h"

static char suite[32], program[64], curcase[96], who[256];
static char forced[PATH_MAX];
static bool have_forced;

void devpm_run_record_program(const char *s, const char *p)
{
	const char *slash = p ? strrchr(p, '/') : NULL;
	const char *base = slash ? slash + 1 : p;

	snprintf(suite, sizeof(suite), "%s", s ? s : "");
	snprintf(program, sizeof(program), "%s", base ? base : "");
}

void devpm_run_record_case(const char *name)
{
	snprintf(curcase, sizeof(curcase), "%s", name ? name : "");
}

const char *devpm_run_record_who(void)
{
	const char *s = suite[0] ? suite : "?";
	const char *p = program[0] ? program : "?";

	if (curcase[0])
		snprintf(who, sizeof(who), "%s/%s/%s", s, p, curcase);
	else
		snprintf(who, sizeof(who), "%s/%s", s, p);
	return who;
}

void devpm_run_record_path(const char *path)
{
	have_forced = path != NULL;
	snprintf(forced, sizeof(forced), "%s", path ? path : "");
}

/* The run's file beside the baseline; -ENOENT when there is none. */
static int record_path(char *buf, size_t len)
{
	const char *b = getenv(DEVPM_BASELINE_ENV);
	const char *slash;

	if (have_forced)
		return devpm_fmt(buf, len, "%s", forced);
	if (!b || b[0] != '/')
		return -ENOENT;
	slash = strrchr(b, '/');
	return devpm_fmt(buf, len, "%.*s/%s", (int)(slash - b), b,
			 DEVPM_RUN_RECORD_FILE);
}

/* A file of this user that nobody else may write, or -EPERM. */
static int trusted(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

static void clean(char *dst, size_t len, const char *src)
{
	char *p;

	snprintf(dst, len, "%s", src && src[0] ? src : "-");
	for (p = dst; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
}

int devpm_run_record(const char *kind, const char *const *fields,
		     size_t n)
{
	char path[PATH_MAX], line[1024], f[256];
	size_t i, at;
	ssize_t w;
	int fd, r;

	r = record_path(path, sizeof(path));
	if (r)
		return r;
	clean(f, sizeof(f), kind);
	at = snprintf(line, sizeof(line), "%s", f);
	for (i = 0; i < n && at < sizeof(line); i++) {
		clean(f, sizeof(f), fields[i]);
		at += snprintf(line + at, sizeof(line) - at, "\t%s", f);
	}
	clean(f, sizeof(f), devpm_run_record_who());
	if (at < sizeof(line))
		at += snprintf(line + at, sizeof(line) - at, "\t%s\n", f);
	if (at >= sizeof(line))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	r = trusted(fd);
	if (!r) {
		w = write(fd, line, at);
		r = w == (ssize_t)at ? 0 : -EIO;
	}
	close(fd);
	return r;
}

int devpm_run_records(int (*fn)(void *arg, char **f, int n), void *arg)
{
	char path[PATH_MAX], line[1024], *f[DEVPM_RUN_RECORD_FIELDS], *s;
	FILE *fp;
	int fd, n, r;

	r = record_path(path, sizeof(path));
	if (r)
		return r;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = trusted(fd);
	fp = r ? NULL : fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return r ? r : -errno;
	}
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		for (n = 0, s = line; n < DEVPM_RUN_RECORD_FIELDS && s; n++) {
			f[n] = s;
			s = strchr(s, '\t');
			if (s)
				*s++ = '\0';
		}
		if (n < 2)
			continue;
		if (fn(arg, f, n))
			break;
	}
	fclose(fp);
	return 0;
}

struct find {
	const char *kind, *dev;
	char *who;
	size_t len;
	bool found;
};

static int find_one(void *arg, char **f, int n)
{
	struct find *x = arg;

	if (strcmp(f[0], x->kind) || strcmp(f[1], x->dev))
		return 0;
	x->found = true;
	if (x->who && x->len)
		snprintf(x->who, x->len, "%s", f[n - 1]);
	return 1;
}

bool devpm_run_record_find(const char *kind, const char *dev, char *who,
			   size_t len)
{
	struct find x = { kind, dev, who, len, false };

	if (who && len)
		who[0] = '\0';
	devpm_run_records(find_one, &x);
	return x.found;
}
