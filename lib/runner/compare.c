// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `devpm compare OLD NEW`: regressions between two runs'
 * summary.json (or KTAP files of any runner: ktap_summary.h), one line
 * each, exit 1 if any.
 *
 * A regression is: a case that passed and now fails; a failure that is new
 * (the case was absent, skipped or an expected failure before); a metric
 * whose name ends in _us or _ms (larger is worse) that grew by more than
 * 20%, unless both values are under 1 ms (1000 µs): differences that small
 * are scheduling noise, not power management.  Metrics of other names have
 * no known direction and are not judged.  A case that passed and was
 * listed but not run (a crash, timeout or kill of its program) is a
 * regression too: a crash must not turn a pass into silence.  A case absent
 * from the new run (another selection) is not judged.
 *
 * Linear in the size of both runs (the old one is hashed), and only a
 * directory or a regular file is read: a FIFO or a device is refused
 * before it could block.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare_resume.h"
#include "json.h"
#include "ktap_summary.h"
#include "util.h"

#define WORSE_RATIO 1.20
#define NOISE_US 1000.0

/*
 * The whole of a regular file.  Anything else is refused before it is
 * opened for reading: a FIFO or a terminal would block compare forever.
 */
static char *read_regular(const char *path)
{
	struct stat st;
	char *text;
	int fd;

	if (stat(path, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	/* O_NONBLOCK: a FIFO put there since stat() does not block open. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	close(fd);
	text = rn_read_file(path, NULL);
	return text;
}

static struct rn_json *load(const char *arg, char *path, size_t len)
{
	char err[256], *text;
	struct rn_json *j;
	struct stat st;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode))
		snprintf(path, len, "%s/summary.json", arg);
	else
		snprintf(path, len, "%s", arg);
	text = read_regular(path);
	if (!text && errno == EINVAL) {
		rn_usage_error("compare: %s is not a regular file; give two run directories (results/<run-id>)",
			       path);
		return NULL;
	}
	if (!text) {
		rn_usage_error("compare: %s: %s; give two run directories (results/<run-id>) or KTAP files",
			       path, strerror(errno));
		return NULL;
	}
	/* KTAP of any runner: its summary (ktap_summary.h). */
	if (rn_ktap_input(text)) {
		char *json = rn_ktap_summary(text, err, sizeof(err));

		free(text);
		if (!json) {
			rn_usage_error("compare: %s is KTAP with %s", path,
				       err);
			return NULL;
		}
		text = json;
	}
	j = rn_json_parse(text, err, sizeof(err));
	free(text);
	if (!j) {
		rn_usage_error("compare: %s is not valid JSON (%s); was the run interrupted? use 'devpm collect'",
			       path, err);
		return NULL;
	}
	if (!rn_json_get(j, "cases") ||
	    rn_json_get(j, "cases")->type != RN_J_ARR) {
		rn_usage_error("compare: %s is not a devpm summary (no \"cases\" list)",
			       path);
		rn_json_free(j);
		return NULL;
	}
	return j;
}

static char *key_of(const struct rn_json *c)
{
	const char *cs = rn_json_str(c, "case");

	return rn_xasprintf("%s/%s%s%s", rn_json_str(c, "suite") ?: "?",
			    rn_json_str(c, "program") ?: "?",
			    cs && cs[0] ? "/" : "", cs ? cs : "");
}

/*
 * Names to entries of the old run, hashed: every new case and metric is
 * looked up once, so compare is linear in the size of the two runs.
 */
struct table {
	char **key;
	const struct rn_json **val;
	size_t cap;		/* a power of two, at least twice the keys */
};

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void table_init(struct table *t, size_t n)
{
	t->cap = 16;
	while (t->cap < 2 * n + 2)
		t->cap *= 2;
	t->key = rn_xmalloc(t->cap * sizeof(*t->key));
	t->val = rn_xmalloc(t->cap * sizeof(*t->val));
}

/* Takes key; the first entry of a name wins, as a list scan would. */
static void table_put(struct table *t, char *key, const struct rn_json *v)
{
	size_t i = hash(key) & (t->cap - 1);

	while (t->key[i] && strcmp(t->key[i], key))
		i = (i + 1) & (t->cap - 1);
	if (t->key[i]) {
		free(key);
		return;
	}
	t->key[i] = key;
	t->val[i] = v;
}

static const struct rn_json *table_get(const struct table *t,
				       const char *key)
{
	size_t i = hash(key) & (t->cap - 1);

	while (t->key[i] && strcmp(t->key[i], key))
		i = (i + 1) & (t->cap - 1);
	return t->key[i] ? t->val[i] : NULL;
}

static void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->key[i]);
	free(t->key);
	free(t->val);
}

static const struct rn_json *metrics_of(const struct rn_json *c)
{
	const struct rn_json *m = c ? rn_json_get(c, "metrics") : NULL;

	return m && m->type == RN_J_ARR ? m : NULL;
}

