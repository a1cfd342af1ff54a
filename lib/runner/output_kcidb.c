// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_kcidb.c - a run as a KCIDB v4.4 submission (output_kcidb.h).
 * Results map to KCIDB's statuses: pass PASS, fail FAIL (ERROR when the
 * guest died in it), skip SKIP, xfail FAIL with "waived" (a proven
 * kernel bug, docs/kernel-bugs.md), not_run MISS.  A failure's
 * log_excerpt is its reason, its devices' lines and the kernel log of its
 * case (case_info.h), within KCIDB's 16384 characters.  A metric is a
 * test of status DONE (it measured, it judged nothing: its case did) whose
 * "number" is in seconds with a metric prefix for a time, dimensionless
 * otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_info.h"
#include "output.h"
#include "output_kcidb.h"

#define KCIDB_MAJOR	4
#define KCIDB_MINOR	4	/* the first with a test's "number" */
#define EXCERPT_MAX	16384	/* log_excerpt's maxLength */

void rn_kcidb_name(char *dst, size_t len, const char *name)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; name[i] && i + 1 < len; i++) {
		unsigned char c = name[i];

		dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' ?
			 c : '_';
	}
	dst[i] = '\0';
	if (!i && len > 1)
		snprintf(dst, len, "_");
}

struct kw {
	struct rn_buf *b;
	const struct rn_run *r;
	const char *origin;
	char *build_id;
	const char *run_id;
	char *env;		/* the "environment" object, shared */
	bool first;		/* no test written yet */
};

static void key_str(struct rn_buf *b, const char *k, const char *v)
{
	rn_buf_printf(b, ", \"%s\": ", k);
	rn_json_escape(b, v ? v : "");
}

/* A JSON string of at most max bytes, cut at a line's end if need be. */
static void excerpt(struct rn_buf *b, const char *text, size_t max)
{
	size_t n = strlen(text);
	const char *nl;
	char *cut;

	if (n <= max) {
		rn_json_escape(b, text);
		return;
	}
	nl = memrchr(text, '\n', max - 40);
	n = nl ? (size_t)(nl + 1 - text) : 0;
	cut = rn_xasprintf("%.*s(cut at %zu of %zu bytes)\n", (int)n, text, n,
			   strlen(text));
	rn_json_escape(b, cut);
	free(cut);
}

static const char *status_of(const struct rn_prog *p, enum rn_result res,
			     const char *reason, bool *waived)
{
	*waived = false;
	switch (res) {
	case RN_PASS:
		return "PASS";
	case RN_FAIL:
		/* parse.c's words for a case the guest died in. */
		if (p->status && !strcmp(p->status, "crash") && reason &&
		    (rn_starts(reason, "guest crashed during ") ||
		     rn_starts(reason, "guest stopped responding during ")))
			return "ERROR";
		return "FAIL";
	case RN_SKIP:
		return "SKIP";
	case RN_XFAIL:
		*waived = true;
		return "FAIL";
	default:
		return "MISS";
	}
}

/* "devpm.<suite>.<program>[.<case>]" */
static char *path_of(const struct rn_prog *p, const struct rn_case *c)
{
	char s[256], g[256], k[256];

	rn_kcidb_name(s, sizeof(s), p->suite);
	rn_kcidb_name(g, sizeof(g), p->name);
	if (!c)
		return rn_xasprintf("devpm.%s.%s", s, g);
	rn_kcidb_name(k, sizeof(k), c->name);
	return rn_xasprintf("devpm.%s.%s.%s", s, g, k);
}

/* The common head of a test: id, build, origin, path, start. */
static void test_head(struct kw *w, const char *path, const char *idtail,
		      uint64_t start_us)
{
	char when[64];
	char *id = rn_xasprintf("%s:%s:%s", w->origin, w->run_id, idtail);

	rn_buf_add(w->b, w->first ? "\n    {" : ",\n    {");
	w->first = false;
	rn_buf_add(w->b, "\"id\": ");
	rn_json_escape(w->b, id);
	key_str(w->b, "build_id", w->build_id);
	key_str(w->b, "origin", w->origin);
	key_str(w->b, "path", path);
	if (!rn_wall_time(w->r, start_us, RN_TIME_KCIDB, when, sizeof(when)))
		key_str(w->b, "start_time", when);
	rn_buf_printf(w->b, ", \"environment\": %s", w->env);
	free(id);
}

