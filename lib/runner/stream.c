// SPDX-License-Identifier: GPL-2.0-only
/* stream.c - the record stream: write, feed the model, read back (stream.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_trust.h"
#include "core/kmsg.h"
#include "parse.h"
#include "plan.h"
#include "stream.h"
#include "util.h"

static struct rn_prog *cur_prog(struct rn_run *r)
{
	return r->cur >= 0 ? &r->progs[r->cur] : NULL;
}

/* "<mono_us> rest": the timestamp and where the rest starts. */
static const char *ts_field(const char *s, uint64_t *ts)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*ts = strtoull(s, &end, 10);
	if (errno || (*end && *end != ' '))
		return NULL;
	return *end ? end + 1 : end;
}

static void reset(struct rn_run *r)
{
	struct rn_run *old = rn_run_new(), tmp;

	/* Swap, so that old holds what r held, and free that. */
	tmp = *r;
	*r = *old;
	*old = tmp;
	r->bad_records = old->bad_records;
	r->first_bad = old->first_bad;
	old->first_bad = NULL;
	rn_run_free(old);
}

static int bad(struct rn_run *r, const char *rec)
{
	if (!r->bad_records++)
		r->first_bad = rn_xstrndup(rec, strnlen(rec, 200));
	return -1;
}

/*
 * A name as every result file can hold it: what rn_clean_text()
 * makes of it (a control character or bad UTF-8 becomes '?'), in place.
 */
static void clean_name(char *name)
{
	char *c = rn_clean_text(name);

	/* Cleaning never lengthens: one '?' per byte at most. */
	snprintf(name, strlen(name) + 1, "%s", c);
	free(c);
}

static int rec_run(struct rn_run *r, const char *s)
{
	char id[64], started[64];
	unsigned long long ts;

	if (sscanf(s, "%63s %63s %llu", id, started, &ts) != 3)
		return -1;
	clean_name(id);
	clean_name(started);
	free(r->run_id);
	r->run_id = rn_xstrdup(id);
	free(r->started);
	r->started = rn_xstrdup(started);
	r->start_us = r->last_us = ts;
	return 0;
}

static int rec_prog(struct rn_run *r, const char *s)
{
	char name[512], *slash;
	struct rn_prog *p;
	uint64_t ts;
	int timeout;

	s = ts_field(s, &ts);
	if (!s || sscanf(s, "%511s %d", name, &timeout) != 2)
		return -1;
	clean_name(name);
	slash = strchr(name, '/');
	if (!slash || slash == name || !slash[1] || strchr(slash + 1, '/'))
		return -1;
	*slash = '\0';
	/* A program without END before a new PROG: the runner died. */
	if (cur_prog(r))
		rn_parse_end(cur_prog(r), r->last_us, NULL, NULL);
	rn_plan_started(r, name, slash + 1);
	rn_grow(&r->progs, &r->cprogs, r->nprogs, sizeof(*r->progs));
	p = &r->progs[r->nprogs];
	rn_prog_init(p, name, slash + 1, timeout, ts);
	r->cur = r->nprogs++;
	r->last_us = ts;
	return 0;
}

static int rec_end(struct rn_run *r, const char *s)
{
	struct rn_prog *p = cur_prog(r);
	char name[512], want[512], *status;
	long long ms;
	uint64_t ts;
	int n = 0;

	s = ts_field(s, &ts);
	if (!p || !s || sscanf(s, "%511s %lld %n", name, &ms, &n) != 2 || !n)
		return -1;
	clean_name(name);
	snprintf(want, sizeof(want), "%s/%s", p->suite, p->name);
	if (strcmp(name, want) || !s[n])
		return -1;
	status = rn_clean_text(s + n);
	rn_parse_end(p, ts, status, NULL);
	/* Skipped whole: each case it listed, by name. */
	rn_plan_skip_whole(p, ts);
	free(status);
	r->cur = -1;
	r->last_us = ts;
	return 0;
}

/* Takes ownership of text. */
static void add_problem(struct rn_run *r, char *text)
{
	r->problems = rn_xrealloc(r->problems,
				  (r->nproblems + 1) * sizeof(*r->problems));
	r->problems[r->nproblems++] = text;
}

/* A kernel problem: charge it to what was running. */
static const char *kernel_problem(struct rn_run *r, const char *what)
{
	static char where[600];
	struct rn_prog *p = cur_prog(r);

	if (p)
		return rn_parse_kernel(p, what);
	if (r->nprogs) {
		/* Between programs: the restore after the last one. */
		p = &r->progs[r->nprogs - 1];
		snprintf(where, sizeof(where), "%s/%s", p->suite, p->name);
		if (p->result != RN_FAIL || (p->reason &&
		    rn_starts(p->reason, "kernel: ") &&
		    rn_kernel_better(p->reason, what))) {
			p->result = RN_FAIL;
			free(p->reason);
			p->reason = rn_xasprintf("kernel: %s (after %s ended)",
						 what, p->name);
		}
		return where;
	}
	add_problem(r, rn_xasprintf("kernel: %s (before any test program)",
				    what));
	return "";
}

