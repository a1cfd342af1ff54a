// SPDX-License-Identifier: GPL-2.0-only
/*
 * qos.c - PM QoS from the kernel's own records (qos.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qos/qos.h"
#include "core/sysfs.h"
#include "state/journal.h"
#include "trace/trace.h"
#include "trace/transition.h"

const char *const devpm_qos_events[] = {
	"power:dev_pm_qos_add_request",
	"power:dev_pm_qos_update_request",
	"power:dev_pm_qos_remove_request",
	"power:pm_qos_update_target",
	"power:pm_qos_update_flags",
	"power:pm_qos_add_request",
	"power:pm_qos_update_request",
	"power:pm_qos_remove_request",
	NULL
};

int devpm_qos_trace_events(struct devpm_trace *t)
{
	int i, r, got = 0;

	for (i = 0; devpm_qos_events[i]; i++) {
		r = devpm_trace_add_event(t, devpm_qos_events[i], NULL);
		if (!r)
			got++;
		else if (r != -ENOENT)
			return r;
	}
	return got ? 0 : devpm_fail(ENOENT, "no power:*qos* trace events");
}

/* "dev_pm_qos_add_request" -> "add"; NULL when not a request event. */
static const char *dev_req_kind(const char *event)
{
	static const char *const kinds[] = { "add", "update", "remove" };
	char name[48];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "dev_pm_qos_%s_request",
			 kinds[i]);
		if (!strcmp(event, name))
			return kinds[i];
	}
	return NULL;
}

static const char *cpu_req_kind(const char *event)
{
	static const char *const kinds[] = { "add", "update", "remove" };
	char name[48];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "pm_qos_%s_request", kinds[i]);
		if (!strcmp(event, name))
			return kinds[i];
	}
	return NULL;
}

/*
 * A request event as (kind, device, type, value); device "" and type "CPU"
 * for the CPU latency list.  0, or -EINVAL when e is none.
 */
static int parse_req(const struct devpm_event *e, const char **kind,
		     char *dev, size_t dlen, char *type, size_t tlen,
		     int *value)
{
	char d[128], ty[32];

	*kind = dev_req_kind(e->event);
	if (*kind) {
		if (sscanf(e->raw, "device=%127s type=%31s new_value=%d", d,
			   ty, value) != 3)
			return -EINVAL;
		snprintf(dev, dlen, "%s", d);
		snprintf(type, tlen, "%s", ty);
		return 0;
	}
	*kind = cpu_req_kind(e->event);
	if (!*kind || sscanf(e->raw, "CPU_DMA_LATENCY value=%d", value) != 1)
		return -EINVAL;
	dev[0] = '\0';
	snprintf(type, tlen, "CPU");
	return 0;
}

static int parse_target(const struct devpm_event *e, char *action,
			size_t len, int *prev, int *curr)
{
	char a[16];

	if (strcmp(e->event, "pm_qos_update_target") ||
	    sscanf(e->raw, "action=%15s prev_value=%d curr_value=%d", a, prev,
		   curr) != 3)
		return -EINVAL;
	snprintf(action, len, "%s", a);
	return 0;
}

size_t devpm_qos_updates(const struct devpm_event *ev, size_t n,
			 const char *dev, const char *type, uint64_t from_us,
			 struct devpm_qos_update *out, size_t max)
{
	struct devpm_qos_update cur;
	size_t i, count = 0;
	bool open = false;

	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];
		char d[128], ty[32], action[16];
		const char *kind;
		int v, prev, curr;

		if (e->ts_us < from_us)
			continue;
		if (!parse_req(e, &kind, d, sizeof(d), ty, sizeof(ty), &v)) {
			/* Any other request ends the one in progress. */
			open = false;
			if (strcmp(d, dev ? dev : "") ||
			    (type && strcmp(ty, type)))
				continue;
			memset(&cur, 0, sizeof(cur));
			cur.ts_us = e->ts_us;
			snprintf(cur.req, sizeof(cur.req), "%s", kind);
			snprintf(cur.type, sizeof(cur.type), "%s", ty);
			cur.value = v;
			if (count < max)
				out[count] = cur;
			count++;
			open = true;
			continue;
		}
		if (!open || parse_target(e, action, sizeof(action), &prev,
					  &curr))
			continue;
		open = false;
		if (count - 1 < max) {
			struct devpm_qos_update *u = &out[count - 1];

			u->changed = true;
			snprintf(u->action, sizeof(u->action), "%s", action);
			u->prev = prev;
			u->curr = curr;
		}
	}
	return count;
}

