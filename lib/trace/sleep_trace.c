// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_trace.c - one system suspend/resume cycle from the power trace
 * events (sleep_trace.h).
 *
 * Event texts (include/trace/events/power.h, 6.1):
 *   device_pm_callback_start: "<driver> <dev>, parent: <p>, <ops>[<verb>]"
 *   device_pm_callback_end:   "<driver> <dev>, err=<n>"
 *   suspend_resume:           "<action>[<val>] begin|end"
 * <driver> is dev_driver_string(): the driver, else the bus or class
 * name, else "" (the text then starts with the space).  The driver or
 * the device name may hold spaces: split_head() below.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sleep_trace.h"
#include "core/sysfs.h"
#include "trace/trace.h"

static const char *const phase_names[DEVPM_PH_NR] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

const char *devpm_pm_phase_name(enum devpm_pm_phase ph)
{
	return ph < DEVPM_PH_NR ? phase_names[ph] : "?";
}

int devpm_pm_phase_parse(const char *name)
{
	int i;

	for (i = 0; i < DEVPM_PH_NR; i++)
		if (!strcmp(name, phase_names[i]))
			return i;
	return -EINVAL;
}

bool devpm_pm_phase_is_suspend(enum devpm_pm_phase ph)
{
	return ph <= DEVPM_PH_SUSPEND_NOIRQ;
}

/* The power events a cycle needs, the callbacks' filtered by cb_filter. */
static struct devpm_trace *start(const char *const *devs,
				 const char *cb_filter)
{
	static const struct {
		const char *name;
		bool per_device;	/* takes cb_filter */
	} power_events[] = {
		{ "power:device_pm_callback_start", true },
		{ "power:device_pm_callback_end", true },
		{ "power:suspend_resume", false },
	};
	/* A name no device has: keeps the rpm events quiet. */
	static const char *const nobody[] = { "devpm-no-device", NULL };
	struct devpm_trace *t;
	char msg[512];
	size_t i;

	t = devpm_trace_start(devs && devs[0] ? devs : nobody);
	if (!t)
		return NULL;
	for (i = 0; i < sizeof(power_events) / sizeof(power_events[0]); i++) {
		if (devpm_trace_add_event(t, power_events[i].name,
					  power_events[i].per_device ?
					  cb_filter : NULL) < 0) {
			snprintf(msg, sizeof(msg), "%s", devpm_error());
			devpm_trace_stop(t);
			devpm_fail(ENOENT, "%s", msg);
			return NULL;
		}
	}
	return t;
}

struct devpm_trace *devpm_sleep_trace_start(const char *const *devs)
{
	return start(devs, NULL);
}

struct devpm_trace *devpm_sleep_trace_start_glob(const char *glob)
{
	char filter[160];

	/* kernel/trace/trace_events_filter.c: "field ~ \"glob\"". */
	if (!glob || !glob[0] || strpbrk(glob, "\"\\\n") ||
	    devpm_fmt(filter, sizeof(filter), "device ~ \"%s\"", glob)) {
		devpm_fail(EINVAL, "bad device glob for the trace: empty, too long, or a quote, backslash or newline in it");
		return NULL;
	}
	return start(NULL, filter);
}

