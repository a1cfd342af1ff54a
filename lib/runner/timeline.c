// SPDX-License-Identifier: GPL-2.0-only
/*
 * timeline.c - TIMELINE diagnostic lines (timeline.h) read from a run's
 * stream and drawn as SVG in the spirit of the kernel's sleepgraph: a row
 * per device with its callbacks as bars at their start, width their
 * duration, coloured by phase; below, a row per lane (the kernel thread
 * that ran the callbacks: async suspend runs several at once).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "timeline.h"

static const struct {
	const char *name, *color;
} phases[] = {
	{ "prepare", "#c6dbef" },
	{ "suspend", "#6baed6" },
	{ "suspend_late", "#3182bd" },
	{ "suspend_noirq", "#08519c" },
	{ "resume_noirq", "#006d2c" },
	{ "resume_early", "#31a354" },
	{ "resume", "#74c476" },
	{ "complete", "#c7e9c0" },
	{ "rpm_suspend", "#fd8d3c" },
	{ "rpm_resume", "#9e9ac8" },
};

#define NPHASES (sizeof(phases) / sizeof(phases[0]))

static int phase_index(const char *name)
{
	size_t i;

	for (i = 0; i < NPHASES; i++)
		if (!strcmp(phases[i].name, name))
			return (int)i;
	return -1;
}

void rn_tl_event_free(struct rn_tl_event *ev)
{
	free(ev->cycle);
	free(ev->phase);
	free(ev->device);
	free(ev->driver);
	free(ev->where);
	memset(ev, 0, sizeof(*ev));
}

/* A field: non-empty, no blanks (the split guarantees), printable. */
static bool field_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || *s == 0x7f)
			return false;
	return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static bool parse_int(const char *s, int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < -4095 || n > 0x7fffffff)
		return false;
	*v = (int)n;
	return true;
}

int rn_tl_parse(const char *line, struct rn_tl_event *ev)
{
	static const char tag[] = "# TIMELINE ";
	char *copy, *f[8], *save = NULL, *tok;
	uint64_t lane;
	size_t n = 0;
	int ok;

	line += strspn(line, " \t");
	if (strncmp(line, tag, sizeof(tag) - 1))
		return 0;
	copy = rn_xstrdup(line + sizeof(tag) - 1);
	/* Single spaces: an empty field is a malformed line. */
	ok = !strstr(copy, "  ") && copy[0] != ' ';
	for (tok = strtok_r(copy, " ", &save); ok && tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (n == 8) {
			ok = 0;
			break;
		}
		f[n++] = tok;
	}
	memset(ev, 0, sizeof(*ev));
	ok = ok && n == 8 && field_ok(f[0]) && phase_index(f[1]) >= 0 &&
	     field_ok(f[2]) && field_ok(f[3]) && parse_u64(f[4], &lane) &&
	     lane <= 0x7fffffff && parse_u64(f[5], &ev->start_us) &&
	     parse_u64(f[6], &ev->dur_us) && parse_int(f[7], &ev->err);
	if (ok) {
		ev->cycle = rn_xstrdup(f[0]);
		ev->phase = rn_xstrdup(f[1]);
		ev->device = rn_xstrdup(f[2]);
		ev->driver = rn_xstrdup(f[3]);
		ev->lane = (int)lane;
	}
	free(copy);
	return ok ? 1 : -1;
}

void rn_tl_free(struct rn_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->n; i++)
		rn_tl_event_free(&tl->ev[i]);
	free(tl->ev);
	free(tl->first_bad);
	memset(tl, 0, sizeof(*tl));
}

/* "#  RUN           fixture.case ..." -> "case". */
static bool run_case(const char *s, char *name, size_t len)
{
	const char *p, *dot;
	size_t n;

	s += strspn(s, " \t");
	if (strncmp(s, "#  RUN ", 7))
		return false;
	s += 7;
	s += strspn(s, " ");
	n = strcspn(s, " ");
	dot = NULL;
	for (p = s; p < s + n; p++)
		if (*p == '.')
			dot = p;
	if (dot) {
		n -= dot + 1 - s;
		s = dot + 1;
	}
	snprintf(name, len, "%.*s", (int)n, s);
	return n > 0;
}