static void result_test(struct kw *w, const struct rn_prog *p,
			const struct rn_case *c)
{
	enum rn_result res = c ? c->result : p->result;
	const char *reason = c ? c->reason : p->reason;
	long long ms = c ? rn_case_ms(c) : rn_prog_ms(p);
	char *path = path_of(p, c), *where, *klog;
	struct rn_buf log = { 0 };
	const char *status;
	bool waived;
	size_t i;

	status = status_of(p, res, reason, &waived);
	test_head(w, path, path + strlen("devpm."), rn_case_start_us(p, c));
	key_str(w->b, "status", status);
	/* A clock that stepped back (a stream's stamps) is no duration. */
	if (ms < 0)
		ms = 0;
	rn_buf_printf(w->b, ", \"waived\": %s, \"duration\": %lld.%03lld",
		      waived ? "true" : "false", ms / 1000, ms % 1000);
	if (reason && reason[0])
		key_str(w->b, "comment", reason);
	if (res == RN_FAIL) {
		rn_buf_printf(&log, "%s\n", reason ? reason : "failed");
		for (i = 0; c && i < c->ndevs; i++)
			rn_buf_printf(&log, "%s %s: %s\n", c->devs[i].name,
				      rn_result_name(c->devs[i].result),
				      c->devs[i].reason);
		where = rn_where(p, c);
		klog = rn_klog_excerpt(w->r, where, RN_KLOG_EXCERPT_MAX);
		rn_buf_add(&log, klog);
		rn_buf_add(w->b, ", \"log_excerpt\": ");
		excerpt(w->b, log.s, EXCERPT_MAX);
		free(klog);
		free(where);
		rn_buf_free(&log);
	}
	rn_buf_add(w->b, ", \"misc\": {");
	rn_buf_add(w->b, "\"devpm_result\": ");
	rn_json_escape(w->b, rn_result_name(res));
	key_str(w->b, "suite", p->suite);
	key_str(w->b, "program", p->name);
	key_str(w->b, "case", c ? c->name : "");
	rn_buf_add(w->b, "}}");
	free(path);
}

static void number(struct rn_buf *b, const char *units, double v)
{
	static const struct { const char *unit; double scale; } t[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(units, t[i].unit)) {
			rn_buf_printf(b, "{\"value\": %.9g, \"unit\": \"s\", \"prefix\": \"metric\"}",
				      v * t[i].scale);
			return;
		}
	rn_buf_printf(b, "{\"value\": %.15g}", v);
}

static void metric_tests(struct kw *w, const struct rn_prog *p,
			 const struct rn_case *c)
{
	char dev[256], name[256], *base = path_of(p, c), *path, *tail;
	const struct rn_metric *m;
	size_t i, j, k;

	for (i = 0; i < c->nmetrics; i++) {
		m = &c->metrics[i];
		if (m->value != m->value)	/* NaN: no number */
			continue;
		rn_kcidb_name(name, sizeof(name), m->name);
		rn_kcidb_name(dev, sizeof(dev), m->device);
		path = strcmp(m->device, "-") ?
			rn_xasprintf("%s.%s.%s", base, dev, name) :
			rn_xasprintf("%s.%s", base, name);
		/* The same metric again (a cycle's): its own id. */
		for (j = 0, k = 1; j < i; j++)
			k += !strcmp(c->metrics[j].device, m->device) &&
			     !strcmp(c->metrics[j].name, m->name);
		tail = k > 1 ? rn_xasprintf("%s#%zu", path + strlen("devpm."),
					    k) :
			rn_xstrdup(path + strlen("devpm."));
		test_head(w, path, tail, rn_case_start_us(p, c));
		rn_buf_add(w->b, ", \"status\": \"DONE\", \"number\": ");
		number(w->b, rn_metric_units(m->name), m->value);
		rn_buf_add(w->b, ", \"misc\": {\"device\": ");
		rn_json_escape(w->b, m->device);
		key_str(w->b, "metric", m->name);
		key_str(w->b, "units", rn_metric_units(m->name));
		rn_buf_printf(w->b, ", \"value\": %.15g}}", m->value);
		free(tail);
		free(path);
	}
	free(base);
}

