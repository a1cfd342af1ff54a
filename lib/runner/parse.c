// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - test program output into the model (parse.h).
 *
 * The harness (Linux 6.1 kselftest_harness.h) prints per case:
 *	#  RUN           fixture[.variant].case ...
 *	    <nested device lines from report.c>
 *	# METRIC <dev|-> <key>=<value>
 *	# file:line:case:<assertion message>		(stderr)
 *	# case: Test failed at step #N			(stderr)
 *	#            OK  fixture.case
 *	ok N fixture.case | ok N # SKIP reason | not ok N fixture.case
 * and a program whose needs are unmet prints "1..0 # SKIP reason", exit 4.
 */
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kmsg.h"
#include "name_index.h"
#include "parse.h"
#include "util.h"

/* Lines kept per case or program for the JUnit log; stream.log has all. */
#define RN_MAX_OUT 2000

void rn_prog_init(struct rn_prog *p, const char *suite, const char *name,
		  int timeout_s, uint64_t start_us)
{
	memset(p, 0, sizeof(*p));
	p->suite = rn_xstrdup(suite);
	p->name = rn_xstrdup(name);
	p->timeout_s = timeout_s;
	p->start_us = start_us;
	p->cur = -1;
	p->plan = -1;
}

struct rn_case *rn_prog_open_case(struct rn_prog *p)
{
	if (p->cur < 0)
		return NULL;
	return &p->cases[p->cur];
}

static void keep_line(char ***v, size_t *n, const char *line)
{
	if (*n < RN_MAX_OUT)
		rn_strv_push(v, n, line);
	else if (*n == RN_MAX_OUT)
		rn_strv_push(v, n, "... (more lines in stream.log)");
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = rn_xstrdup(s);
}

static struct rn_case *new_case(struct rn_prog *p, const char *full,
				uint64_t ts_us)
{
	struct rn_case *c;
	const char *dot = strchr(full, '.');

	rn_grow(&p->cases, &p->ccases, p->ncases, sizeof(*p->cases));
	c = &p->cases[p->ncases];
	memset(c, 0, sizeof(*c));
	c->full = rn_xstrdup(full);
	/* Drop the fixture: "fixture.variant.case" -> "variant.case". */
	c->name = rn_xstrdup(dot && dot[1] ? dot + 1 : full);
	c->start_us = ts_us;
	c->open = true;
	p->cur = p->ncases++;
	return c;
}

/* Close the open case with res; a kernel problem turns it into a failure. */
static void close_case(struct rn_prog *p, struct rn_case *c,
		       enum rn_result res, const char *reason, uint64_t ts_us)
{
	c->result = res;
	set_str(&c->reason, reason ? reason : "");
	if (c->kernel) {
		if (res == RN_FAIL) {
			char *r = rn_xasprintf("%s; %s", c->reason, c->kernel);

			free(c->reason);
			c->reason = r;
		} else {
			c->result = RN_FAIL;
			set_str(&c->reason, c->kernel);
		}
	}
	c->end_us = ts_us;
	c->open = false;
	p->cur = -1;
}

/* Why the case failed, from what it printed: best evidence first. */
static const char *fail_reason(struct rn_case *c, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < c->ndevs; i++) {
		if (c->devs[i].result == RN_FAIL) {
			snprintf(buf, len, "%s: %s", c->devs[i].name,
				 c->devs[i].reason[0] ? c->devs[i].reason :
				 "failed");
			return buf;
		}
	}
	if (c->assert_msg)
		return c->assert_msg;
	if (c->harness_msg)
		return c->harness_msg;
	if (c->step_msg)
		return c->step_msg;
	return "failed";
}

/*
 * "ok N desc # directive" / "not ok N desc".  Returns false if s is not
 * a result line.  *desc and *comment point into a copy the caller frees.
 */