static void klog_add(struct rn_run *r, uint64_t ts, const char *text,
		     bool isbad)
{
	struct rn_prog *p = cur_prog(r);
	struct rn_case *c = p ? rn_prog_open_case(p) : NULL;
	struct rn_klog *k;

	rn_grow(&r->klog, &r->cklog, r->nklog, sizeof(*r->klog));
	k = &r->klog[r->nklog++];
	k->ts_us = ts;
	k->text = rn_xstrdup(text);
	k->bad = isbad;
	if (c)
		k->where = rn_xasprintf("%s/%s/%s", p->suite, p->name,
					c->name);
	else if (p)
		k->where = rn_xasprintf("%s/%s", p->suite, p->name);
	else
		k->where = rn_xstrdup("");
}

static int rec_kmsg(struct rn_run *r, const char *s)
{
	bool isbad;
	uint64_t ts;
	char *text;

	s = ts_field(s, &ts);
	if (!s)
		return -1;
	text = rn_clean_text(s);
	isbad = devpm_kmsg_is_bad(text);
	klog_add(r, ts, text, isbad);
	if (isbad)
		kernel_problem(r, text);
	free(text);
	r->last_us = ts;
	return 0;
}

static int rec_taint(struct rn_run *r, const char *s)
{
	uint64_t ts;
	char *what, *flags;

	s = ts_field(s, &ts);
	if (!s || !*s)
		return -1;
	flags = rn_clean_text(s);
	what = rn_xasprintf("new taint %s", flags);
	klog_add(r, ts, what, true);
	kernel_problem(r, what);
	free(what);
	free(flags);
	r->last_us = ts;
	return 0;
}

static int rec_out(struct rn_run *r, const char *s)
{
	struct rn_prog *p = cur_prog(r);
	uint64_t ts;
	char *line;

	s = ts_field(s, &ts);
	if (!p || !s)
		return -1;
	line = rn_clean_text(s);
	rn_parse_line(p, ts, line);
	free(line);
	r->last_us = ts;
	return 0;
}

static int rec_env(struct rn_run *r, const char *s)
{
	const char *eq = strchr(s, '=');
	char *key, *val;

	if (!eq || eq == s)
		return -1;
	key = rn_xstrndup(s, eq - s);
	val = rn_clean_text(eq + 1);
	rn_env_set(r, key, val);
	free(key);
	free(val);
	return 0;
}

static int rec_done(struct rn_run *r, const char *s)
{
	const char *why;
	uint64_t ts;

	s = ts_field(s, &ts);
	if (!s || sscanf(s, "%d", &r->done_code) != 1)
		return -1;
	if (cur_prog(r))
		rn_parse_end(cur_prog(r), ts, NULL, NULL);
	r->cur = -1;
	r->done = true;
	r->end_us = r->last_us = ts;
	/* The runner stopped early: run.c says why (RN_ENV_STOPPED). */
	why = rn_env_get(r, RN_ENV_STOPPED);
	rn_plan_unrun(r, ts, why && why[0] ? why :
		      "the run ended before this program");
	return 0;
}

int rn_stream_feed(struct rn_run *r, const char *rec)
{
	struct rn_prog *p = cur_prog(r);
	int ret = -1;

	if (!strcmp(rec, RN_STREAM_HEADER)) {
		if (r->header_seen)
			reset(r);
		r->header_seen = true;
		return 0;
	}
	if (!r->header_seen)
		return bad(r, rec);
	if (rn_starts(rec, "OUT "))
		ret = rec_out(r, rec + 4);
	else if (rn_starts(rec, "KMSG "))
		ret = rec_kmsg(r, rec + 5);
	else if (rn_starts(rec, "TAINT "))
		ret = rec_taint(r, rec + 6);
	else if (rn_starts(rec, "PROG "))
		ret = rec_prog(r, rec + 5);
	else if (rn_starts(rec, "END "))
		ret = rec_end(r, rec + 4);
	else if (rn_starts(rec, "CASE ") && p && rec[5]) {
		/* A case that never runs is named in the results as listed. */
		char *t = rn_clean_text(rec + 5);

		rn_strv_push(&p->listed, &p->nlisted, t);
		free(t);
		ret = 0;
	} else if (rn_starts(rec, "NOTE ") && p) {
		char *t = rn_clean_text(rec + 5);

		rn_strv_push(&p->notes, &p->nnotes, t);
		free(t);
		ret = 0;
	} else if (rn_starts(rec, "PLAN ")) {
		ret = rn_plan_record(r, rec + 5);
	} else if (rn_starts(rec, "ENV "))
		ret = rec_env(r, rec + 4);
	else if (rn_starts(rec, "RUN "))
		ret = rec_run(r, rec + 4);
	else if (rn_starts(rec, "DONE "))
		ret = rec_done(r, rec + 5);
	else if (rn_starts(rec, "TIMELINE "))
		ret = 0;	/* a failed case's, for the report (timeline.c) */
	return ret ? bad(r, rec) : 0;
}

