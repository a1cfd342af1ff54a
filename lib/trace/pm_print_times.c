// SPDX-License-Identifier: GPL-2.0-only
/*
 * pm_print_times.c - the kernel's per-callback times from its log
 * (pm_print_times.h).  The dev_info() prefix is "<driver> <dev>: " with
 * <driver> from dev_driver_string() (maybe ""); either may hold spaces,
 * so the prefix is kept whole.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pm_print_times.h"
#include "trace/sleep_trace.h"

static void copy_n(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "<sym>+0x0/0x50" of length n: the symbol. */
static void set_func(struct devpm_pm_print *o, const char *s, size_t n)
{
	const char *plus = memchr(s, '+', n);

	copy_n(o->func, sizeof(o->func), s, plus ? (size_t)(plus - s) : n);
}

/* "<sym> [mod]" or "<sym>": where the symbol ends. */
static const char *sym_end(const char *s)
{
	return s + strcspn(s, " ");
}

/* "calling <sym>[ [mod]] @ <pid>, parent: <p>" */
static int parse_calling(const char *s, struct devpm_pm_print *o)
{
	const char *sym = s + strlen("calling "), *at;
	char *e;
	long pid;

	at = strstr(sym, " @ ");
	if (!at || sym_end(sym) == sym)
		return 0;
	pid = strtol(at + 3, &e, 10);
	if (e == at + 3 || strncmp(e, ", parent: ", 10) || pid < 0)
		return 0;
	set_func(o, sym, sym_end(sym) - sym);
	o->pid = pid;
	return 1;
}

/* "<sym>[ [mod]] returned <err> after <n> usecs" */
static int parse_returned(const char *s, struct devpm_pm_print *o)
{
	const char *ret = strstr(s, " returned "), *p;
	unsigned long long us;
	char *e;
	long err;

	if (!ret || sym_end(s) == s || sym_end(s) > ret)
		return 0;
	p = ret + strlen(" returned ");
	err = strtol(p, &e, 10);
	if (e == p || strncmp(e, " after ", 7))
		return 0;
	p = e + 7;
	us = strtoull(p, &e, 10);
	if (e == p || strcmp(e, " usecs"))
		return 0;
	set_func(o, s, sym_end(s) - s);
	o->err = err;
	o->usecs = us;
	return 2;
}

int devpm_pm_print_parse(const char *line, struct devpm_pm_print *out)
{
	const char *p = strstr(line, ": PM: "), *rest;

	memset(out, 0, sizeof(*out));
	if (p) {
		rest = p + strlen(": PM: ");
	} else {
		/* Kernels without main.c's pr_fmt: "<who>: calling ..." */
		p = strstr(line, ": calling ");
		if (!p) {
			p = strstr(line, " returned ");
			while (p && p > line && p[-1] != ' ')
				p--;
			if (!p || p - line < 3 || strncmp(p - 2, ": ", 2))
				return 0;
			p -= 2;
		}
		rest = p + 2;
	}
	if (p == line || (size_t)(p - line) >= sizeof(out->who))
		return 0;
	copy_n(out->who, sizeof(out->who), line, p - line);
	if (!strncmp(rest, "calling ", 8))
		return parse_calling(rest, out);
	return parse_returned(rest, out);
}

void devpm_pm_prints_line(const char *line, void *prints)
{
	struct devpm_pm_prints *p = prints;
	struct devpm_pm_print o, *np;
	size_t i;
	int k = devpm_pm_print_parse(line, &o);

	if (k == 1) {
		if (p->n == p->cap) {
			p->cap = p->cap ? p->cap * 2 : 256;
			np = realloc(p->rec, p->cap * sizeof(*np));
			if (!np)
				return;
			p->rec = np;
		}
		o.usecs = UINT64_MAX;	/* open until "returned" */
		p->rec[p->n++] = o;
		return;
	}
	if (k != 2)
		return;
	for (i = p->n; i-- > 0;) {
		struct devpm_pm_print *r = &p->rec[i];

		if (r->usecs != UINT64_MAX || strcmp(r->who, o.who) ||
		    strcmp(r->func, o.func))
			continue;
		r->usecs = o.usecs;
		r->err = o.err;
		return;
	}
	p->unmatched++;
}