int devpm_sleep_trace_add_sched(struct devpm_trace *t)
{
	static const char *const sched_events[] = {
		"timer:hrtimer_start", "sched:sched_wakeup",
		"sched:sched_switch",
	};
	size_t i;
	int r;

	for (i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++) {
		r = devpm_trace_add_event(t, sched_events[i], NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

static void copy_n(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Is name a device of some bus or class (under the sysfs root)? */
static bool known_dev(const char *name)
{
	static const char *const tops[] = { "/sys/bus", "/sys/class", NULL };
	char p[DEVPM_PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *d;
	int i;

	if (strchr(name, '/'))
		return false;
	for (i = 0; tops[i] && !found; i++) {
		d = devpm_opendir(tops[i]);
		if (!d)
			continue;
		while (!found && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s/%s%s", tops[i],
				 e->d_name, i ? "" : "devices/", name);
			found = devpm_exists(p);
		}
		closedir(d);
	}
	return found;
}

/*
 * "<driver> <dev>" of length n -> driver, dev.  Either may hold spaces
 * ("i8042 kbd 00:00", "platform Fixed MDIO bus.0"): with more than one
 * space the first split whose <dev> is a device in sysfs wins, else the
 * last space (driver names with spaces are the commoner kind).
 */
int devpm_sleep_split_head(const char *s, size_t n, struct devpm_pm_cb *cb)
{
	const char *sp = memchr(s, ' ', n), *last = NULL, *q;
	char dev[sizeof(cb->dev)];

	if (!sp || sp + 1 >= s + n)
		return -EINVAL;
	for (q = s + n; q-- > s;)
		if (*q == ' ') {
			last = q;
			break;
		}
	if (last != sp) {
		for (q = sp; q && q < s + n;
		     q = memchr(q + 1, ' ', s + n - q - 1)) {
			copy_n(dev, sizeof(dev), q + 1, s + n - q - 1);
			if (known_dev(dev))
				break;
		}
		sp = q && q < s + n ? q : last;
	}
	copy_n(cb->driver, sizeof(cb->driver), s, sp - s);
	copy_n(cb->dev, sizeof(cb->dev), sp + 1, s + n - sp - 1);
	return 0;
}

/* "dpm_suspend_late[2] begin" -> phase, begin; -EINVAL other actions. */
int devpm_sleep_phase_event(const char *raw, int *phase, bool *begin)
{
	static const char *const actions[DEVPM_PH_NR] = {
		"dpm_prepare", "dpm_suspend", "dpm_suspend_late",
		"dpm_suspend_noirq", "dpm_resume_noirq", "dpm_resume_early",
		"dpm_resume", "dpm_complete",
	};
	size_t alen = strcspn(raw, "[");
	const char *tail;
	int i;

	if (!raw[alen])
		return -EINVAL;
	tail = strchr(raw + alen, ']');
	if (!tail)
		return -EINVAL;
	if (!strcmp(tail, "] begin"))
		*begin = true;
	else if (!strcmp(tail, "] end"))
		*begin = false;
	else
		return -EINVAL;
	for (i = 0; i < DEVPM_PH_NR; i++) {
		if (strlen(actions[i]) == alen &&
		    !strncmp(raw, actions[i], alen)) {
			*phase = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int push_cb(struct devpm_sleep_cycle *c, size_t *cap,
		   const struct devpm_pm_cb *cb)
{
	struct devpm_pm_cb *np;

	if (c->ncb == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		np = realloc(c->cb, *cap * sizeof(*np));
		if (!np)
			return devpm_fail(ENOMEM, "out of memory");
		c->cb = np;
	}
	c->cb[c->ncb++] = *cb;
	return 0;
}

/* The open callback an end event closes: same device, same task. */
static void end_cb(struct devpm_sleep_cycle *c, const struct devpm_event *e)
{
	struct devpm_pm_cb head;
	const char *err = strstr(e->raw, ", err=");
	size_t i;

	while (err && strstr(err + 1, ", err="))
		err = strstr(err + 1, ", err=");
	if (!err || devpm_sleep_split_head(e->raw, err - e->raw, &head))
		return;
	for (i = c->ncb; i-- > 0;) {
		struct devpm_pm_cb *cb = &c->cb[i];

		if (cb->end_us || strcmp(cb->dev, head.dev) ||
		    (cb->pid && e->pid && cb->pid != e->pid))
			continue;
		cb->end_us = e->ts_us;
		cb->err = atoi(err + strlen(", err="));
		return;
	}
}

/*
 * devpm_pm_cb_own_us(): the first hrtimer_wakeup timer cb's task armed,
 * its wakeup, and the switch to it that followed, all within cb.
 */
static uint64_t held_us(const struct devpm_event *ev, size_t n,
			const struct devpm_pm_cb *cb)
{
	uint64_t hard = 0, woken = 0;
	char fn[64];
	size_t i;

	for (i = 0; i < n && ev[i].ts_us <= cb->end_us; i++) {
		const struct devpm_event *e = &ev[i];

		if (e->ts_us < cb->start_us)
			continue;
		if (!hard) {
			if (e->pid != cb->pid ||
			    !devpm_trace_is(e, "hrtimer_start"))
				continue;
			devpm_trace_field(e->raw, "function", fn, sizeof(fn));
			if (!strcmp(fn, "hrtimer_wakeup"))
				hard = devpm_trace_field_ull(e->raw, "expires") /
				       1000;
			if (!hard)
				return 0;
		} else if (!woken) {
			if (devpm_trace_is(e, "sched_wakeup") &&
			    devpm_trace_field_ull(e->raw, "pid") ==
			    (unsigned long long)cb->pid)
				woken = e->ts_us;
		} else if (devpm_trace_is(e, "sched_switch") &&
			   devpm_trace_field_ull(e->raw, "next_pid") ==
			   (unsigned long long)cb->pid) {
			return (woken > hard ? woken - hard : 0) +
			       (e->ts_us - woken);
		}
	}
	return 0;
}

/* "<parent>, <ops>[<verb>]" -> parent (the ops and verb end it). */
static void parent_of(const char *s, char *buf, size_t len)
{
	const char *end = strrchr(s, '[');
	const char *q, *comma = NULL;

	for (q = s; end && (q = strstr(q, ", ")) && q < end; q += 2)
		comma = q;
	copy_n(buf, len, s, comma ? (size_t)(comma - s) : strlen(s));
}

int devpm_sleep_cycle_parse(const struct devpm_event *ev, size_t n,
			    struct devpm_sleep_cycle *c)
{
	struct devpm_pm_cb cb;
	size_t i, cap = 0;
	int open = -1, ph, r;
	bool begin, sched = false;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];
		const char *par;

		sched |= devpm_trace_is(e, "sched_switch");
		if (!strcmp(e->event, "suspend_resume")) {
			if (!c->first_us)
				c->first_us = e->ts_us;
			c->last_us = e->ts_us;
			if (devpm_sleep_phase_event(e->raw, &ph, &begin))
				continue;
			if (begin && !c->phase[ph].begin_us)
				c->phase[ph].begin_us = e->ts_us;
			if (!begin)
				c->phase[ph].end_us = e->ts_us;
			open = begin ? ph : -1;
		} else if (!strcmp(e->event, "device_pm_callback_start")) {
			par = strstr(e->raw, ", parent: ");
			if (open < 0 || !par)
				continue;
			memset(&cb, 0, sizeof(cb));
			if (devpm_sleep_split_head(e->raw, par - e->raw, &cb))
				continue;
			parent_of(par + strlen(", parent: "), cb.parent,
				  sizeof(cb.parent));
			cb.phase = open;
			cb.pid = e->pid;
			cb.start_us = e->ts_us;
			if (!c->first_us)
				c->first_us = e->ts_us;
			c->last_us = e->ts_us;
			r = push_cb(c, &cap, &cb);
			if (r < 0) {
				devpm_sleep_cycle_free(c);
				return r;
			}
		} else if (!strcmp(e->event, "device_pm_callback_end")) {
			c->last_us = e->ts_us;
			end_cb(c, e);
		}
	}
	for (i = 0; i < c->ncb; i++) {
		if (!c->cb[i].end_us)
			c->unended++;
		else if (sched)
			c->cb[i].held_us = held_us(ev, n, &c->cb[i]);
	}
	if (!c->ncb)
		return devpm_fail(ENOENT, "no device callback in the trace (%zu events)",
				  n);
	return 0;
}

void devpm_sleep_cycle_free(struct devpm_sleep_cycle *c)
{
	free(c->cb);
	memset(c, 0, sizeof(*c));
}

const struct devpm_pm_cb *devpm_sleep_cb(const struct devpm_sleep_cycle *c,
					 enum devpm_pm_phase ph,
					 const char *dev)
{
	size_t i;

	for (i = 0; i < c->ncb; i++)
		if (c->cb[i].phase == ph && !strcmp(c->cb[i].dev, dev))
			return &c->cb[i];
	return NULL;
}

uint64_t devpm_pm_cb_dur(const struct devpm_pm_cb *cb)
{
	return cb->end_us > cb->start_us ? cb->end_us - cb->start_us : 0;
}

uint64_t devpm_pm_cb_own_us(const struct devpm_pm_cb *cb)
{
	uint64_t d = devpm_pm_cb_dur(cb);

	return d > cb->held_us ? d - cb->held_us : 0;
}

int devpm_sleep_span(const struct devpm_sleep_cycle *c,
		     enum devpm_pm_phase ph, const char *const *devs,
		     size_t n, uint64_t *span_us)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct devpm_pm_cb *cb = devpm_sleep_cb(c, ph, devs[i]);

		if (!cb || !cb->end_us)
			return devpm_fail(ENOENT, "no %s callback of %s in the trace",
					  devpm_pm_phase_name(ph), devs[i]);
		if (cb->start_us < first)
			first = cb->start_us;
		if (cb->end_us > last)
			last = cb->end_us;
	}
	*span_us = n ? last - first : 0;
	return 0;
}

int devpm_sleep_lanes(const struct devpm_sleep_cycle *c,
		      enum devpm_pm_phase ph, const char *const *devs,
		      size_t n)
{
	const struct devpm_pm_cb *cb, *seen;
	size_t i, j;
	int lanes = 0;

	for (i = 0; i < n; i++) {
		cb = devpm_sleep_cb(c, ph, devs[i]);
		if (!cb)
			continue;
		for (j = 0; j < i; j++) {
			seen = devpm_sleep_cb(c, ph, devs[j]);
			if (seen && seen->pid == cb->pid)
				break;
		}
		lanes += j == i;
	}
	return lanes;
}

int devpm_sleep_delays_missed(const struct devpm_sleep_cycle *c,
			      enum devpm_pm_phase ph, const char *const *devs,
			      size_t n, uint64_t delay_us, char *why,
			      size_t len)
{
	const struct devpm_pm_cb *cb;
	char w[256];
	size_t i;
	int bad = 0;

	for (i = 0; i < n; i++) {
		cb = devpm_sleep_cb(c, ph, devs[i]);
		if (cb && !devpm_sleep_check_delay(devpm_pm_cb_own_us(cb),
						   delay_us, w, sizeof(w)))
			continue;
		if (!bad++)
			snprintf(why, len, "%s %s: %s", devs[i],
				 devpm_pm_phase_name(ph),
				 cb ? w : "no callback");
	}
	return bad;
}

int devpm_sleep_check_before(const struct devpm_sleep_cycle *c,
			     enum devpm_pm_phase ph, const char *first,
			     const char *second, char *why, size_t len)
{
	const struct devpm_pm_cb *a = devpm_sleep_cb(c, ph, first);
	const struct devpm_pm_cb *b = devpm_sleep_cb(c, ph, second);
	const char *pn = devpm_pm_phase_name(ph);

	if (!a || !a->end_us || !b) {
		snprintf(why, len, "no %s%s callback of %s in the trace", pn,
			 a && !a->end_us ? " end of the" : "",
			 !a || !a->end_us ? first : second);
		return -ENOENT;
	}
	if (a->end_us <= b->start_us) {
		snprintf(why, len, "%s %s ended %llu us before %s started",
			 first, pn,
			 (unsigned long long)(b->start_us - a->end_us),
			 second);
		return 0;
	}
	snprintf(why, len,
		 "%s of %s started %llu us before %s's ended (lanes %d and %d): want %s's to end first",
		 pn, second, (unsigned long long)(a->end_us - b->start_us),
		 first, b->pid, a->pid, first);
	return 1;
}

int devpm_sleep_check_delay(uint64_t measured_us, uint64_t delay_us,
			    char *why, size_t len)
{
	uint64_t slack = delay_us / 5 > 5000 ? delay_us / 5 : 5000;

	snprintf(why, len, "%llu us for a %llu us delay (limits %llu..%llu us)",
		 (unsigned long long)measured_us,
		 (unsigned long long)delay_us, (unsigned long long)delay_us,
		 (unsigned long long)(delay_us + slack));
	if (measured_us < delay_us)
		return 1;
	return measured_us > delay_us + slack ? 2 : 0;
}

int devpm_sleep_check_budget(const struct devpm_pm_cb *cb,
			     uint64_t budget_us, char *why, size_t len)
{
	uint64_t d = devpm_pm_cb_dur(cb);

	snprintf(why, len, "%s %s (%s) took %llu us, declared budget %llu us",
		 cb->dev, devpm_pm_phase_name(cb->phase),
		 cb->driver[0] ? cb->driver : "no driver",
		 (unsigned long long)d, (unsigned long long)budget_us);
	return budget_us && d > budget_us;
}

/* A name as one TIMELINE field: no spaces, "-" when empty. */
static void field(char *dst, size_t len, const char *src)
{
	char *p;

	snprintf(dst, len, "%s", src[0] ? src : "-");
	for (p = dst; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
}

int devpm_sleep_timeline_line(const struct devpm_sleep_cycle *c,
			      const struct devpm_pm_cb *cb,
			      const char *cycle, char *buf, size_t len)
{
	char dev[sizeof(cb->dev)], drv[sizeof(cb->driver)], cyc[128];

	field(dev, sizeof(dev), cb->dev);
	field(drv, sizeof(drv), cb->driver);
	field(cyc, sizeof(cyc), cycle);
	return devpm_fmt(buf, len, "TIMELINE %s %s %s %s %d %llu %llu %d", cyc,
			 devpm_pm_phase_name(cb->phase), dev, drv, cb->pid,
			 (unsigned long long)(cb->start_us - c->first_us),
			 (unsigned long long)devpm_pm_cb_dur(cb), cb->err);
}

void devpm_sleep_timeline_print(const struct devpm_sleep_cycle *c,
				const char *cycle)
{
	char line[512];
	size_t i;

	for (i = 0; i < c->ncb; i++) {
		if (!c->cb[i].end_us ||
		    devpm_sleep_timeline_line(c, &c->cb[i], cycle, line,
					      sizeof(line)))
			continue;
		printf("# %s\n", line);
	}
	fflush(stdout);
}

/*
 * Text form of a cycle, one record a line, tab-separated (names may hold
 * spaces, never tabs):
 *	span	<first_us>	<last_us>
 *	phase	<phase>	<begin_us>	<end_us>
 *	cb	<phase>	<pid>	<start_us>	<end_us>	<err>	<held_us>	<parent>
 *		<driver>	<dev>
 * ("-": no parent seen; a record of nine fields, without the parent, is
 * read too).
 */
int devpm_sleep_cycle_save(const struct devpm_sleep_cycle *c, FILE *f)
{
	size_t i;
	int ph;

	fprintf(f, "span\t%llu\t%llu\n", (unsigned long long)c->first_us,
		(unsigned long long)c->last_us);
	for (ph = 0; ph < DEVPM_PH_NR; ph++)
		fprintf(f, "phase\t%s\t%llu\t%llu\n", devpm_pm_phase_name(ph),
			(unsigned long long)c->phase[ph].begin_us,
			(unsigned long long)c->phase[ph].end_us);
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		fprintf(f, "cb\t%s\t%d\t%llu\t%llu\t%d\t%llu\t%s\t%s\t%s\n",
			devpm_pm_phase_name(cb->phase), cb->pid,
			(unsigned long long)cb->start_us,
			(unsigned long long)cb->end_us, cb->err,
			(unsigned long long)cb->held_us,
			cb->parent[0] ? cb->parent : "-", cb->driver, cb->dev);
	}
	return fflush(f) || ferror(f) ?
	       devpm_fail(EIO, "writing a cycle: %s", strerror(errno)) : 0;
}

/* Split s at tabs into at most max fields; the count. */
static int fields(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

int devpm_sleep_cycle_load(FILE *f, struct devpm_sleep_cycle *c)
{
	char line[768], *fl[10];
	struct devpm_pm_cb cb;
	size_t cap = 0;
	int n, ph, lineno = 0, r;

	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		n = fields(line, fl, 10);
		if (n == 3 && !strcmp(fl[0], "span")) {
			c->first_us = strtoull(fl[1], NULL, 10);
			c->last_us = strtoull(fl[2], NULL, 10);
			continue;
		}
		ph = n > 1 ? devpm_pm_phase_parse(fl[1]) : -EINVAL;
		if (n == 4 && !strcmp(fl[0], "phase") && ph >= 0) {
			c->phase[ph].begin_us = strtoull(fl[2], NULL, 10);
			c->phase[ph].end_us = strtoull(fl[3], NULL, 10);
			continue;
		}
		if ((n != 9 && n != 10) || strcmp(fl[0], "cb") || ph < 0) {
			devpm_sleep_cycle_free(c);
			return devpm_fail(EINVAL, "cycle record %d invalid",
					  lineno);
		}
		memset(&cb, 0, sizeof(cb));
		cb.phase = ph;
		cb.pid = atoi(fl[2]);
		cb.start_us = strtoull(fl[3], NULL, 10);
		cb.end_us = strtoull(fl[4], NULL, 10);
		cb.err = atoi(fl[5]);
		cb.held_us = strtoull(fl[6], NULL, 10);
		if (n == 10 && strcmp(fl[7], "-"))
			snprintf(cb.parent, sizeof(cb.parent), "%s", fl[7]);
		snprintf(cb.driver, sizeof(cb.driver), "%s", fl[n - 2]);
		snprintf(cb.dev, sizeof(cb.dev), "%s", fl[n - 1]);
		if (!cb.end_us)
			c->unended++;
		r = push_cb(c, &cap, &cb);
		if (r < 0) {
			devpm_sleep_cycle_free(c);
			return r;
		}
	}
	return 0;
}
