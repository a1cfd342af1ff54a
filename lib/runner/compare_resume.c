// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_resume.c - devices whose system resume got slower between two
 * runs (compare_resume.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_resume.h"
#include "json.h"
#include "util.h"

static const char *const phases[] = {
	"resume_noirq_us", "resume_early_us", "resume_us", "complete_us",
};
static const char *const cycles[] = { "", "s3_" };
#define NCYCLES	(sizeof(cycles) / sizeof(cycles[0]))

/* One device of one case: its resume sums per cycle. */
struct dev_resume {
	char *key;		/* "suite/program/case\ndevice" */
	double us[NCYCLES];
	bool have[NCYCLES];
};

struct resumes {
	struct dev_resume *v;
	size_t n, cap;
};

/* Which cycle a metric name is a resume phase of, -1 none. */
static int cycle_of(const char *name)
{
	size_t c, p, l;

	for (c = NCYCLES; c-- > 0;) {
		l = strlen(cycles[c]);
		if (strncmp(name, cycles[c], l))
			continue;
		for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
			if (!strcmp(name + l, phases[p]))
				return (int)c;
	}
	return -1;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct dev_resume *)a)->key,
		      ((const struct dev_resume *)b)->key);
}

/* One entry per metric, then sorted and folded: one per device. */
static void collect(const struct rn_json *cases, struct resumes *r)
{
	const struct rn_json *c, *m;
	struct dev_resume *e;
	size_t i, j, k;
	double v;
	int cy;

	for (i = 0; cases && i < cases->n; i++) {
		c = cases->items[i];
		m = rn_json_get(c, "metrics");
		for (j = 0; m && m->type == RN_J_ARR && j < m->n; j++) {
			const char *d = rn_json_str(m->items[j], "device");
			const char *name = rn_json_str(m->items[j], "name");

			cy = d && name && strcmp(d, "-") ? cycle_of(name) : -1;
			if (cy < 0 || !rn_json_num(m->items[j], "value", &v))
				continue;
			rn_grow(&r->v, &r->cap, r->n, sizeof(*r->v));
			e = &r->v[r->n++];
			memset(e, 0, sizeof(*e));
			e->key = rn_xasprintf("%s/%s/%s\n%s",
					      rn_json_str(c, "suite") ?: "?",
					      rn_json_str(c, "program") ?: "?",
					      rn_json_str(c, "case") ?: "", d);
			e->us[cy] = v;
			e->have[cy] = true;
		}
	}
	if (!r->n)
		return;
	qsort(r->v, r->n, sizeof(*r->v), by_key);
	for (i = 1, k = 0; i < r->n; i++) {
		if (strcmp(r->v[i].key, r->v[k].key)) {
			r->v[++k] = r->v[i];
			continue;
		}
		for (j = 0; j < NCYCLES; j++) {
			r->v[k].us[j] += r->v[i].us[j];
			r->v[k].have[j] |= r->v[i].have[j];
		}
		free(r->v[i].key);
	}
	r->n = k + 1;
}

static void release(struct resumes *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].key);
	free(r->v);
}

int rn_compare_resume(const struct rn_json *oc, const struct rn_json *nc)
{
	struct resumes o = { 0 }, n = { 0 };
	const struct dev_resume *was;
	size_t i, c;
	int bad = 0;

	collect(oc, &o);
	collect(nc, &n);
	for (i = 0; i < n.n; i++) {
		was = o.n ? bsearch(&n.v[i], o.v, o.n, sizeof(*o.v), by_key) :
		      NULL;
		for (c = 0; was && c < NCYCLES; c++) {
			double a = was->us[c], b = n.v[i].us[c];
			char *nl = strchr(n.v[i].key, '\n');

			if (!was->have[c] || !n.v[i].have[c] ||
			    b <= a * RN_RESUME_WORSE_RATIO ||
			    b - a < RN_RESUME_WORSE_US)
				continue;
			printf("SLOWER RESUME %.*s %s: %sresume %.0f us -> %.0f us (+%.0f%%, +%.0f ms; bounds x%.0f and +%.0f ms)\n",
			       (int)(nl - n.v[i].key), n.v[i].key, nl + 1,
			       c ? "S3 " : "", a, b, a > 0 ? (b / a - 1) * 100 : 0,
			       (b - a) / 1000, RN_RESUME_WORSE_RATIO,
			       RN_RESUME_WORSE_US / 1000);
			bad++;
		}
	}
	release(&o);
	release(&n);
	return bad;
}