void rn_stream_finish(struct rn_run *r, const char *crash_line)
{
	struct rn_prog *p = cur_prog(r);
	char *crash, *why;

	if (r->done)
		return;
	/* A console line: as unclean as any the guest printed. */
	crash = crash_line ? rn_clean_text(crash_line) : NULL;
	r->incomplete = true;
	if (p) {
		why = rn_xasprintf("the run ended during %s/%s (%s)", p->suite,
				   p->name, crash && crash[0] ? crash :
				   "the machine stopped responding");
		rn_parse_end(p, r->last_us, NULL, crash);
		r->cur = -1;
	} else {
		why = rn_xasprintf("the run ended before this program (%s)",
				   crash && crash[0] ? crash :
				   "the stream ended without DONE");
		add_problem(r, crash && crash[0] ?
			    rn_xasprintf("run incomplete: guest crashed between programs: %s",
					 crash) :
			    rn_xstrdup("run incomplete: the stream ended without DONE"));
	}
	rn_plan_unrun(r, r->last_us, why);
	free(why);
	free(crash);
	r->end_us = r->last_us;
}

int rn_stream_read(const char *path, struct rn_run *r, char *err, size_t len)
{
	char *text, *line, *next;
	size_t n, end;
	int e;

	/* A regular file of bounded size: never a FIFO, never /dev/zero. */
	text = rn_read_file(path, &n);
	if (!text) {
		e = errno;
		snprintf(err, len, "%s: %s", path, rn_read_error(e));
		return -e;
	}
	for (line = text; line < text + n; line = next) {
		next = memchr(line, '\n', text + n - line);
		end = next ? (size_t)(next - line) : (size_t)(text + n - line);
		next = next ? next + 1 : text + n;
		while (end && line[end - 1] == '\r')
			end--;
		line[end] = '\0';
		/* A NUL inside a record (a garbled serial line) ends it. */
		rn_stream_feed(r, line);
	}
	free(text);
	if (!r->header_seen) {
		snprintf(err, len, "%s: not a devpm stream (no '%s' line)",
			 path, RN_STREAM_HEADER);
		return -EINVAL;
	}
	return 0;
}

static void emit_fd(struct rn_stream *s, int i, const char *buf, size_t len)
{
	size_t off = 0;
	ssize_t w;

	while (off < len) {
		w = write(s->fd[i], buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			fprintf(stderr, "devpm: writing stream to %s: %s; it is incomplete\n",
				s->path[i], strerror(errno));
			close(s->fd[i]);
			s->fd[i] = -1;
			return;
		}
		off += w;
	}
}

void rn_stream_emit(struct rn_stream *s, const char *fmt, ...)
{
	va_list ap;
	char *rec, *p;
	size_t len;
	int i;

	va_start(ap, fmt);
	if (vasprintf(&rec, fmt, ap) < 0)
		rec = NULL;
	va_end(ap);
	if (!rec) {
		fprintf(stderr, "devpm: out of memory\n");
		exit(RN_EXIT_USAGE);
	}
	/* One record, one line, whatever a program printed. */
	for (p = rec; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	len = p - rec;
	rec = rn_xrealloc(rec, len + 2);
	rec[len] = '\n';
	for (i = 0; i < s->nfd; i++)
		if (s->fd[i] >= 0)
			emit_fd(s, i, rec, len + 1);
	rec[len] = '\0';
	if (s->run)
		rn_stream_feed(s->run, rec);
	free(rec);
}

int rn_stream_open(const char *path)
{
	int fd;

	fd = devpm_path_trust_open_file(path, O_WRONLY | O_CREAT | O_APPEND,
					0644, DEVPM_TRUST_CHARDEV);
	if (fd < 0)
		fprintf(stderr, "devpm: --stream %.200s: %s; give a regular file or a serial port%s\n",
			path, devpm_error(), devpm_path_trust_strict() ?
			" on a path that only root owns and can write" : "");
	return fd;
}
