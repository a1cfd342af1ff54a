/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unit.h - helpers for the unit tests: a fake sysfs root built in a temp
 * directory by the test itself, and capture of what a call prints.
 * Paths given as "rel" are relative to the fake root ("sys/devices/...").
 */
#ifndef DEVPM_UNIT_H
#define DEVPM_UNIT_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define UNIT_PATH_MAX 1024

/* A fresh /tmp/devpm-unit-XXXXXX (or under $TMPDIR); 0 or -errno. */
static inline int unit_mkdtemp(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, len, "%s/devpm-unit-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	return mkdtemp(buf) ? 0 : -errno;
}

/*
 * The line that opens a journal whose records lie below the tree root
 * (lib/state/journal.h): "R <root>\t<dev>:<ino>\n"; "R /\n" for the real
 * system (root NULL or "").  In a static buffer.
 */
static inline const char *unit_journal_header(const char *root)
{
	static char buf[UNIT_PATH_MAX + 64];
	struct stat st;

	if (!root || !root[0])
		return "R /\n";
	if (stat(root, &st))
		return "R (no such root)\n";
	snprintf(buf, sizeof(buf), "R %s\t%llu:%llu\n", root,
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	return buf;
}

/* mkdir -p of root/rel. */
static inline int unit_mkdir(const char *root, const char *rel)
{
	char p[UNIT_PATH_MAX];
	char *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Parent directory of root/rel, made if missing. */
static inline int unit_mkparent(const char *root, const char *rel)
{
	char d[UNIT_PATH_MAX];
	char *slash;

	snprintf(d, sizeof(d), "%s", rel);
	slash = strrchr(d, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return unit_mkdir(root, d);
}

/* Write content to root/rel (parents made), replacing what was there. */
static inline int unit_put(const char *root, const char *rel,
			   const char *content)
{
	char p[UNIT_PATH_MAX];
	FILE *f;
	int r;

	r = unit_mkparent(root, rel);
	if (r)
		return r;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f)
		return -errno;
	fputs(content, f);
	return fclose(f) ? -errno : 0;
}

/* The whole of root/rel (rel may be absolute when root is ""). */
static inline int unit_get(const char *root, const char *rel, char *buf,
			   size_t len)
{
	char p[UNIT_PATH_MAX];
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s%s", root, root[0] ? "/" : "", rel);
	f = fopen(p, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* root/rel -> target (a relative target, as sysfs has them). */
static inline int unit_link(const char *root, const char *rel,
			    const char *target)
{
	char p[UNIT_PATH_MAX];
	int r;

	r = unit_mkparent(root, rel);
	if (r)
		return r;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return symlink(target, p) ? -errno : 0;
}

static inline bool unit_exists(const char *root, const char *rel)
{
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return access(p, F_OK) == 0;
}

static inline int unit__rm(const char *path, const struct stat *st, int flag,
			   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

static inline void unit_rm_rf(const char *dir)
{
	if (dir && dir[0])
		nftw(dir, unit__rm, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Capture what is written to fd (1 or 2) between begin and end:
 *	int saved = unit_capture_begin(2, file);
 *	... call ...
 *	unit_capture_end(2, saved, file, buf, sizeof(buf));
 */
static inline int unit_capture_begin(int fd, const char *file)
{
	int saved, f;

	fflush(fd == 1 ? stdout : stderr);
	saved = dup(fd);
	f = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (saved < 0 || f < 0)
		return -1;
	dup2(f, fd);
	close(f);
	return saved;
}

static inline void unit_capture_end(int fd, int saved, const char *file,
				    char *buf, size_t len)
{
	fflush(fd == 1 ? stdout : stderr);
	if (saved >= 0) {
		dup2(saved, fd);
		close(saved);
	}
	if (unit_get("", file, buf, len))
		buf[0] = '\0';
}

/* Block until the pipe gives one byte (a child says it is ready). */
static inline bool unit_wait_ready(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

/* Substring checks with the strings in the log (after the harness). */
#define ASSERT_HAS(hay, needle) do { \
	const char *__h = (hay), *__n = (needle); \
	if (!strstr(__h, __n)) { \
		TH_LOG("'%s' does not contain '%s'", __h, __n); \
		ASSERT_TRUE(0); \
	} \
} while (0)

#define ASSERT_HASNT(hay, needle) do { \
	const char *__h = (hay), *__n = (needle); \
	if (strstr(__h, __n)) { \
		TH_LOG("'%s' contains '%s'", __h, __n); \
		ASSERT_TRUE(0); \
	} \
} while (0)

#endif