static void add_record(struct rn_timeline *tl, const char *rec)
{
	size_t n = strcspn(rec, " ");
	struct rn_tl_event ev;
	char *line;
	int r;

	line = rn_xasprintf("# TIMELINE %s", rec[n] ? rec + n + 1 : "");
	r = rn_tl_parse(line, &ev);
	if (r <= 0 || !n) {
		if (!tl->bad++)
			tl->first_bad = rn_clean_text(rec);
		if (r > 0)
			rn_tl_event_free(&ev);
	} else {
		ev.where = rn_xstrndup(rec, n);
		ev.runner = true;
		rn_grow(&tl->ev, &tl->cap, tl->n, sizeof(tl->ev[0]));
		tl->ev[tl->n++] = ev;
	}
	free(line);
}

int rn_tl_read_stream(const char *path, struct rn_timeline *tl)
{
	char prog[256] = "", kase[256] = "", *all, *line, *next, *text;
	struct rn_tl_event ev;
	unsigned long long us;
	size_t n, len;
	int r, off;

	/* As rn_stream_read(): a regular file of bounded size only. */
	all = rn_read_file(path, &n);
	if (!all)
		return -errno;
	for (line = all; line < all + n; line = next) {
		next = memchr(line, '\n', all + n - line);
		len = next ? (size_t)(next - line) : (size_t)(all + n - line);
		next = next ? next + 1 : all + n;
		while (len && line[len - 1] == '\r')
			len--;
		line[len] = '\0';
		if (sscanf(line, "PROG %llu %255s", &us, prog) == 2) {
			kase[0] = '\0';
			continue;
		}
		/* The runner's: "TIMELINE <where> <fields>". */
		if (!strncmp(line, "TIMELINE ", 9)) {
			add_record(tl, line + 9);
			continue;
		}
		off = 0;
		if (sscanf(line, "OUT %llu %n", &us, &off) != 1 || !off)
			continue;
		text = line + off;
		if (run_case(text, kase, sizeof(kase)))
			continue;
		r = rn_tl_parse(text, &ev);
		if (r < 0) {
			if (!tl->bad++)
				tl->first_bad = rn_clean_text(text);
			continue;
		}
		if (!r)
			continue;
		ev.where = rn_xasprintf("%s%s%s", prog, kase[0] ? "/" : "",
					kase);
		rn_grow(&tl->ev, &tl->cap, tl->n, sizeof(tl->ev[0]));
		tl->ev[tl->n++] = ev;
	}
	free(all);
	return 0;
}

size_t rn_tl_cycles(const struct rn_timeline *tl, const char ***names)
{
	size_t i, j, n = 0;

	*names = rn_xmalloc((tl->n + 1) * sizeof(**names));
	for (i = 0; i < tl->n; i++) {
		for (j = 0; j < n && strcmp((*names)[j], tl->ev[i].cycle); j++)
			;
		if (j == n)
			(*names)[n++] = tl->ev[i].cycle;
	}
	return n;
}

/* Geometry of the drawing, in px. */
#define W_TOTAL		1100
#define W_LABEL		300
#define W_CHART		(W_TOTAL - W_LABEL - 20)
#define ROW_H		18
#define TOP		40

struct row {
	const char *key;	/* device name, or lane as text */
	const char *driver;
	int lane;
	int err;		/* first non-zero return on the row */
	uint64_t max_us;	/* its longest callback */
	bool folded;		/* drawn in the shared last row */
};

static size_t row_of(struct row **rows, size_t *n, size_t *cap,
		     const char *key)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*rows)[i].key, key))
			return i;
	rn_grow(rows, cap, *n, sizeof(**rows));
	(*rows)[*n].key = key;
	return (*n)++;
}

