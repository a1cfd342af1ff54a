// SPDX-License-Identifier: GPL-2.0-only
/* untested.c - why a run tested nothing (untested.h). */
#include <stdio.h>
#include <string.h>

#include "untested.h"
#include "util.h"

const char *rn_skip_reason(const struct rn_prog *p)
{
	size_t i;

	if (rn_prog_result(p) != RN_SKIP)
		return "";
	if (p->reason && p->reason[0])
		return p->reason;
	for (i = 0; i < p->ncases; i++)
		if (p->cases[i].result == RN_SKIP && p->cases[i].reason &&
		    p->cases[i].reason[0])
			return p->cases[i].reason;
	return "";
}

/* The skip reasons of lib/harness/needs.c and DEVPM_SUBTEST_END, short. */
static const struct {
	const char *head, *says, *fix;
} known[] = {
	{ "needs root", "not root", "run as root" },
	{ "needs --allow-sleep", "no --allow-sleep", "add --allow-sleep" },
	{ "needs --allow-disk", "no --allow-disk", "add --allow-disk" },
	{ "no device to test", "no devices", NULL },
	{ "every device skipped", "no devices", NULL },
};

#define MAX_WHY 8

void rn_untested_why(const struct rn_run *r, char *buf, size_t len)
{
	char head[MAX_WHY][96], tmp[96];
	unsigned int count[MAX_WHY], nprogs = 0, other = 0;
	const char *fix[MAX_WHY], *why;
	struct rn_buf b = { 0 };
	size_t i, j, n = 0, k;

	for (i = 0; i < r->nprogs; i++) {
		if (rn_prog_is_recheck(&r->progs[i]))
			continue;
		nprogs++;
		why = rn_skip_reason(&r->progs[i]);
		if (!why[0])
			why = "no result";
		snprintf(tmp, sizeof(tmp), "%.*s", (int)strcspn(why, ":("),
			 why);
		k = strlen(tmp);
		while (k && tmp[k - 1] == ' ')
			tmp[--k] = '\0';
		for (j = 0; j < sizeof(known) / sizeof(known[0]); j++)
			if (!strcmp(tmp, known[j].head))
				break;
		if (j < sizeof(known) / sizeof(known[0]))
			snprintf(tmp, sizeof(tmp), "%s", known[j].says);
		for (k = 0; k < n && strcmp(head[k], tmp); k++)
			;
		if (k < n) {
			count[k]++;
		} else if (n < MAX_WHY) {
			snprintf(head[n], sizeof(head[n]), "%s", tmp);
			count[n] = 1;
			fix[n++] = j < sizeof(known) / sizeof(known[0]) ?
				known[j].fix : NULL;
		} else {
			other++;
		}
	}
	rn_buf_printf(&b, "nothing was tested: %u program%s skipped", nprogs,
		      nprogs == 1 ? "" : "s");
	for (k = 0; k < n; k++)
		rn_buf_printf(&b, "%s %s (%u%s%s)", k ? "," : ":", head[k],
			      count[k], fix[k] ? ": " : "",
			      fix[k] ? fix[k] : "");
	if (other)
		rn_buf_printf(&b, ", %u for other reasons", other);
	snprintf(buf, len, "%s", b.s ? b.s : "nothing was tested");
	rn_buf_free(&b);
}
