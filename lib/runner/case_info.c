// SPDX-License-Identifier: GPL-2.0-only
/* case_info.c - times, kernel log and properties of results (case_info.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "case_info.h"

int rn_wall_time(const struct rn_run *r, uint64_t mono_us, enum rn_time_fmt f,
		 char *buf, size_t len)
{
	struct tm tm;
	char *end;
	time_t t;
	int64_t off;
	long ms;

	buf[0] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = r->started ? strptime(r->started, "%Y-%m-%dT%H:%M:%S", &tm) :
	      NULL;
	if (!end || (*end && strcmp(end, "Z")))
		return -1;
	off = (int64_t)(mono_us - r->start_us);
	if (!mono_us || mono_us < r->start_us)
		off = 0;
	t = timegm(&tm) + off / 1000000;
	ms = (long)(off % 1000000) / 1000;
	if (!gmtime_r(&t, &tm))
		return -1;
	switch (f) {
	case RN_TIME_ANT:
		strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
		break;
	case RN_TIME_KCIDB:
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ld000+00:00",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
		break;
	default:
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
	}
	return 0;
}

uint64_t rn_case_start_us(const struct rn_prog *p, const struct rn_case *c)
{
	return c && c->start_us ? c->start_us : p->start_us;
}

char *rn_where(const struct rn_prog *p, const struct rn_case *c)
{
	if (!c)
		return rn_xasprintf("%s/%s", p->suite, p->name);
	return rn_xasprintf("%s/%s/%s", p->suite, p->name, c->name);
}

size_t rn_klog_of(const struct rn_run *r, const char *where, size_t max,
		  size_t *idx, size_t *total)
{
	size_t i, n = 0, all = 0, nbad = 0, room;

	for (i = 0; i < r->nklog; i++) {
		if (strcmp(r->klog[i].where, where))
			continue;
		all++;
		nbad += r->klog[i].bad;
	}
	if (total)
		*total = all;
	/* Room left for the ordinary lines once every bad one is in. */
	room = max > nbad ? max - nbad : 0;
	for (i = 0; i < r->nklog && n < max; i++) {
		if (strcmp(r->klog[i].where, where))
			continue;
		if (r->klog[i].bad) {
			idx[n++] = i;
		} else if (room) {
			idx[n++] = i;
			room--;
		}
	}
	return n;
}

char *rn_klog_excerpt(const struct rn_run *r, const char *where, size_t max)
{
	size_t *idx = rn_xmalloc((max + 1) * sizeof(*idx)), n, i, total;
	struct rn_buf b = { 0 };
	const struct rn_klog *k;

	n = rn_klog_of(r, where, max, idx, &total);
	for (i = 0; i < n; i++) {
		k = &r->klog[idx[i]];
		rn_buf_printf(&b, "[%5" PRIu64 ".%06" PRIu64 "] %s%s\n",
			      k->ts_us / 1000000, k->ts_us % 1000000,
			      k->bad ? "BAD " : "", k->text);
	}
	if (total > n)
		rn_buf_printf(&b, "(%zu more kernel log line(s) during %s in dmesg.log)\n",
			      total - n, where);
	free(idx);
	return b.s ? b.s : rn_xstrdup("");
}

const char *rn_config_sha256(const struct rn_run *r)
{
	const char *v = rn_env_get(r, "config_sha256");
	size_t i;

	if (!v || strlen(v) != 64)
		return "";
	for (i = 0; i < 64; i++)
		if (!strchr("0123456789abcdef", v[i]))
			return "";
	return v;
}

static void prop(struct rn_prop **v, size_t *n, size_t *cap, const char *key,
		 const char *value)
{
	rn_grow(v, cap, *n, sizeof(**v));
	(*v)[*n].key = key;
	(*v)[(*n)++].value = rn_xstrdup(value ? value : "");
}

size_t rn_run_props(const struct rn_run *r, struct rn_prop **props)
{
	/* Every run has these; "machine" and "config_sha256" are made. */
	static const char *const keys[] = {
		"devpm_version", "run_id", "hostname", "kernel_release",
		"kernel_version", "config_sha256", "arch", "machine",
		"cmdline", "opt_suites", "opt_test", "opt_allow_sleep",
		"opt_allow_disk", "opt_timeout_s", NULL,
	};
	/* What a runner adds (qemu/run.sh's --env), when it did. */
	static const char *const added[] = {
		"profile", "accel", "kernel_pkg", "boot", NULL,
	};
	const char *vendor = rn_env_get(r, "sys_vendor");
	const char *product = rn_env_get(r, "product_name");
	size_t n = 0, cap = 0, i;
	char *machine;

	*props = NULL;
	for (i = 0; keys[i]; i++) {
		if (!strcmp(keys[i], "run_id")) {
			prop(props, &n, &cap, keys[i], r->run_id);
		} else if (!strcmp(keys[i], "config_sha256")) {
			prop(props, &n, &cap, keys[i], rn_config_sha256(r));
		} else if (!strcmp(keys[i], "machine")) {
			machine = rn_xasprintf("%s%s%s", vendor ? vendor : "",
					       vendor && product ? " " : "",
					       product ? product : "");
			prop(props, &n, &cap, keys[i], machine);
			free(machine);
		} else {
			prop(props, &n, &cap, keys[i], rn_env_get(r, keys[i]));
		}
	}
	for (i = 0; added[i]; i++)
		if (rn_env_get(r, added[i]))
			prop(props, &n, &cap, added[i], rn_env_get(r, added[i]));
	return n;
}

void rn_props_free(struct rn_prop *props, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(props[i].value);
	free(props);
}
