// SPDX-License-Identifier: GPL-2.0-only
/* model.c - the run model (model.h): lifetime, results and totals. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "name_index.h"
#include "util.h"

struct rn_run *rn_run_new(void)
{
	struct rn_run *r = rn_xmalloc(sizeof(*r));

	r->run_id = rn_xstrdup("");
	r->started = rn_xstrdup("");
	r->cur = -1;
	return r;
}

static void case_free(struct rn_case *c)
{
	size_t i;

	for (i = 0; i < c->nmetrics; i++) {
		free(c->metrics[i].device);
		free(c->metrics[i].name);
	}
	free(c->metrics);
	for (i = 0; i < c->ndevs; i++) {
		free(c->devs[i].name);
		free(c->devs[i].reason);
		free(c->devs[i].note);
	}
	free(c->devs);
	rn_strv_free(c->out, c->nout);
	free(c->name);
	free(c->full);
	free(c->reason);
	free(c->assert_msg);
	free(c->harness_msg);
	free(c->step_msg);
	free(c->kernel);
	free(c->dev_note);
}

static void prog_free(struct rn_prog *p)
{
	size_t i;

	for (i = 0; i < p->ncases; i++)
		case_free(&p->cases[i]);
	free(p->cases);
	rn_strv_free(p->listed, p->nlisted);
	rn_strv_free(p->notes, p->nnotes);
	rn_strv_free(p->out, p->nout);
	free(p->suite);
	free(p->name);
	free(p->status);
	free(p->skip_reason);
	free(p->reason);
	free(p->kernel);
}

void rn_run_free(struct rn_run *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nprogs; i++)
		prog_free(&r->progs[i]);
	free(r->progs);
	for (i = 0; i < r->nklog; i++) {
		free(r->klog[i].text);
		free(r->klog[i].where);
	}
	free(r->klog);
	for (i = 0; i < r->nplan; i++) {
		free(r->plan[i].suite);
		free(r->plan[i].name);
		rn_strv_free(r->plan[i].cases, r->plan[i].ncases);
	}
	free(r->plan);
	for (i = 0; i < r->nenv; i++) {
		free(r->env[i].key);
		free(r->env[i].value);
	}
	free(r->env);
	rn_strv_free(r->problems, r->nproblems);
	free(r->run_id);
	free(r->started);
	free(r->first_bad);
	free(r);
}

const char *rn_result_name(enum rn_result res)
{
	switch (res) {
	case RN_PASS:
		return "pass";
	case RN_FAIL:
		return "fail";
	case RN_SKIP:
		return "skip";
	case RN_XFAIL:
		return "xfail";
	case RN_NOT_RUN:
		return "not_run";
	default:
		return "none";
	}
}

static void count(struct rn_totals *t, enum rn_result res)
{
	switch (res) {
	case RN_PASS:
		t->pass++;
		break;
	case RN_FAIL:
		t->fail++;
		break;
	case RN_SKIP:
		t->skip++;
		break;
	case RN_XFAIL:
		t->xfail++;
		break;
	case RN_NOT_RUN:
		t->not_run++;
		break;
	default:
		break;
	}
}

static void count_dev(struct rn_totals *t, enum rn_result res)
{
	if (res == RN_PASS)
		t->dev.pass++;
	else if (res == RN_FAIL)
		t->dev.fail++;
	else if (res == RN_SKIP)
		t->dev.skip++;
	else if (res == RN_XFAIL)
		t->dev.xfail++;
}

void rn_prog_totals(const struct rn_prog *p, struct rn_totals *t)
{
	size_t i, j;

	for (i = 0; i < p->ncases; i++) {
		count(t, p->cases[i].result);
		for (j = 0; j < p->cases[i].ndevs; j++)
			count_dev(t, p->cases[i].devs[j].result);
	}
	count(t, p->result);
}

void rn_totals(const struct rn_run *r, struct rn_totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nprogs; i++)
		rn_prog_totals(&r->progs[i], t);
}

enum rn_result rn_prog_result(const struct rn_prog *p)
{
	struct rn_totals t = { 0 };

	rn_prog_totals(p, &t);
	if (t.fail)
		return RN_FAIL;
	if (t.not_run)
		return RN_NOT_RUN;
	if (t.pass)
		return RN_PASS;
	if (t.skip || t.xfail)
		return RN_SKIP;
	return RN_NONE;
}

enum rn_result rn_suite_result(const struct rn_run *r, const char *suite)
{
	bool pass = false, skip = false, notrun = false;
	enum rn_result res;
	size_t i;

	for (i = 0; i < r->nprogs; i++) {
		if (strcmp(r->progs[i].suite, suite))
			continue;
		res = rn_prog_result(&r->progs[i]);
		if (res == RN_FAIL)
			return RN_FAIL;
		notrun |= res == RN_NOT_RUN;
		pass |= res == RN_PASS;
		skip |= res == RN_SKIP;
	}
	return notrun ? RN_NOT_RUN : pass ? RN_PASS : skip ? RN_SKIP : RN_NONE;
}

bool rn_prog_is_recheck(const struct rn_prog *p)
{
	return !strcmp(p->suite, "baseline") && !strcmp(p->name, "final_recheck");
}

bool rn_tested(const struct rn_run *r)
{
	struct rn_totals t;
	size_t i;

	/* The re-check reads every device: it tests nothing on its own. */
	for (i = 0; i < r->nprogs; i++) {
		if (rn_prog_is_recheck(&r->progs[i]))
			continue;
		memset(&t, 0, sizeof(t));
		rn_prog_totals(&r->progs[i], &t);
		if (t.pass || t.fail || t.xfail)
			return true;
	}
	return false;
}