static void bar(struct rn_buf *b, const struct rn_tl_event *e, double scale,
		double y)
{
	double x = W_LABEL + e->start_us * scale;
	double w = e->dur_us * scale;

	if (w < 1)
		w = 1;
	rn_buf_printf(b, "<rect class=\"cb\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s><title>",
		      x, y + 2, w, ROW_H - 4,
		      phases[phase_index(e->phase)].color,
		      e->err ? " stroke=\"#d00\" stroke-width=\"2\"" : "");
	rn_xml_escape(b, e->device);
	rn_buf_add(b, " (");
	rn_xml_escape(b, e->driver);
	rn_buf_printf(b, ") %s: start %" PRIu64 " \xc2\xb5s, %" PRIu64
		      " \xc2\xb5s, lane %d, err %d</title></rect>\n",
		      e->phase, e->start_us, e->dur_us, e->lane, e->err);
	if (w >= 46)
		rn_buf_printf(b, "<text class=\"dur\" x=\"%.1f\" y=\"%.1f\">%" PRIu64 " \xc2\xb5s</text>\n",
			      x + 3, y + ROW_H - 5, e->dur_us);
}

static void axis(struct rn_buf *b, uint64_t total, double scale, int height)
{
	uint64_t step = 1, t;
	double x;

	while (total / step > 8)
		step *= step % 3 == 1 ? 2 : 5;	/* 1 2 10 20 100 ... */
	for (t = 0; t <= total; t += step) {
		x = W_LABEL + t * scale;
		rn_buf_printf(b, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
			      x, TOP - 6, x, height);
		if (x > W_TOTAL - 60)
			continue;	/* its label would be cut off */
		if (t >= 10000)
			rn_buf_printf(b, "<text class=\"ax\" x=\"%.1f\" y=\"%d\">%.1f ms</text>\n",
				      x + 2, TOP - 10, t / 1000.0);
		else
			rn_buf_printf(b, "<text class=\"ax\" x=\"%.1f\" y=\"%d\">%" PRIu64 " \xc2\xb5s</text>\n",
				      x + 2, TOP - 10, t);
	}
}

static void label(struct rn_buf *b, double y, const char *text,
		  const char *sub, int err)
{
	rn_buf_printf(b, "<text class=\"lbl%s\" x=\"4\" y=\"%.1f\">", err ?
		      " err" : "", y + ROW_H - 5);
	rn_xml_escape(b, text);
	if (sub) {
		rn_buf_add(b, " <tspan class=\"drv\">");
		rn_xml_escape(b, sub);
		rn_buf_add(b, "</tspan>");
	}
	if (err)
		rn_buf_printf(b, " err %d", err);
	rn_buf_add(b, "</text>\n");
}

/* The devices of a cycle as rows, with their longest callbacks. */
static size_t dev_rows(const struct rn_timeline *tl, const char *cycle,
		       uint64_t fold_us, struct row **rows)
{
	size_t n = 0, cap = 0, i, r;

	*rows = NULL;
	for (i = 0; i < tl->n; i++) {
		const struct rn_tl_event *e = &tl->ev[i];

		if (strcmp(e->cycle, cycle))
			continue;
		r = row_of(rows, &n, &cap, e->device);
		(*rows)[r].driver = e->driver;
		if (e->err && !(*rows)[r].err)
			(*rows)[r].err = e->err;
		if (e->dur_us > (*rows)[r].max_us)
			(*rows)[r].max_us = e->dur_us;
	}
	for (r = 0; fold_us && r < n; r++)
		(*rows)[r].folded = (*rows)[r].max_us < fold_us &&
				    !(*rows)[r].err;
	return n;
}

static int slowest_first(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->folded != y->folded)
		return x->folded ? 1 : -1;
	if (x->max_us != y->max_us)
		return x->max_us < y->max_us ? 1 : -1;
	return strcmp(x->key, y->key);
}

void rn_tl_summary(const struct rn_timeline *tl, const char *cycle,
		   uint64_t fold_us, struct rn_tl_sum *s)
{
	struct row *rows;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->ndev = dev_rows(tl, cycle, fold_us, &rows);
	for (i = 0; i < s->ndev; i++) {
		s->nshown += !rows[i].folded;
		s->nerr += rows[i].err != 0;
	}
	for (i = 0; i < tl->n; i++) {
		if (strcmp(tl->ev[i].cycle, cycle))
			continue;
		if (!s->where)
			s->where = tl->ev[i].where;
		if (!s->slowest || tl->ev[i].dur_us > s->slowest->dur_us)
			s->slowest = &tl->ev[i];
	}
	free(rows);
}

