// SPDX-License-Identifier: GPL-2.0-only
/* util.c - allocation, arrays, text cleaning and files for the runner. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util.h"

static void oom(void)
{
	fprintf(stderr, "devpm: out of memory\n");
	exit(RN_EXIT_USAGE);
}

void *rn_xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *rn_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *rn_xstrdup(const char *s)
{
	return rn_xstrndup(s ? s : "", strlen(s ? s : ""));
}

char *rn_xstrndup(const char *s, size_t n)
{
	char *p = rn_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *rn_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	va_end(ap);
	return p;
}

void rn_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
	char **a = arr;
	size_t ncap;

	if (n < *cap)
		return;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap <= n)
		ncap *= 2;
	*a = rn_xrealloc(*a, ncap * sz);
	memset(*a + *cap * sz, 0, (ncap - *cap) * sz);
	*cap = ncap;
}

void rn_strv_push(char ***v, size_t *n, const char *s)
{
	*v = rn_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = rn_xstrdup(s);
}

void rn_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool rn_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Reject overlong forms, surrogates and code points past U+10FFFF. */
	c = s[1];
	if (n == 3 && ((s[0] == 0xe0 && c < 0xa0) ||
		       (s[0] == 0xed && c >= 0xa0)))
		return 0;
	if (n == 4 && ((s[0] == 0xf0 && c < 0x90) ||
		       (s[0] == 0xf4 && c >= 0x90)))
		return 0;
	return n;
}

char *rn_clean_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = rn_xmalloc(strlen(s) + 1), *o = out;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (n == 1 && (*p < 0x20 || *p == 0x7f) && *p != '\t') {
			*o++ = '?';
			p++;
		} else if (n == 0) {
			*o++ = '?';
			p++;
		} else {
			memcpy(o, p, n);
			o += n;
			p += n;
		}
	}
	*o = '\0';
	return out;
}

int rn_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("devpm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RN_EXIT_USAGE;
}

uint64_t rn_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

char *rn_read_file(const char *path, size_t *len)
{
	size_t n = 0, cap = 4096;
	char *buf;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = rn_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = rn_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int rn_write_all(int fd, const char *buf, size_t len)
{
	size_t off = 0;
	ssize_t w;
	int err = 0;

	while (off < len) {
		w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = -errno;
			break;
		}
		off += w;
	}
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

/* Why rn_write_file() failed (util.c links without libdevpm). */
static char write_why[600];

static int write_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int write_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(write_why, sizeof(write_why), fmt, ap);
	va_end(ap);
	return -err;
}

const char *rn_write_file_why(void)
{
	return write_why;
}

/*
 * As root, write only into a directory root owns that nobody else can
 * write (sticky excepted: others cannot replace our names there), as
 * rn_run_dir() asks of a run directory.
 */
static int dir_ok(int dfd, const char *dir)
{
	struct stat st;

	if (fstat(dfd, &st) < 0)
		return write_fail(errno, "%s: %s", dir, strerror(errno));
	if (geteuid() != 0)
		return 0;
	if (st.st_uid != 0)
		return write_fail(EPERM, "%s belongs to uid %u; as root devpm writes only into a directory root owns: chown root it",
				  dir, (unsigned int)st.st_uid);
	if ((st.st_mode & 0022) && !(st.st_mode & S_ISVTX))
		return write_fail(EPERM, "%s is writable by others (mode %04o); chmod go-w it",
				  dir, (unsigned int)(st.st_mode & 07777));
	return 0;
}

/*
 * name in dfd, not followed: absent (1), a file of ours nobody else can
 * write with one link (0), else refused (-EPERM, -ELOOP for a link).
 */
static int name_ok(int dfd, const char *dir, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : write_fail(errno, "%s/%s: %s",
							dir, name,
							strerror(errno));
	if (S_ISLNK(st.st_mode))
		return write_fail(ELOOP, "%s/%s is a symlink; remove it", dir,
				  name);
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1 || (st.st_mode & 0022))
		return write_fail(EPERM, "%s/%s is not a file of uid %u with one link that only it can write; remove it",
				  dir, name, (unsigned int)geteuid());
	return 0;
}

/* Create name in dfd, never through a link or over a file. */
static int create_at(int dfd, const char *dir, const char *name)
{
	int fd, r;

	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd >= 0 || errno != EEXIST)
		return fd >= 0 ? fd : write_fail(errno, "%s/%s: %s", dir,
						 name, strerror(errno));
	/* Left by a killed writer: ours to remove; a link or theirs: not. */
	r = name_ok(dfd, dir, name);
	if (r < 0)
		return r;
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		return write_fail(errno, "%s/%s: %s", dir, name,
				  strerror(errno));
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	return fd >= 0 ? fd : write_fail(errno, "%s/%s: %s", dir, name,
					 strerror(errno));
}

int rn_write_file(const char *path, const char *buf, size_t len)
{
	char dir[4096], tmp[4096];
	const char *base = strrchr(path, '/');
	int dfd, fd, err;

	write_why[0] = '\0';
	if (strlen(path) + 5 > sizeof(tmp))
		return write_fail(ENAMETOOLONG, "%.200s...: path too long",
				  path);
	if (!base)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 base == path ? 1 : (int)(base - path), path);
	base = base ? base + 1 : path;
	if (!base[0])
		return write_fail(EINVAL, "%s: not a file name", path);
	snprintf(tmp, sizeof(tmp), "%s.tmp", base);
	/* The directory as named (results/latest is a link); its files not. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return write_fail(errno, "%s: %s", dir, strerror(errno));
	err = dir_ok(dfd, dir);
	if (!err)
		err = name_ok(dfd, dir, base);
	if (err < 0)
		goto out;
	fd = create_at(dfd, dir, tmp);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	err = rn_write_all(fd, buf, len);
	if (err)
		write_fail(-err, "%s/%s: %s", dir, tmp, strerror(-err));
	else if (renameat(dfd, tmp, dfd, base) < 0)
		err = write_fail(errno, "%s: %s", path, strerror(errno));
	if (err)
		unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return err < 0 ? err : 0;
}

void rn_buf_addn(struct rn_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = b->cap ? b->cap : 256;
		while (b->len + n + 1 > b->cap)
			b->cap *= 2;
		b->s = rn_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rn_buf_add(struct rn_buf *b, const char *s)
{
	rn_buf_addn(b, s, strlen(s));
}

void rn_buf_printf(struct rn_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	rn_buf_addn(b, p, n);
	free(p);
}

void rn_buf_free(struct rn_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