void devpm_pm_prints_free(struct devpm_pm_prints *p)
{
	free(p->rec);
	memset(p, 0, sizeof(*p));
}

/* Is "<driver> <dev>" of cb who? */
static bool is_who(const struct devpm_pm_cb *cb, const char *who)
{
	size_t dl = strlen(cb->driver);

	return !strncmp(who, cb->driver, dl) && who[dl] == ' ' &&
	       !strcmp(who + dl + 1, cb->dev);
}

const struct devpm_pm_print *
devpm_pm_print_for(const struct devpm_pm_prints *p,
		   const struct devpm_sleep_cycle *c,
		   const struct devpm_pm_cb *cb)
{
	size_t i, k = 0;

	if (cb->phase == DEVPM_PH_PREPARE || cb->phase == DEVPM_PH_COMPLETE)
		return NULL;
	for (i = 0; i < c->ncb && &c->cb[i] != cb; i++)
		if (c->cb[i].phase != DEVPM_PH_PREPARE &&
		    c->cb[i].phase != DEVPM_PH_COMPLETE &&
		    !strcmp(c->cb[i].dev, cb->dev) &&
		    !strcmp(c->cb[i].driver, cb->driver))
			k++;
	for (i = 0; i < p->n; i++) {
		if (!is_who(cb, p->rec[i].who))
			continue;
		if (!k--)
			return p->rec[i].usecs == UINT64_MAX ? NULL :
			       &p->rec[i];
	}
	return NULL;
}

int devpm_pm_print_agree(uint64_t trace_us, uint64_t kernel_us, char *why,
			 size_t len)
{
	uint64_t lim = kernel_us / 10 > 200 ? kernel_us / 10 : 200;
	uint64_t d = trace_us > kernel_us ? trace_us - kernel_us :
		     kernel_us - trace_us;

	/*
	 * dpm_run_callback() takes the kernel's calltime before
	 * trace_device_pm_callback_start and its rettime after _end: its
	 * window holds the trace's, and an interrupt in the gap (the
	 * pm_print_times printk's own serial console, under TCG) lengthens
	 * the kernel's figure only.  Seen: 269 us on a 9 us callback.
	 */
	if (kernel_us > trace_us)
		lim += DEVPM_PM_PRINT_GAP_US;

	snprintf(why, len, "trace %llu us, kernel %llu us (differ by %llu, limit %llu)",
		 (unsigned long long)trace_us, (unsigned long long)kernel_us,
		 (unsigned long long)d, (unsigned long long)lim);
	return d > lim;
}

/*
 * Every traced callback of dev outside prepare/complete against the
 * kernel's record: 0 all agree, 1 not (why says the first that does
 * not), 2 not, but only by the kernel's figure being the larger: its
 * window holds the trace's, and the gap between them was interrupted.
 * kern gets "phase=us ..." of the kernel's figures.
 */
int devpm_pm_print_dev_agree(const struct devpm_sleep_cycle *c,
			     const struct devpm_pm_prints *pr, const char *dev,
			     char *kern, size_t klen, char *why, size_t len)
{
	size_t i, used = 0;
	bool only_longer = true;
	int bad = 0;
	char w[256];

	kern[0] = '\0';
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];
		const struct devpm_pm_print *k;
		const char *ph = devpm_pm_phase_name(cb->phase);

		if (strcmp(cb->dev, dev) || cb->phase == DEVPM_PH_PREPARE ||
		    cb->phase == DEVPM_PH_COMPLETE)
			continue;
		k = devpm_pm_print_for(pr, c, cb);
		if (!k) {
			only_longer = false;
			if (!bad++)
				snprintf(why, len, "%s: no pm_print_times record of the kernel for it",
					 ph);
			continue;
		}
		if (used < klen)
			used += snprintf(kern + used, klen - used, "%s%s=%llu",
					 used ? " " : "", ph,
					 (unsigned long long)k->usecs);
		if (devpm_pm_print_agree(devpm_pm_cb_dur(cb), k->usecs, w,
					 sizeof(w))) {
			if (k->usecs < devpm_pm_cb_dur(cb))
				only_longer = false;
			if (!bad++)
				snprintf(why, len, "%s %s: %s", ph, k->func, w);
		}
		if (k->pid && k->pid != cb->pid) {
			only_longer = false;
			if (!bad++)
				snprintf(why, len, "%s: the kernel ran it in pid %d, the trace says lane %d",
					 ph, k->pid, cb->pid);
		} else if (k->err != cb->err) {
			only_longer = false;
			if (!bad++)
				snprintf(why, len, "%s: the kernel says it returned %d, the trace %d",
					 ph, k->err, cb->err);
		}
	}
	return !bad ? 0 : only_longer ? 2 : 1;
}