static bool split_result(const char *s, bool *ok, char **copy, char **desc,
			 char **comment)
{
	const char *p;
	char *hash;

	if (rn_starts(s, "ok ")) {
		*ok = true;
		p = s + 3;
	} else if (rn_starts(s, "not ok ")) {
		*ok = false;
		p = s + 7;
	} else {
		return false;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p && *p != ' ')
		return false;
	while (*p == ' ')
		p++;
	if (rn_starts(p, "- "))
		p += 2;
	*copy = rn_xstrdup(p);
	*desc = *copy;
	*comment = NULL;
	if (**copy == '#') {
		*desc = *copy + strlen(*copy);
		*comment = *copy + 1;
	} else {
		hash = strstr(*copy, " # ");
		if (hash) {
			*hash = '\0';
			*comment = hash + 3;
		}
	}
	if (*comment)
		while (**comment == ' ')
			(*comment)++;
	return true;
}

/* "SKIP reason" -> reason; NULL if the comment is no skip directive. */
static const char *skip_directive(const char *comment)
{
	if (!comment || strncasecmp(comment, "SKIP", 4) ||
	    (comment[4] && comment[4] != ' '))
		return NULL;
	comment += 4;
	while (*comment == ' ')
		comment++;
	return comment;
}

static const char *xfail_directive(const char *comment)
{
	if (!comment || strncmp(comment, "XFAIL", 5) ||
	    (comment[5] && comment[5] != ' '))
		return NULL;
	comment += 5;
	while (*comment == ' ')
		comment++;
	return comment;
}

/* A case's own result line. */
static void case_verdict(struct rn_prog *p, uint64_t ts_us, bool ok,
			const char *desc, const char *comment)
{
	struct rn_case *c = rn_prog_open_case(p);
	const char *skip = skip_directive(comment);
	const char *xfail = xfail_directive(comment);
	char buf[512];

	/* A result without RUN: take it as a case of its own. */
	if (!c)
		c = new_case(p, desc[0] ? desc : "unnamed", ts_us);
	if (ok && skip && rn_starts(skip, "XFAIL"))
		close_case(p, c, RN_XFAIL, skip[5] == ' ' ? skip + 6 : "",
			   ts_us);
	else if (ok && skip)
		close_case(p, c, RN_SKIP, skip[0] ? skip :
			   "skipped without a reason", ts_us);
	else if (ok && xfail)
		close_case(p, c, RN_XFAIL, xfail, ts_us);
	else if (ok)
		close_case(p, c, RN_PASS, "", ts_us);
	else
		close_case(p, c, RN_FAIL, fail_reason(c, buf, sizeof(buf)),
			   ts_us);
}

/*
 * A device's result: "ok N dev" after a "# message" line (report.c), or
 * "ok N dev # SKIP reason" ("# SKIP XFAIL reason": an expected failure,
 * the "# " line before it kept as its note); an older "ok N dev # message"
 * still reads.
 */
static void device_line(struct rn_case *c, bool ok, const char *desc,
			const char *comment)
{
	const char *skip = skip_directive(comment);
	const char *msg = comment ? comment : c->dev_note ? c->dev_note : "";
	struct rn_device *d;

	rn_grow(&c->devs, &c->cdevs, c->ndevs, sizeof(*c->devs));
	d = &c->devs[c->ndevs++];
	d->name = rn_xstrdup(desc[0] ? desc : "?");
	if (!ok) {
		d->result = RN_FAIL;
		d->reason = rn_xstrdup(msg);
	} else if (skip) {
		d->result = RN_SKIP;
		if (rn_starts(skip, "XFAIL")) {
			d->result = RN_XFAIL;
			skip += skip[5] == ' ' ? 6 : 5;
		}
		d->reason = rn_xstrdup(skip);
		if (c->dev_note)
			d->note = rn_xstrdup(c->dev_note);
	} else {
		d->result = RN_PASS;
		d->reason = rn_xstrdup(msg);
	}
	free(c->dev_note);
	c->dev_note = NULL;
}