int devpm_qos_check_aggregate(const struct devpm_qos_update *u, size_t k,
			      int expect, char *msg, size_t len)
{
	const struct devpm_qos_update *last;

	if (!k) {
		snprintf(msg, len, "no QoS request traced");
		return -ENOENT;
	}
	last = &u[k - 1];
	if (!last->changed) {
		snprintf(msg, len,
			 "%s request %d traced without pm_qos_update_target",
			 last->req, last->value);
		return -ENOENT;
	}
	if (last->curr == expect) {
		snprintf(msg, len, "%s %d: aggregate %d -> %d", last->req,
			 last->value, last->prev, last->curr);
		return 1;
	}
	snprintf(msg, len,
		 "after %s request %d the kernel's aggregate is %d (pm_qos_update_target curr_value), expected the minimum %d",
		 last->req, last->value, last->curr, expect);
	return 0;
}

int devpm_qos_refusals(const struct devpm_event *ev, size_t n,
		       const char *dev, int ret, uint64_t from_us)
{
	int count = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];

		if (e->type != DEVPM_EV_RPM_RETURN || e->ts_us < from_us ||
		    strcmp(e->dev, dev) || e->ret != ret)
			continue;
		if (!strncmp(e->func, "rpm_idle", 8) ||
		    !strncmp(e->func, "rpm_suspend", 11))
			count++;
	}
	return count;
}

int devpm_qos_resume_us(const struct devpm_event *ev, size_t n,
			const char *dev, uint64_t from_us, uint64_t to_us,
			uint64_t *us)
{
	struct devpm_call c[64];
	size_t k, i;
	int found = -ENOENT;

	k = devpm_rpm_calls(ev, n, dev, from_us, to_us, c, 64);
	if (k > 64)
		k = 64;
	for (i = 0; i < k; i++) {
		/* A real transition: synchronous, returned 0 (transition.h). */
		if (c[i].type != DEVPM_EV_RPM_RESUME ||
		    (c[i].flags & DEVPM_RPM_ASYNC) || !c[i].ret_us ||
		    c[i].ret)
			continue;
		*us = c[i].ret_us - c[i].call_us;
		found = 0;
	}
	return found;
}

int devpm_qos_limit_verdict(const char *dev, long limit_us,
			    uint64_t resume_us, bool traced,
			    const char *state, char *msg, size_t len)
{
	const char *st = state && state[0] ? state : "unknown";

	if (!traced) {
		snprintf(msg, len,
			 "%s: no completed rpm_resume traced (limit %ld us, state %s)",
			 dev, limit_us, st);
		return -ENOENT;
	}
	if (resume_us <= (uint64_t)limit_us) {
		snprintf(msg, len, "%s: resume %" PRIu64 " us <= limit %ld us (state %s)",
			 dev, resume_us, limit_us, st);
		return 1;
	}
	snprintf(msg, len,
		 "%s: resume took %" PRIu64 " us (rpm_resume to rpm_return_int) over the resume-latency limit %ld us; state entered: %s",
		 dev, resume_us, limit_us, st);
	return 0;
}

static const char *err_name(int err)
{
	static char buf[16];

	switch (-err) {
	case 0:
		return "accepted";
	case EINVAL:
		return "EINVAL";
	case ERANGE:
		return "ERANGE";
	case EIO:
		return "EIO";
	case EPERM:
		return "EPERM";
	}
	snprintf(buf, sizeof(buf), "errno %d", -err);
	return buf;
}

