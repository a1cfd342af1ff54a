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

/*
 * Room for 8, then doubled at each power of two: linear in the pushes
 * (a realloc of one more each time copies the array each time, as under
 * ASan, and a stream of 20k CASE records took seconds).
 */
void rn_strv_push(char ***v, size_t *n, const char *s)
{
	if (!*n || (*n >= 8 && !(*n & (*n - 1))))
		*v = rn_xrealloc(*v, (*n ? 2 * *n : 8) * sizeof(**v));
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
	struct stat st;
	char *buf;
	ssize_t r;
	int fd, err;

	/* O_NONBLOCK: a FIFO put in the file's place does not block open. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	err = fstat(fd, &st) ? errno : !S_ISREG(st.st_mode) ? EINVAL :
	      st.st_size > RN_READ_MAX ? EFBIG : 0;
	if (err) {
		close(fd);
		errno = err;
		return NULL;
	}
	buf = rn_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = rn_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		/* Grown past the bound while read: no end in sight. */
		if (r > 0 && n + r > RN_READ_MAX) {
			r = -1;
			errno = EFBIG;
		}
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

const char *rn_read_error(int err)
{
	if (err == EINVAL)
		return "not a regular file (a FIFO, a device or a directory)";
	if (err == EFBIG)
		return "larger than the " RN_READ_MAX_TEXT " devpm reads";
	return strerror(err);
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