/* "# METRIC <dev> <key>=<value>" */
static bool metric_line(struct rn_case *c, const char *s)
{
	char dev[256], key[128];
	const char *eq;
	char *end;
	double v;
	int n = 0;

	if (sscanf(s, "# METRIC %255s %n", dev, &n) != 1 || !n)
		return false;
	s += n;
	eq = strchr(s, '=');
	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(key) ||
	    memchr(s, ' ', eq - s))
		return false;
	memcpy(key, s, eq - s);
	key[eq - s] = '\0';
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !isfinite(v))
		return false;
	rn_grow(&c->metrics, &c->cmetrics, c->nmetrics, sizeof(*c->metrics));
	c->metrics[c->nmetrics].device = rn_xstrdup(dev);
	c->metrics[c->nmetrics].name = rn_xstrdup(key);
	c->metrics[c->nmetrics].value = v;
	c->nmetrics++;
	return true;
}

/* "# file:line:case:message" -> "message (file:line)" */
static bool assert_line(struct rn_case *c, const char *s)
{
	const char *file = s + 2, *p = file, *line, *name, *msg;

	while (*p && *p != ':' && *p != ' ')
		p++;
	if (*p != ':' || p == file)
		return false;
	line = ++p;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ':' || p == line)
		return false;
	name = ++p;
	while (*p && *p != ':' && *p != ' ')
		p++;
	if (*p != ':' || p == name)
		return false;
	msg = p + 1;
	free(c->assert_msg);
	c->assert_msg = rn_xasprintf("%s (%.*s)", msg, (int)(name - 1 - file),
				     file);
	return true;
}

/* "# case: Test ..." printed by the harness after the case's child ended. */
static bool harness_line(struct rn_case *c, const char *s)
{
	const char *p = s + 2;

	while (*p && *p != ':' && *p != ' ')
		p++;
	if (p == s + 2 || !rn_starts(p, ": Test "))
		return false;
	p += 2;
	if (rn_starts(p, "Test failed at step #"))
		set_str(&c->step_msg, p);
	else
		set_str(&c->harness_msg, p);
	return true;
}

/* "#  RUN           name ..." -> name */
static bool run_line(const char *s, char *name, size_t len)
{
	const char *p, *end;

	if (!rn_starts(s, "#  RUN "))
		return false;
	p = s + 7;
	while (*p == ' ')
		p++;
	end = p + strlen(p);
	if (end - p > 4 && !strcmp(end - 4, " ..."))
		end -= 4;
	if (end == p || (size_t)(end - p) >= len)
		return false;
	memcpy(name, p, end - p);
	name[end - p] = '\0';
	return !strchr(name, ' ');
}

static void top_line(struct rn_prog *p, uint64_t ts_us, const char *s)
{
	struct rn_case *c = rn_prog_open_case(p);
	char name[256], *copy, *desc, *comment;
	const char *skip;
	bool ok;
	long n;

	if (!strcmp(s, "TAP version 13") || !strcmp(s, "KTAP version 1")) {
		p->tap_seen = true;
		return;
	}
	if (rn_starts(s, "1..") && sscanf(s, "1..%ld", &n) == 1) {
		p->plan = n;
		comment = strchr(s, '#');
		skip = comment ? skip_directive(comment + 1 +
						strspn(comment + 1, " ")) :
			NULL;
		if (n == 0 && skip)
			set_str(&p->skip_reason, skip[0] ? skip :
				"skipped without a reason");
		return;
	}
	if (run_line(s, name, sizeof(name))) {
		/* The previous case never printed its result. */
		if (c)
			close_case(p, c, RN_FAIL,
				   "no result line before the next case",
				   ts_us);
		c = new_case(p, name, ts_us);
		rn_strv_push(&c->out, &c->nout, s);
		return;
	}
	if (split_result(s, &ok, &copy, &desc, &comment)) {
		if (c)
			keep_line(&c->out, &c->nout, s);
		case_verdict(p, ts_us, ok, desc, comment);
		free(copy);
		return;
	}
	if (!c) {
		keep_line(&p->out, &p->nout, s);
		return;
	}
	keep_line(&c->out, &c->nout, s);
	if (rn_starts(s, "# METRIC ") && metric_line(c, s))
		return;
	if (rn_starts(s, "# ") && !assert_line(c, s))
		harness_line(c, s);
}