int devpm_qos_check_values(const char *kpath, const struct devpm_qos_bad *bad,
			   size_t n, char *msg, size_t len, char *log,
			   size_t loglen)
{
	char old[64], now[64];
	size_t i, used = 0;
	int r, ok = 1;

	msg[0] = '\0';
	if (log && loglen)
		log[0] = '\0';
	r = devpm_read_str(kpath, old, sizeof(old));
	if (r < 0)
		return r;
	for (i = 0; i < n; i++) {
		const struct devpm_qos_bad *b = &bad[i];

		r = devpm_knob_write(kpath, b->val);
		if (r > 0)
			r = 0;
		if (devpm_read_str(kpath, now, sizeof(now)) < 0)
			snprintf(now, sizeof(now), "(unreadable)");
		if (log && used < loglen)
			used += snprintf(log + used, loglen - used, "%s'%s':%s",
					 used ? " " : "", b->val, err_name(r));
		if (r != b->err && ok) {
			snprintf(msg, len,
				 "%s: writing '%s' gave %s, expected %s (now reads '%s')",
				 kpath, b->val, err_name(r), err_name(b->err),
				 now);
			ok = 0;
		} else if (b->err && strcmp(now, old) && ok) {
			snprintf(msg, len,
				 "%s: rejected '%s' (%s) but the value changed from '%s' to '%s'",
				 kpath, b->val, err_name(r), old, now);
			ok = 0;
		} else if (!b->err && b->reads && strcmp(now, b->reads) &&
			   ok) {
			snprintf(msg, len,
				 "%s: accepted '%s' but reads back '%s', expected '%s'",
				 kpath, b->val, now, b->reads);
			ok = 0;
		}
		/* Put the old value back for the next one (journaled). */
		if (strcmp(now, old) && devpm_knob_write(kpath, old) < 0 &&
		    ok) {
			snprintf(msg, len, "%s: cannot put back '%s': %s",
				 kpath, old, devpm_error());
			ok = 0;
		}
	}
	return ok;
}

struct qos_walk {
	const char *const *files;
	struct devpm_qos_path *paths;
	size_t n, cap;
};

static int walk_add(struct qos_walk *w, const char *kpath)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		void *np = realloc(w->paths, cap * sizeof(*w->paths));

		if (!np)
			return devpm_fail(ENOMEM, "out of memory");
		w->paths = np;
		w->cap = cap;
	}
	snprintf(w->paths[w->n++].path, DEVPM_PATH_MAX, "%s", kpath);
	return 0;
}

static int walk(struct qos_walk *w, const char *kdir, int depth)
{
	char p[DEVPM_PATH_MAX];
	struct dirent *e;
	int i, r = 0;
	DIR *d;

	if (depth > 24)
		return 0;
	for (i = 0; w->files[i]; i++) {
		snprintf(p, sizeof(p), "%s/power/%s", kdir, w->files[i]);
		if (devpm_exists(p)) {
			r = walk_add(w, kdir);
			break;
		}
	}
	d = devpm_opendir(kdir);
	if (!d)
		return r;
	while (!r && (e = readdir(d))) {
		/* Directories only; never a symlink (no loops, no escapes). */
		if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
		    !strcmp(e->d_name, "power"))
			continue;
		if (devpm_fmt(p, sizeof(p), "%s/%s", kdir, e->d_name))
			continue;
		r = walk(w, p, depth + 1);
	}
	closedir(d);
	return r;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(a, b);
}

int devpm_qos_devices(const char *const *files, struct devpm_qos_path **paths)
{
	struct qos_walk w = { .files = files };
	int r = walk(&w, "/sys/devices", 0);

	if (r < 0) {
		free(w.paths);
		*paths = NULL;
		return r;
	}
	if (w.n)
		qsort(w.paths, w.n, sizeof(*w.paths), cmp_path);
	*paths = w.paths;
	return (int)w.n;
}