/* checkout and build: the kernel the run tested, keyed by the run. */
static void checkout_build(struct kw *w)
{
	const struct rn_run *r = w->r;
	const char *rel = rn_env_get(r, "kernel_release");
	const char *ver = rn_env_get(r, "kernel_version");
	const char *cfg = rn_env_get(r, "config_file");
	char arch[64], when[64], *comment, *a;
	struct rn_prop *props;
	size_t i, n;

	/* KCIDB's architecture: ^[a-z0-9_]*$ ("x86_64"). */
	rn_kcidb_name(arch, sizeof(arch), rn_env_get(r, "arch") ?
		      rn_env_get(r, "arch") : "");
	for (a = arch; *a; a++)
		if (*a >= 'A' && *a <= 'Z')
			*a += 'a' - 'A';
		else if (*a == '-')
			*a = '_';
	comment = rn_xasprintf("Linux %s %s", rel ? rel : "?", ver ? ver : "");
	rn_wall_time(r, r->start_us, RN_TIME_KCIDB, when, sizeof(when));
	rn_buf_add(w->b, "  \"checkouts\": [\n    {\"id\": ");
	rn_json_escape(w->b, w->build_id);
	key_str(w->b, "origin", w->origin);
	if (when[0])
		key_str(w->b, "start_time", when);
	key_str(w->b, "comment", comment);
	rn_buf_add(w->b, ", \"valid\": true, \"misc\": {\"kernel_release\": ");
	rn_json_escape(w->b, rel ? rel : "");
	key_str(w->b, "kernel_version", ver);
	rn_buf_add(w->b, "}}\n  ],\n  \"builds\": [\n    {\"id\": ");
	rn_json_escape(w->b, w->build_id);
	key_str(w->b, "checkout_id", w->build_id);
	key_str(w->b, "origin", w->origin);
	if (when[0])
		key_str(w->b, "start_time", when);
	if (strcmp(arch, "_"))
		key_str(w->b, "architecture", arch);
	key_str(w->b, "comment", comment);
	if (cfg && strcmp(cfg, "none"))
		key_str(w->b, "config_name", strrchr(cfg, '/') ?
			strrchr(cfg, '/') + 1 : cfg);
	/* The run's properties (case_info.h): kernel, config, options. */
	n = rn_run_props(r, &props);
	rn_buf_add(w->b, ", \"valid\": true, \"misc\": {");
	for (i = 0; i < n; i++) {
		rn_buf_add(w->b, i ? ", " : "");
		rn_json_escape(w->b, props[i].key);
		rn_buf_add(w->b, ": ");
		rn_json_escape(w->b, props[i].value);
	}
	rn_buf_add(w->b, "}}\n  ],\n");
	rn_props_free(props, n);
	free(comment);
}

/* The machine, shared by every test; the rest of the run's in the build. */
static char *environment(const struct rn_run *r)
{
	static const char *const keys[] = {
		"hostname", "profile", "accel", NULL,
	};
	struct rn_buf b = { 0 };
	struct rn_prop *props;
	size_t i, n = rn_run_props(r, &props);
	int k;

	rn_buf_add(&b, "{\"comment\": ");
	for (i = 0; i < n && strcmp(props[i].key, "machine"); i++)
		;
	rn_json_escape(&b, i < n ? props[i].value : "");
	rn_buf_add(&b, ", \"misc\": {");
	for (i = 0; i < n; i++)
		for (k = 0; keys[k]; k++)
			if (!strcmp(props[i].key, keys[k])) {
				rn_buf_add(&b, b.s[b.len - 1] == '{' ? "" : ", ");
				rn_json_escape(&b, props[i].key);
				rn_buf_add(&b, ": ");
				rn_json_escape(&b, props[i].value);
			}
	rn_buf_add(&b, "}}");
	rn_props_free(props, n);
	return b.s;
}

char *rn_out_kcidb(const struct rn_run *r, const char *origin)
{
	struct rn_buf b = { 0 };
	struct kw w = {
		.b = &b, .r = r, .origin = origin, .first = true,
		.run_id = r->run_id ? r->run_id : "unknown",
	};
	const struct rn_prog *p;
	size_t i, j;

	w.build_id = rn_xasprintf("%s:%s", origin, w.run_id);
	w.env = environment(r);
	rn_buf_printf(&b, "{\n  \"version\": {\"major\": %d, \"minor\": %d},\n",
		      KCIDB_MAJOR, KCIDB_MINOR);
	checkout_build(&w);
	rn_buf_add(&b, "  \"tests\": [");
	for (i = 0; i < r->nprogs; i++) {
		p = &r->progs[i];
		for (j = 0; j < p->ncases; j++) {
			result_test(&w, p, &p->cases[j]);
			metric_tests(&w, p, &p->cases[j]);
		}
		if (p->result != RN_NONE)
			result_test(&w, p, NULL);
	}
	rn_buf_add(&b, "\n  ]\n}\n");
	free(w.env);
	free(w.build_id);
	return b.s;
}