static void nested_line(struct rn_prog *p, const char *s, const char *raw)
{
	struct rn_case *c = rn_prog_open_case(p);
	char *copy, *desc, *comment;
	bool ok;

	if (!c) {
		keep_line(&p->out, &p->nout, raw);
		return;
	}
	keep_line(&c->out, &c->nout, raw);
	if (split_result(s, &ok, &copy, &desc, &comment)) {
		device_line(c, ok, desc, comment);
		free(copy);
	} else if (rn_starts(s, "# ") && !rn_starts(s, "# Subtest:")) {
		/* Several lines before one result: keep them all. */
		char *note = c->dev_note ?
			rn_xasprintf("%s; %s", c->dev_note, s + 2) :
			rn_xstrdup(s + 2);

		free(c->dev_note);
		c->dev_note = note;
	}
}

void rn_parse_line(struct rn_prog *p, uint64_t ts_us, const char *line)
{
	const char *s = line;

	while (*s == ' ' || *s == '\t')
		s++;
	if (s != line)
		nested_line(p, s, line);
	else
		top_line(p, ts_us, line);
}

bool rn_kernel_better(const char *have, const char *what)
{
	return !have || devpm_kmsg_bad_rank(what) > devpm_kmsg_bad_rank(have);
}

const char *rn_parse_kernel(struct rn_prog *p, const char *what)
{
	static char where[600];
	struct rn_case *c = rn_prog_open_case(p);

	if (c) {
		snprintf(where, sizeof(where), "%s/%s/%s", p->suite, p->name,
			 c->name);
		if (rn_kernel_better(c->kernel, what)) {
			free(c->kernel);
			c->kernel = rn_xasprintf("kernel: %s (during %s)",
						 what, c->name);
		}
	} else {
		snprintf(where, sizeof(where), "%s/%s", p->suite, p->name);
		if (rn_kernel_better(p->kernel, what)) {
			free(p->kernel);
			p->kernel = rn_xasprintf("kernel: %s (during %s, outside any case)",
						 what, p->name);
		}
	}
	return where;
}

static void prog_fail(struct rn_prog *p, char *reason)
{
	if (p->result != RN_FAIL) {
		p->result = RN_FAIL;
		free(p->reason);
		p->reason = reason;
	} else {
		free(reason);
	}
}

static bool any_failed(const struct rn_prog *p)
{
	size_t i;

	for (i = 0; i < p->ncases; i++)
		if (p->cases[i].result == RN_FAIL)
			return true;
	return false;
}

static const char *signame(int sig)
{
	const char *n = sig > 0 && sig < NSIG ? sigabbrev_np(sig) : NULL;

	return n ? n : "?";
}

/* Program-level outcome of a normal exit with no case open. */
static void exit_status(struct rn_prog *p, int code)
{
	if (p->skip_reason && (code == 4 || code == 0) && !p->ncases) {
		p->result = RN_SKIP;
		set_str(&p->reason, p->skip_reason);
	} else if (code == 4) {
		prog_fail(p, rn_xstrdup("exited with status 4 (skip) without a SKIP reason"));
	} else if (code == 0 && !p->ncases) {
		prog_fail(p, rn_xstrdup("exited 0 without running any case"));
	} else if (code == 1 && !any_failed(p)) {
		prog_fail(p, rn_xstrdup("exited 1 but reported no failing case"));
	} else if (code != 0 && code != 1) {
		prog_fail(p, rn_xasprintf("exited with status %d", code));
	}
}

/*
 * A case's name and each part after a '.' of it ("variant.case": also
 * "case"), as rn_case_listed_ran() matches a listed name against it.
 */