/* "case\ndevice\nname": newlines are never in a name or a device. */
static char *metric_key(const char *key, const struct rn_json *m)
{
	const char *d = rn_json_str(m, "device");
	const char *n = rn_json_str(m, "name");

	if (!d || !n)
		return NULL;
	return rn_xasprintf("%s\n%s\n%s", key, d, n);
}

/* Every case and metric of the old run by name. */
static void index_old(const struct rn_json *oc, struct table *cases,
		      struct table *metrics)
{
	const struct rn_json *m;
	size_t i, j, nm = 0;
	char *key, *mk;

	for (i = 0; i < oc->n; i++) {
		m = metrics_of(oc->items[i]);
		nm += m ? m->n : 0;
	}
	table_init(cases, oc->n);
	table_init(metrics, nm);
	for (i = 0; i < oc->n; i++) {
		key = key_of(oc->items[i]);
		m = metrics_of(oc->items[i]);
		/* Metrics of a name's first entry only, as find() did. */
		if (!table_get(cases, key))
			for (j = 0; m && j < m->n; j++) {
				mk = metric_key(key, m->items[j]);
				if (mk)
					table_put(metrics, mk, m->items[j]);
			}
		table_put(cases, key, oc->items[i]);
	}
}

static const char *result(const struct rn_json *c)
{
	const char *r = c ? rn_json_str(c, "result") : NULL;

	return r ? r : "absent";
}

static bool ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Metrics of c that got worse than in the old run; prints each. */
static int slower(const char *key, const struct table *old,
		  const struct rn_json *c)
{
	const struct rn_json *m = metrics_of(c), *prev;
	double was, now, scale;
	int n = 0;
	size_t i;
	char *mk;

	for (i = 0; m && i < m->n; i++) {
		const char *d = rn_json_str(m->items[i], "device");
		const char *name = rn_json_str(m->items[i], "name");

		if (!d || !name || !rn_json_num(m->items[i], "value", &now))
			continue;
		if (ends(name, "_us"))
			scale = 1;
		else if (ends(name, "_ms"))
			scale = 1000;
		else
			continue;
		mk = metric_key(key, m->items[i]);
		prev = table_get(old, mk);
		free(mk);
		if (!prev || !rn_json_num(prev, "value", &was) ||
		    !isfinite(was) || !isfinite(now))
			continue;
		if (now <= was * WORSE_RATIO ||
		    (was > now ? was : now) * scale < NOISE_US)
			continue;
		printf("SLOWER %s %s %s: %g -> %g", key, d, name, was, now);
		if (was > 0)
			printf(" (+%.0f%%)", (now / was - 1) * 100);
		printf("\n");
		n++;
	}
	return n;
}

int rn_cmd_compare(int argc, char **argv)
{
	struct rn_json *old = NULL, *new = NULL;
	const struct rn_json *oc, *nc, *prev;
	struct table cases, metrics;
	char po[PATH_MAX], pn[PATH_MAX], *key;
	const char *was, *now, *reason;
	int bad = 0;
	size_t i;

	if (argc != 3)
		return rn_usage_error("compare needs two run directories: devpm compare OLD NEW");
	old = load(argv[1], po, sizeof(po));
	if (old)
		new = load(argv[2], pn, sizeof(pn));
	if (!old || !new) {
		rn_json_free(old);
		return RN_EXIT_USAGE;
	}
	oc = rn_json_get(old, "cases");
	nc = rn_json_get(new, "cases");
	index_old(oc, &cases, &metrics);
	for (i = 0; i < nc->n; i++) {
		key = key_of(nc->items[i]);
		prev = table_get(&cases, key);
		was = result(prev);
		now = result(nc->items[i]);
		reason = rn_json_str(nc->items[i], "reason") ?: "";
		if (!strcmp(now, "fail") && !strcmp(was, "pass")) {
			printf("REGRESSION %s: pass -> fail: %s\n", key, reason);
			bad++;
		} else if (!strcmp(now, "not_run") && !strcmp(was, "pass")) {
			printf("REGRESSION %s: pass -> not_run: %s\n", key,
			       reason[0] ? reason :
			       "listed but not run (crash, timeout or kill)");
			bad++;
		} else if (!strcmp(now, "fail") && strcmp(was, "fail")) {
			printf("NEW FAILURE %s: %s -> fail: %s\n", key, was,
			       reason);
			bad++;
		}
		if (prev)
			bad += slower(key, &metrics, nc->items[i]);
		free(key);
	}
	/* Each device whose system resume got slower, by name. */
	bad += rn_compare_resume(oc, nc);
	printf("devpm compare: %d regression(s); %zu case(s) in %s against %zu in %s\n",
	       bad, nc->n, pn, oc->n, po);
	table_free(&cases);
	table_free(&metrics);
	rn_json_free(old);
	rn_json_free(new);
	return bad ? RN_EXIT_FAIL : RN_EXIT_OK;
}