int devpm_pm_prints_save(const struct devpm_pm_prints *p, FILE *f)
{
	size_t i;

	fprintf(f, "unmatched\t%zu\n", p->unmatched);
	for (i = 0; i < p->n; i++) {
		const struct devpm_pm_print *r = &p->rec[i];

		fprintf(f, "rec\t%d\t%d\t%llu\t%s\t%s\n", r->pid, r->err,
			(unsigned long long)r->usecs, r->func, r->who);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

int devpm_pm_prints_load(FILE *f, struct devpm_pm_prints *p)
{
	struct devpm_pm_print r, *np;
	char line[512], *fl[6], *s;
	int n;

	memset(p, 0, sizeof(*p));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (n = 0, s = line; n < 6 && s; n++) {
			fl[n] = s;
			s = strchr(s, '\t');
			if (s)
				*s++ = '\0';
		}
		if (n == 2 && !strcmp(fl[0], "unmatched")) {
			p->unmatched = strtoul(fl[1], NULL, 10);
			continue;
		}
		if (n != 6 || strcmp(fl[0], "rec")) {
			devpm_pm_prints_free(p);
			return -EINVAL;
		}
		memset(&r, 0, sizeof(r));
		r.pid = atoi(fl[1]);
		r.err = atoi(fl[2]);
		r.usecs = strtoull(fl[3], NULL, 10);
		snprintf(r.func, sizeof(r.func), "%s", fl[4]);
		snprintf(r.who, sizeof(r.who), "%s", fl[5]);
		if (p->n == p->cap) {
			p->cap = p->cap ? p->cap * 2 : 256;
			np = realloc(p->rec, p->cap * sizeof(*np));
			if (!np) {
				devpm_pm_prints_free(p);
				return -ENOMEM;
			}
			p->rec = np;
		}
		p->rec[p->n++] = r;
	}
	return 0;
}

int devpm_pm_prints_agree_all(const struct devpm_sleep_cycle *c,
			      const struct devpm_pm_prints *pr, int *ndev,
			      char *why, size_t len)
{
	char kern[512], w[512], seen[64][128];
	int nseen = 0, bad = 0, longer = 0, j;
	size_t i;

	*ndev = 0;
	why[0] = '\0';
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];
		int r;

		if (cb->phase == DEVPM_PH_PREPARE ||
		    cb->phase == DEVPM_PH_COMPLETE)
			continue;
		for (j = 0; j < nseen && strcmp(seen[j], cb->dev); j++)
			;
		if (j < nseen)
			continue;
		if (nseen < 64)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", cb->dev);
		(*ndev)++;
		r = devpm_pm_print_dev_agree(c, pr, cb->dev, kern, sizeof(kern),
					     w, sizeof(w));
		if (!r)
			continue;
		longer += r == 2;
		if (!bad++)
			snprintf(why, len, "%s (%s): %s", cb->dev,
				 cb->driver[0] ? cb->driver : "no driver", w);
	}
	if (bad)
		snprintf(why + strlen(why), len - strlen(why),
			 "; %d of %d devices disagree", bad, *ndev);
	return !bad ? 0 : longer == bad ? 2 : 1;
}