int devpm_cpu_latency_open(void)
{
	char p[DEVPM_PATH_MAX];
	int fd, r;

	r = devpm_real_path(p, sizeof(p), DEVPM_CPU_LATENCY_DEV);
	if (r < 0)
		return r;
	fd = open(p, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", p, strerror(errno));
	return fd;
}

int devpm_cpu_latency_write_s32(int fd, int32_t value)
{
	ssize_t n = write(fd, &value, sizeof(value));

	if (n < 0)
		return devpm_fail(errno, "%s: writing s32 %d: %s",
				  DEVPM_CPU_LATENCY_DEV, value,
				  strerror(errno));
	if (n != sizeof(value))
		return devpm_fail(EIO, "%s: short write (%zd)",
				  DEVPM_CPU_LATENCY_DEV, n);
	return 0;
}

int devpm_cpu_latency_hex(int32_t value, char *buf, size_t len)
{
	int r = devpm_fmt(buf, len, "%s%x\n", value < 0 ? "-" : "",
			  value < 0 ? -(uint32_t)value : (uint32_t)value);

	/* 4 bytes would be taken as a binary s32: add a leading zero. */
	if (!r && strlen(buf) == sizeof(int32_t))
		r = devpm_fmt(buf, len, "%s0%x\n", value < 0 ? "-" : "",
			      value < 0 ? -(uint32_t)value : (uint32_t)value);
	return r;
}

int devpm_cpu_latency_write_str(int fd, const char *text)
{
	size_t len = strlen(text);
	ssize_t n = write(fd, text, len);

	if (n < 0)
		return devpm_fail(errno, "%s: writing '%.*s': %s",
				  DEVPM_CPU_LATENCY_DEV,
				  (int)strcspn(text, "\n"), text,
				  strerror(errno));
	if ((size_t)n != len)
		return devpm_fail(EIO, "%s: short write (%zd of %zu)",
				  DEVPM_CPU_LATENCY_DEV, n, len);
	return 0;
}

int devpm_cpu_latency_read(int fd, int32_t *value)
{
	ssize_t n = pread(fd, value, sizeof(*value), 0);

	if (n < 0)
		return devpm_fail(errno, "%s: read: %s", DEVPM_CPU_LATENCY_DEV,
				  strerror(errno));
	if (n != sizeof(*value))
		return devpm_fail(EIO, "%s: read %zd bytes, want 4",
				  DEVPM_CPU_LATENCY_DEV, n);
	return 0;
}

int devpm_cpuidle_driver(char *drv, size_t dlen, char *gov, size_t glen)
{
	static const char *const base = "/sys/devices/system/cpu/cpuidle";
	char p[DEVPM_PATH_MAX];

	drv[0] = gov[0] = '\0';
	snprintf(p, sizeof(p), "%s/current_driver", base);
	if (devpm_exists(p) && devpm_read_str(p, drv, dlen) < 0)
		return -EIO;
	snprintf(p, sizeof(p), "%s/current_governor", base);
	if (!devpm_exists(p))
		snprintf(p, sizeof(p), "%s/current_governor_ro", base);
	if (devpm_exists(p) && devpm_read_str(p, gov, glen) < 0)
		return -EIO;
	return 0;
}

/* Read cpu's states into row; the number of states, or -errno. */
static int read_cpu(struct devpm_cpuidle *c, int cpu, int row)
{
	char p[DEVPM_PATH_MAX];
	int s, r;

	for (s = 0; s < DEVPM_CPUIDLE_MAX_STATES; s++) {
		char v[32];
		long lat;

		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage",
			 cpu, s);
		if (!devpm_exists(p))
			break;
		r = devpm_read_str(p, v, sizeof(v));
		if (r < 0)
			return r;
		c->usage[row][s] = strtoull(v, NULL, 10);
		if (row)
			continue;
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 cpu, s);
		r = devpm_read_long(p, &lat);
		if (r < 0)
			return r;
		c->latency_us[s] = lat;
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/residency",
			 cpu, s);
		if (devpm_read_long(p, &c->residency_us[s]) < 0)
			c->residency_us[s] = 0;
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
			 cpu, s);
		if (devpm_read_str(p, c->name[s], sizeof(c->name[s])) < 0)
			snprintf(c->name[s], sizeof(c->name[s]), "state%d", s);
	}
	return s;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int devpm_cpuidle_read(struct devpm_cpuidle *c)
{
	char p[DEVPM_PATH_MAX];
	struct dirent *e;
	int cpus[DEVPM_CPUIDLE_MAX_CPUS], n = 0, i, r;
	DIR *d;

	memset(c, 0, sizeof(*c));
	d = devpm_opendir("/sys/devices/system/cpu");
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < DEVPM_CPUIDLE_MAX_CPUS) {
		int cpu;
		char end;

		if (sscanf(e->d_name, "cpu%d%c", &cpu, &end) != 1)
			continue;
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state0", cpu);
		if (devpm_exists(p))
			cpus[n++] = cpu;
	}
	closedir(d);
	if (!n)
		return devpm_fail(ENOENT, "no CPU has cpuidle states (no cpuidle driver)");
	qsort(cpus, n, sizeof(cpus[0]), cmp_int);
	for (i = 0; i < n; i++) {
		r = read_cpu(c, cpus[i], i);
		if (r < 0)
			return r;
		if (!i)
			c->nstates = r;
		c->cpu[i] = cpus[i];
	}
	c->ncpus = n;
	return 0;
}