static void index_case(struct rn_name_index *x, const char *name)
{
	const char *dot;

	rn_name_index_put(x, name, 0);
	for (dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.'))
		if (dot[1])
			rn_name_index_put(x, dot + 1, 0);
}

/*
 * The listed cases that never started keep their place in the plan: each
 * becomes a case "not run" (after a crash, a timeout, a kill), so that
 * every consumer counts what was planned.  A program that skipped as a
 * whole ran none of them on purpose.  The note says the same in one line.
 * The names that ran are hashed once: linear in the cases, not quadratic.
 */
static void not_run(struct rn_prog *p, uint64_t ts_us)
{
	struct rn_name_index ran;
	struct rn_buf b = { 0 };
	size_t i, n = p->ncases;
	struct rn_case *c;

	if (p->result == RN_SKIP || !p->nlisted)
		return;
	rn_name_index_init(&ran);
	for (i = 0; i < p->ncases; i++)
		index_case(&ran, p->cases[i].name);
	for (i = 0; i < p->nlisted; i++) {
		if (rn_name_index_get(&ran, p->listed[i], NULL))
			continue;
		rn_grow(&p->cases, &p->ccases, p->ncases, sizeof(*p->cases));
		c = &p->cases[p->ncases++];
		memset(c, 0, sizeof(*c));
		c->name = rn_xstrdup(p->listed[i]);
		c->full = rn_xstrdup(p->listed[i]);
		c->result = RN_NOT_RUN;
		c->reason = rn_xasprintf("not run: the program ended (%s) before this case",
					 p->status);
		c->start_us = c->end_us = ts_us;
		index_case(&ran, c->name);
		rn_buf_printf(&b, "%s %s", b.len ? "" : "not run:",
			      p->listed[i]);
	}
	rn_name_index_free(&ran);
	if (p->ncases > n)
		rn_strv_push(&p->notes, &p->nnotes, b.s);
	rn_buf_free(&b);
}

void rn_parse_end(struct rn_prog *p, uint64_t ts_us, const char *status,
		  const char *crash)
{
	struct rn_case *c = rn_prog_open_case(p);
	char *why = NULL;
	int n = 0;

	p->end_us = ts_us;
	p->ended = status != NULL;
	set_str(&p->status, status ? status : "crash");
	if (!status)
		why = crash && crash[0] ?
			rn_xasprintf("guest crashed during this %s: %s",
				     c ? "case" : "program", crash) :
			rn_xasprintf("guest stopped responding during this %s",
				     c ? "case" : "program");
	else if (!strcmp(status, "timeout"))
		why = rn_xasprintf("timeout after %d s%s", p->timeout_s,
				   c ? "" : " (no case was running)");
	else if (sscanf(status, "signal:%d", &n) == 1)
		why = rn_xasprintf("program killed by signal %d (SIG%s)%s", n,
				   signame(n), c ? "" : " outside any case");
	else if (sscanf(status, "interrupted:%d", &n) == 1)
		why = rn_xasprintf("run interrupted by signal %d (SIG%s)", n,
				   signame(n));
	else if (rn_starts(status, "error:"))
		why = rn_xstrdup(status + 6);
	else if (sscanf(status, "exit:%d", &n) == 1 && c)
		why = rn_xasprintf("program exited with status %d before the case's result",
				   n);
	else if (!rn_starts(status, "exit:"))
		why = rn_xasprintf("unknown end status '%s'", status);

	if (c) {
		close_case(p, c, RN_FAIL, why, ts_us);
		free(why);
	} else if (why) {
		prog_fail(p, why);
	} else {
		exit_status(p, n);
	}
	if (p->kernel && p->result == RN_FAIL) {
		why = rn_xasprintf("%s; %s", p->reason, p->kernel);
		free(p->reason);
		p->reason = why;
	} else if (p->kernel) {
		prog_fail(p, rn_xstrdup(p->kernel));
	}
	not_run(p, ts_us);
}