int rn_exit_code(const struct rn_run *r)
{
	struct rn_totals t;

	rn_totals(r, &t);
	if (t.fail || t.not_run || r->nproblems)
		return RN_EXIT_FAIL;
	return rn_tested(r) ? RN_EXIT_OK : RN_EXIT_SKIP;
}

bool rn_case_listed_ran(const struct rn_prog *p, const char *listed)
{
	size_t i, n, l = strlen(listed);
	const char *name;

	for (i = 0; i < p->ncases; i++) {
		/* The list gives the bare case name; RUN may add a variant. */
		name = p->cases[i].name;
		n = strlen(name);
		if (!strcmp(name, listed) ||
		    (n > l && name[n - l - 1] == '.' &&
		     !strcmp(name + n - l, listed)))
			return true;
	}
	return false;
}

size_t rn_suites(const struct rn_run *r, const char ***names)
{
	struct rn_name_index seen;
	size_t i, n = 0;

	*names = rn_xmalloc((r->nprogs + 1) * sizeof(**names));
	rn_name_index_init(&seen);
	for (i = 0; i < r->nprogs; i++) {
		if (rn_name_index_get(&seen, r->progs[i].suite, NULL))
			continue;
		rn_name_index_put(&seen, r->progs[i].suite, n);
		(*names)[n++] = r->progs[i].suite;
	}
	rn_name_index_free(&seen);
	return n;
}

const char *rn_env_get(const struct rn_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nenv; i++)
		if (!strcmp(r->env[i].key, key))
			return r->env[i].value;
	return NULL;
}

void rn_env_set(struct rn_run *r, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < r->nenv; i++) {
		if (!strcmp(r->env[i].key, key)) {
			free(r->env[i].value);
			r->env[i].value = rn_xstrdup(value);
			return;
		}
	}
	r->env = rn_xrealloc(r->env, (r->nenv + 1) * sizeof(*r->env));
	r->env[r->nenv].key = rn_xstrdup(key);
	r->env[r->nenv].value = rn_xstrdup(value);
	r->nenv++;
}

long long rn_case_ms(const struct rn_case *c)
{
	if (!c->end_us || c->end_us < c->start_us)
		return 0;
	return (long long)(c->end_us - c->start_us) / 1000;
}

long long rn_prog_ms(const struct rn_prog *p)
{
	if (!p->end_us || p->end_us < p->start_us)
		return 0;
	return (long long)(p->end_us - p->start_us) / 1000;
}