static bool judged(uint64_t mask, int i)
{
	return i < 64 && (mask >> i) & 1;
}

int devpm_cpuidle_limit_verdict(const struct devpm_cpuidle *b,
				const struct devpm_cpuidle *a,
				uint64_t mask, long limit_us, char *msg,
				size_t len, char *deltas, size_t dlen)
{
	unsigned long long within = 0, d;
	size_t used = 0;
	int i, s, verdict = 1;

	msg[0] = '\0';
	if (deltas && dlen)
		deltas[0] = '\0';
	for (i = 0; i < a->ncpus && i < b->ncpus; i++) {
		if (!judged(mask, i))
			continue;
		if (deltas && used < dlen)
			used += snprintf(deltas + used, dlen - used, "%scpu%d:",
					 used ? "; " : "", a->cpu[i]);
		for (s = 0; s < a->nstates; s++) {
			d = a->usage[i][s] - b->usage[i][s];
			if (deltas && used < dlen)
				used += snprintf(deltas + used, dlen - used,
						 " %s+%llu", a->name[s], d);
			if (a->latency_us[s] <= limit_us) {
				within += d;
				continue;
			}
			if (d && verdict) {
				snprintf(msg, len,
					 "cpu%d: %s (exit latency %ld us) entered %llu times under a %ld us limit",
					 a->cpu[i], a->name[s],
					 a->latency_us[s], d, limit_us);
				verdict = 0;
			}
		}
	}
	if (verdict && !within) {
		snprintf(msg, len,
			 "no idle state entered within the %ld us limit in the window",
			 limit_us);
		return -EAGAIN;
	}
	return verdict;
}

unsigned long long devpm_cpuidle_growth_above(const struct devpm_cpuidle *b,
					      const struct devpm_cpuidle *a,
					      uint64_t mask, long limit_us)
{
	unsigned long long sum = 0;
	int i, s;

	for (i = 0; i < a->ncpus && i < b->ncpus; i++) {
		if (!judged(mask, i))
			continue;
		for (s = 0; s < a->nstates; s++)
			if (a->latency_us[s] > limit_us)
				sum += a->usage[i][s] - b->usage[i][s];
	}
	return sum;
}