static bool in_folded(const struct row *devs, size_t ndev, const char *dev)
{
	size_t i;

	for (i = 0; i < ndev; i++)
		if (!strcmp(devs[i].key, dev))
			return devs[i].folded;
	return false;
}

void rn_tl_svg(struct rn_buf *b, const struct rn_timeline *tl,
	       const char *cycle, uint64_t fold_us)
{
	struct row *devs = NULL, *lanes = NULL;
	size_t ndev, nlane = 0, clane = 0, i, r, nfold = 0, nrows;
	char (*lane_keys)[16], fold[96];
	bool used[NPHASES] = { false };
	uint64_t total = 1;
	double scale, y;
	int height, lx;

	ndev = dev_rows(tl, cycle, fold_us, &devs);
	if (fold_us)
		qsort(devs, ndev, sizeof(*devs), slowest_first);
	for (r = 0; r < ndev; r++)
		nfold += devs[r].folded;
	lane_keys = rn_xmalloc((tl->n + 1) * sizeof(*lane_keys));
	for (i = 0; i < tl->n; i++) {
		const struct rn_tl_event *e = &tl->ev[i];

		if (strcmp(e->cycle, cycle))
			continue;
		if (e->start_us + e->dur_us > total)
			total = e->start_us + e->dur_us;
		used[phase_index(e->phase)] = true;
		snprintf(lane_keys[i], sizeof(lane_keys[i]), "%d", e->lane);
		r = row_of(&lanes, &nlane, &clane, lane_keys[i]);
		lanes[r].lane = e->lane;
	}
	nrows = ndev - nfold + (nfold > 0);
	scale = (double)W_CHART / total;
	height = TOP + (int)(nrows + nlane + 1) * ROW_H + 40;
	rn_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		      W_TOTAL, height, W_TOTAL, height);
	axis(b, total, scale, height - 36);
	y = TOP;
	for (r = 0; r < ndev && !devs[r].folded; r++, y += ROW_H) {
		label(b, y, devs[r].key, devs[r].driver, devs[r].err);
		for (i = 0; i < tl->n; i++)
			if (!strcmp(tl->ev[i].cycle, cycle) &&
			    !strcmp(tl->ev[i].device, devs[r].key))
				bar(b, &tl->ev[i], scale, y);
	}
	if (nfold) {
		snprintf(fold, sizeof(fold), "%zu more device%s, each < %llu \xc2\xb5s",
			 nfold, nfold == 1 ? "" : "s",
			 (unsigned long long)fold_us);
		label(b, y, fold, NULL, 0);
		for (i = 0; i < tl->n; i++)
			if (!strcmp(tl->ev[i].cycle, cycle) &&
			    in_folded(devs, ndev, tl->ev[i].device))
				bar(b, &tl->ev[i], scale, y);
		y += ROW_H;
	}
	rn_buf_printf(b, "<text class=\"sect\" x=\"4\" y=\"%.1f\">async lanes (kernel thread pid): %zu</text>\n",
		      y + ROW_H - 4, nlane);
	y += ROW_H;
	for (r = 0; r < nlane; r++, y += ROW_H) {
		label(b, y, "lane", lanes[r].key, 0);
		for (i = 0; i < tl->n; i++)
			if (!strcmp(tl->ev[i].cycle, cycle) &&
			    tl->ev[i].lane == lanes[r].lane)
				bar(b, &tl->ev[i], scale, y);
	}
	/* Legend: the phases present. */
	lx = W_LABEL;
	for (i = 0; i < NPHASES; i++) {
		if (!used[i])
			continue;
		rn_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text class=\"ax\" x=\"%d\" y=\"%d\">%s</text>\n",
			      lx, height - 28, phases[i].color, lx + 16,
			      height - 18, phases[i].name);
		lx += 30 + 7 * (int)strlen(phases[i].name);
	}
	rn_buf_add(b, "</svg>\n");
	free(devs);
	free(lanes);
	free(lane_keys);
}
