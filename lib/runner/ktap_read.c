// SPDX-License-Identifier: GPL-2.0-only
/* ktap_read.c - read KTAP v1 back into a tree (ktap.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "util.h"

/* suites > programs > cases > devices is 4; leave room, bound the stack. */
#define MAX_DEPTH 16

struct kline {
	int indent;
	char *s;
};

struct kp {
	struct kline *l;
	size_t n, i;
	char *err;
	size_t len;
	bool failed;
};

static void fail(struct kp *p, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->len, "line %zu: %s", p->i + 1, what);
	p->failed = true;
}

static void node_free(struct rn_ktap *k)
{
	size_t i;

	for (i = 0; i < k->nkids; i++)
		node_free(&k->kids[i]);
	free(k->kids);
	free(k->name);
	free(k->reason);
}

void rn_ktap_free(struct rn_ktap *k)
{
	if (!k)
		return;
	node_free(k);
	free(k);
}

/* "ok N name # directive" into kid number want. */
static bool result_line(const char *s, long want, struct rn_ktap *kid,
			const char *diag)
{
	const char *p, *hash;
	bool ok;
	long n;
	int len = 0;

	ok = rn_starts(s, "ok ");
	if (!ok && !rn_starts(s, "not ok "))
		return false;
	p = s + (ok ? 3 : 7);
	if (sscanf(p, "%ld%n", &n, &len) != 1 || n != want ||
	    (p[len] && p[len] != ' '))
		return false;
	p += len;
	while (*p == ' ')
		p++;
	hash = strstr(p, " # ");
	kid->name = rn_xstrndup(p, hash ? (size_t)(hash - p) : strlen(p));
	if (!ok && hash && rn_starts(hash + 3, "ERROR")) {
		/* devpm writes ERROR only for a case that never ran. */
		kid->result = RN_NOT_RUN;
		kid->reason = rn_xstrdup(hash + 3 + 5 + (hash[8] == ' '));
	} else if (!ok) {
		kid->result = RN_FAIL;
		kid->reason = rn_xstrdup(diag ? diag : "");
	} else if (hash && rn_starts(hash + 3, "SKIP XFAIL")) {
		kid->result = RN_XFAIL;
		kid->reason = rn_xstrdup(hash + 3 + 10 + (hash[13] == ' '));
	} else if (hash && rn_starts(hash + 3, "SKIP")) {
		kid->result = RN_SKIP;
		kid->reason = rn_xstrdup(hash + 3 + 4 + (hash[7] == ' '));
	} else {
		kid->result = RN_PASS;
		kid->reason = rn_xstrdup(hash ? hash + 3 : "");
	}
	return true;
}

/* A block at indent: header, plan, results (each maybe after a subtest). */
static void block(struct kp *p, int indent, struct rn_ktap *parent)
{
	struct rn_ktap sub = { 0 };
	const char *diag = NULL;
	bool have_sub = false;
	long plan = -1;
	struct kline *l;

	if (indent > 4 * MAX_DEPTH) {
		fail(p, "nested too deep");
		return;
	}
	if (p->i >= p->n || p->l[p->i].indent != indent ||
	    strcmp(p->l[p->i].s, "KTAP version 1")) {
		fail(p, "expected 'KTAP version 1'");
		return;
	}
	p->i++;
	while (!p->failed && p->i < p->n) {
		l = &p->l[p->i];
		if (l->indent < indent)
			break;
		if (l->indent > indent) {
			if (have_sub || l->indent != indent + 4) {
				fail(p, "unexpected indentation");
				break;
			}
			block(p, indent + 4, &sub);
			have_sub = true;
			continue;
		}
		if (rn_starts(l->s, "1..")) {
			if (plan >= 0 || sscanf(l->s, "1..%ld", &plan) != 1)
				fail(p, "bad or second plan");
		} else if (rn_starts(l->s, "# ")) {
			diag = l->s + 2;
		} else if (rn_starts(l->s, "ok ") ||
			   rn_starts(l->s, "not ok ")) {
			struct rn_ktap kid = { 0 };

			if (plan < 0) {
				fail(p, "result before the plan");
				break;
			}
			if (!result_line(l->s, parent->nkids + 1, &kid, diag)) {
				fail(p, "bad result line or number");
				node_free(&kid);
				break;
			}
			kid.kids = sub.kids;
			kid.nkids = sub.nkids;
			memset(&sub, 0, sizeof(sub));
			have_sub = false;
			parent->kids = rn_xrealloc(parent->kids,
						   (parent->nkids + 1) *
						   sizeof(*parent->kids));
			parent->kids[parent->nkids++] = kid;
			diag = NULL;
		} else {
			fail(p, "not a KTAP line");
		}
		if (!p->failed)
			p->i++;
	}
	if (have_sub) {
		node_free(&sub);
		fail(p, "subtest without a result line");
	}
	if (!p->failed && plan != (long)parent->nkids)
		fail(p, "plan does not match the number of results");
}

struct rn_ktap *rn_ktap_parse(const char *text, char *err, size_t len)
{
	struct kp p = { .err = err, .len = len };
	struct rn_ktap *root = rn_xmalloc(sizeof(*root));
	char *copy = rn_xstrdup(text), *line, *save = NULL;
	size_t cap = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		rn_grow(&p.l, &cap, p.n, sizeof(*p.l));
		p.l[p.n].indent = strspn(line, " ");
		p.l[p.n++].s = line + strspn(line, " ");
	}
	root->name = rn_xstrdup("");
	block(&p, 0, root);
	if (!p.failed && p.i < p.n)
		fail(&p, "text after the top-level results");
	free(p.l);
	free(copy);
	if (p.failed) {
		rn_ktap_free(root);
		return NULL;
	}
	return root;
}

const struct rn_ktap *rn_ktap_kid(const struct rn_ktap *k, const char *name)
{
	size_t i;

	for (i = 0; k && i < k->nkids; i++)
		if (!strcmp(k->kids[i].name, name))
			return &k->kids[i];
	return NULL;
}
