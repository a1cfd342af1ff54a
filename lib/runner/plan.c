// SPDX-License-Identifier: GPL-2.0-only
/* plan.c - the run's plan and the cases it left unrun or skipped (plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "plan.h"
#include "util.h"

static struct rn_planned *find(struct rn_run *r, const char *suite,
			       const char *name, bool unstarted)
{
	size_t i;

	for (i = 0; i < r->nplan; i++)
		if (!strcmp(r->plan[i].suite, suite) &&
		    !strcmp(r->plan[i].name, name) &&
		    (!unstarted || !r->plan[i].started))
			return &r->plan[i];
	return NULL;
}

int rn_plan_record(struct rn_run *r, const char *rec)
{
	char name[512], cname[512], *slash, *c;
	struct rn_planned *pl;
	int timeout, n = 0;

	cname[0] = '\0';
	if (sscanf(rec, "%511s %d %n", name, &timeout, &n) != 2)
		return -1;
	if (rec[n] && sscanf(rec + n, "%511s", cname) != 1)
		return -1;
	c = rn_clean_text(name);
	snprintf(name, sizeof(name), "%s", c);
	free(c);
	slash = strchr(name, '/');
	if (!slash || slash == name || !slash[1] || strchr(slash + 1, '/'))
		return -1;
	*slash = '\0';
	pl = find(r, name, slash + 1, false);
	if (!pl) {
		rn_grow(&r->plan, &r->cplan, r->nplan, sizeof(*r->plan));
		pl = &r->plan[r->nplan++];
		memset(pl, 0, sizeof(*pl));
		pl->suite = rn_xstrdup(name);
		pl->name = rn_xstrdup(slash + 1);
		pl->timeout_s = timeout;
	}
	if (cname[0]) {
		c = rn_clean_text(cname);
		rn_strv_push(&pl->cases, &pl->ncases, c);
		free(c);
	}
	return 0;
}

void rn_plan_started(struct rn_run *r, const char *suite, const char *name)
{
	struct rn_planned *pl = find(r, suite, name, true);

	if (pl)
		pl->started = true;
}

struct rn_case *rn_plan_add_case(struct rn_prog *p, const char *name,
				 enum rn_result res, const char *reason,
				 uint64_t ts_us)
{
	struct rn_case *c;

	rn_grow(&p->cases, &p->ccases, p->ncases, sizeof(*p->cases));
	c = &p->cases[p->ncases++];
	memset(c, 0, sizeof(*c));
	c->name = rn_xstrdup(name);
	c->full = rn_xstrdup(name);
	c->result = res;
	c->reason = rn_xstrdup(reason);
	c->start_us = c->end_us = ts_us;
	return c;
}

void rn_plan_unrun(struct rn_run *r, uint64_t ts_us, const char *why)
{
	struct rn_planned *pl;
	struct rn_prog *p;
	char *reason;
	size_t i, j;

	for (i = 0; i < r->nplan; i++) {
		pl = &r->plan[i];
		if (pl->started)
			continue;
		pl->started = true;
		reason = rn_xasprintf("not run: %s", why);
		rn_grow(&r->progs, &r->cprogs, r->nprogs, sizeof(*r->progs));
		p = &r->progs[r->nprogs++];
		rn_prog_init(p, pl->suite, pl->name, pl->timeout_s, ts_us);
		p->end_us = ts_us;
		p->status = rn_xstrdup("not_run");
		for (j = 0; j < pl->ncases; j++) {
			rn_strv_push(&p->listed, &p->nlisted, pl->cases[j]);
			rn_plan_add_case(p, pl->cases[j], RN_NOT_RUN, reason,
					 ts_us);
		}
		/* A program that could not list its cases: itself. */
		if (!pl->ncases)
			p->result = RN_NOT_RUN;
		p->reason = reason;
	}
}

void rn_plan_skip_whole(struct rn_prog *p, uint64_t ts_us)
{
	size_t i;

	if (p->result != RN_SKIP || !p->nlisted || p->ncases)
		return;
	for (i = 0; i < p->nlisted; i++)
		rn_plan_add_case(p, p->listed[i], RN_SKIP, p->reason, ts_us);
	/* Its reason stays, for the program's own line. */
	p->result = RN_NONE;
}
