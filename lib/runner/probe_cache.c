// SPDX-License-Identifier: GPL-2.0-only
/* probe_cache.c - recorded --list/--needs answers (probe_cache.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe_cache.h"
#include "write_file.h"

/*
 * FNV-1a over 64-bit words (then the tail bytes): a change detector, not
 * a defence (whoever can change the cache can change the programs), and
 * eight times fewer steps than bytewise FNV, which counts under TCG.
 */
static uint64_t hash_words(const unsigned char *p, size_t len, uint64_t h)
{
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

int rn_probe_hash(const char *path, uint64_t *size, uint64_t *hash)
{
	static unsigned char buf[1 << 16];
	uint64_t h = 0xcbf29ce484222325ULL, n = 0;
	size_t have = 0;
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		r = read(fd, buf + have, sizeof(buf) - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		have += r;
		n += r;
		/* Whole buffers only, so words never straddle two reads. */
		if (r && have < sizeof(buf))
			continue;
		h = hash_words(buf, have, h);
		have = 0;
		if (!r)
			break;
	}
	close(fd);
	*size = n;
	*hash = h;
	return err;
}

static struct rn_progspec *find(struct rn_progspec *p, size_t n,
				const char *name)
{
	const char *slash = strchr(name, '/');
	size_t i, ls;

	if (!slash)
		return NULL;
	ls = slash - name;
	for (i = 0; i < n; i++)
		if (strlen(p[i].suite) == ls &&
		    !strncmp(p[i].suite, name, ls) &&
		    !strcmp(p[i].name, slash + 1))
			return &p[i];
	return NULL;
}

/* The cache is read only when no other user could have written it. */
static char *read_trusted(const char *path)
{
	struct stat st;
	char *text;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT)
			fprintf(stderr, "devpm: ignoring %s: %s; the programs are asked instead\n",
				path, errno == ELOOP ? "a symlink" :
				strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 022) || (st.st_uid && st.st_uid != geteuid())) {
		fprintf(stderr, "devpm: ignoring %s: not a regular file of yours or root's, or writable by others; the programs are asked instead\n",
			path);
		close(fd);
		return NULL;
	}
	close(fd);
	text = rn_read_file(path, NULL);
	return text;
}

/* The entry read so far becomes cur's answers. */
static void finish(struct rn_progspec *cur, struct rn_buf *list,
		   struct rn_buf *needs)
{
	if (cur) {
		cur->cache_list = rn_xstrdup(list->s ? list->s : "");
		cur->cache_needs = rn_xstrdup(needs->s ? needs->s : "");
	}
	rn_buf_free(list);
	rn_buf_free(needs);
}

void rn_probe_cache_attach(const char *dir, struct rn_progspec *p, size_t n)
{
	struct rn_progspec *cur = NULL;
	char path[PATH_MAX], name[PATH_MAX], *text, *line, *save = NULL;
	struct rn_buf list = { 0 }, needs = { 0 };
	unsigned long long size, hash;

	snprintf(path, sizeof(path), "%s/%s", dir, RN_PROBE_CACHE_FILE);
	text = read_trusted(path);
	if (!text)
		return;
	line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, RN_PROBE_CACHE_HEADER)) {
		free(text);
		return;
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (line[0] == 'P') {
			finish(cur, &list, &needs);
			cur = NULL;
			if (sscanf(line, "P %4095s %llu %llx", name, &size,
				   &hash) != 3)
				break;	/* garbage: keep what came before */
			cur = find(p, n, name);
			/* Recorded twice: the first counts. */
			if (cur && cur->cache_list)
				cur = NULL;
			if (cur) {
				cur->cache_size = size;
				cur->cache_hash = hash;
			}
		} else if (cur && rn_starts(line, "L ")) {
			rn_buf_printf(&list, "%s\n", line + 2);
		} else if (cur && rn_starts(line, "N ")) {
			rn_buf_printf(&needs, "%s\n", line + 2);
		}
	}
	finish(cur, &list, &needs);
	free(text);
}

char *rn_probe_cache_get(struct rn_progspec *p, const char *opt)
{
	const char *ans = !strcmp(opt, "--list") ? p->cache_list :
			  p->cache_needs;
	uint64_t size, hash;

	if (!ans)
		return NULL;
	if (!p->cache_state)
		p->cache_state = !rn_probe_hash(p->path, &size, &hash) &&
				 size == p->cache_size &&
				 hash == p->cache_hash ? 1 : -1;
	return p->cache_state > 0 ? rn_xstrdup(ans) : NULL;
}

static void add_lines(struct rn_buf *b, char tag, const char *text)
{
	const char *s = text, *nl;

	while (*s) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		rn_buf_printf(b, "%c %.*s\n", tag, (int)(nl - s), s);
		s = *nl ? nl + 1 : nl;
	}
}

int rn_probe_cache_write(const char *dir, struct rn_progspec *p, size_t n,
			 char *(*query)(struct rn_progspec *p,
					const char *opt, char **error))
{
	struct rn_buf b = { 0 };
	char path[PATH_MAX], *list, *needs, *err;
	uint64_t size, hash;
	int k = 0, r;
	size_t i;

	/* The answers of the whole program, as a run without a glob. */
	unsetenv("DEVPM_TEST_GLOB");
	rn_buf_printf(&b, "%s\n", RN_PROBE_CACHE_HEADER);
	for (i = 0; i < n; i++) {
		if (rn_probe_hash(p[i].path, &size, &hash) < 0)
			continue;
		list = query(&p[i], "--list", &err);
		free(err);
		needs = list ? query(&p[i], "--needs", &err) : NULL;
		if (list && !needs)
			free(err);
		if (list && needs) {
			rn_buf_printf(&b, "P %s/%s %" PRIu64 " %016" PRIx64 "\n",
				      p[i].suite, p[i].name, size, hash);
			add_lines(&b, 'L', list);
			add_lines(&b, 'N', needs);
			k++;
		}
		free(list);
		free(needs);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, RN_PROBE_CACHE_FILE);
	r = rn_write_file(path, b.s, b.len);
	rn_buf_free(&b);
	return r < 0 ? r : k;
}
