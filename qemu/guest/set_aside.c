// SPDX-License-Identifier: GPL-2.0-only
/*
 * set_aside.c - QEMU's controllers set aside and brought back
 * (set_aside.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/poll.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/device.h"
#include "state/journal.h"
#include "set_aside.h"
#include "xhci.h"

static bool listed(const char *const *drivers, const char *drv)
{
	const char *const *p;

	for (p = drivers; *p; p++)
		if (!strcmp(drv, *p))
			return true;
	return false;
}

static long bus_count(const char *bus)
{
	struct devpm_dev *d = NULL;
	char dir[DEVPM_PATH_MAX];
	size_t n = 0;
	int r;

	/*
	 * No such bus, no device on it.  devpm_dev_list() would walk all
	 * of sysfs for a name it does not find as a bus (160 ms on a host
	 * without USB, in every --needs of the wakeup mock programs).
	 */
	if (devpm_fmt(dir, sizeof(dir), "/sys/bus/%s/devices", bus) < 0)
		return -ENAMETOOLONG;
	if (!devpm_exists(dir))
		return 0;
	r = devpm_dev_list(bus, &d, &n);

	free(d);
	return r ? r : (long)n;
}

void bus_count_read(struct bus_count *c)
{
	c->usb = bus_count("usb");
	c->scsi = bus_count("scsi");
}

static void add(char *buf, size_t len, const char *fmt, const char *a,
		const char *b)
{
	size_t at = strlen(buf);

	if (at < len)
		snprintf(buf + at, len - at, fmt, at ? ", " : "", a, b);
}

static bool is_xhci(const struct devpm_dev *d)
{
	return !strcmp(d->driver, "xhci_hcd");
}

/*
 * Each bind journaled, the xHCI's last: the restore, which goes
 * backwards, binds it first, and hub_wq enumerates the USB devices while
 * the others probe.  0 or -errno.
 */
static int journal_binds(const struct devpm_dev *d, size_t n,
			 const bool *take)
{
	char p[DEVPM_PATH_MAX];
	int pass, r = 0;
	size_t i;

	for (pass = 0; pass < 2 && !r; pass++) {
		for (i = 0; i < n && !r; i++) {
			if (!take[i] || is_xhci(&d[i]) != (pass == 1))
				continue;
			r = devpm_fmt(p, sizeof(p),
				      "/sys/bus/pci/drivers/%s/bind",
				      d[i].driver);
			if (!r)
				r = devpm_journal_undo_write(p, d[i].name);
		}
	}
	return r;
}

/*
 * The unbinds, one process each: most of an unbind is waiting (the disks'
 * cache flush and stop, the USB disconnects, the netdev's RCU grace
 * periods), which overlaps.  0 or -errno (the first that failed).
 */
static int unbind_all(const struct devpm_dev *d, size_t n, const bool *take)
{
	pid_t pid[SET_ASIDE_MAX];
	size_t idx[SET_ASIDE_MAX], i, k = 0, j;
	char p[DEVPM_PATH_MAX];
	int r = 0, st, e;

	for (i = 0; i < n && !r && k < SET_ASIDE_MAX; i++) {
		if (!take[i])
			continue;
		r = devpm_fmt(p, sizeof(p), "/sys/bus/pci/drivers/%s/unbind",
			      d[i].driver);
		if (r)
			break;
		pid[k] = fork();
		if (!pid[k])
			_exit(-devpm_write_str(p, d[i].name) & 0xff);
		if (pid[k] < 0)		/* then here, in turn */
			r = devpm_write_str(p, d[i].name);
		else
			idx[k++] = i;
	}
	for (j = 0; j < k; j++) {
		while (waitpid(pid[j], &st, 0) < 0 && errno == EINTR)
			;
		e = WIFEXITED(st) ? WEXITSTATUS(st) : EINTR;
		if (e && !r)
			r = devpm_fail(e, "unbind %s from %s: %s",
				       d[idx[j]].name, d[idx[j]].driver,
				       strerror(e));
	}
	return r;
}

/* Those of d to unbind, in q (the others named in q->kept). */
static void pick(struct set_aside *q, const char *const *drivers,
		 const struct devpm_dev *d, size_t n, bool *take)
{
	char why[256];
	size_t i;

	for (i = 0; i < n; i++) {
		take[i] = false;
		if (!listed(drivers, d[i].driver))
			continue;
		if (devpm_dev_protected(d[i].path, why, sizeof(why)))
			add(q->kept, sizeof(q->kept), "%s%s: %s", d[i].name,
			    why);
		else if (q->n == SET_ASIDE_MAX)
			add(q->kept, sizeof(q->kept), "%s%s: %s", d[i].name,
			    "more controllers than the window holds");
		else
			take[i] = true;
		if (!take[i])
			continue;
		snprintf(q->dev[q->n], sizeof(q->dev[0]), "%s", d[i].name);
		snprintf(q->drv[q->n], sizeof(q->drv[0]), "%s", d[i].driver);
		q->n++;
	}
}

int set_aside_begin(struct set_aside *q, const char *const *drivers)
{
	struct devpm_dev *d = NULL;
	size_t n, i;
	bool *take;
	int r;

	memset(q, 0, sizeof(*q));
	q->hold_mark = q->bind_mark = devpm_journal_mark();
	bus_count_read(&q->before);
	r = devpm_dev_list("pci", &d, &n);
	if (r)
		return r;
	take = calloc(n + 1, sizeof(*take));
	if (!take) {
		free(d);
		return devpm_fail(ENOMEM, "out of memory");
	}
	pick(q, drivers, d, n, take);
	/* Every xHCI's ports first: their records stay until the end. */
	for (i = 0; i < n && !r; i++)
		if (take[i] && !strcmp(d[i].driver, "xhci_hcd"))
			r = xhci_hold_ports(d[i].path);
	q->bind_mark = devpm_journal_mark();
	if (!r)
		r = journal_binds(d, n, take);
	if (!r)
		r = unbind_all(d, n, take);
	free(take);
	free(d);
	return r ? r : (int)q->n;
}

int set_aside_bound(const char *const *drivers, char *list, size_t len)
{
	struct devpm_dev *d = NULL;
	char why[256];
	size_t n, i;
	int r, k = 0;

	if (len)
		list[0] = '\0';
	r = devpm_dev_list("pci", &d, &n);
	if (r)
		return r;
	for (i = 0; i < n; i++) {
		if (!listed(drivers, d[i].driver) ||
		    devpm_dev_protected(d[i].path, why, sizeof(why)))
			continue;
		add(list, len, "%s%s (%s)", d[i].name, d[i].driver);
		k++;
	}
	free(d);
	return k;
}

struct back {
	const struct set_aside *q;
	struct bus_count seen;
	const char *missing;	/* a device without its driver, or NULL */
};

static bool drivers_back(struct back *b)
{
	struct devpm_dev *d = NULL;
	size_t n, i, j;
	bool found;

	if (devpm_dev_list("pci", &d, &n)) {
		b->missing = b->q->dev[0];
		return false;
	}
	b->missing = NULL;
	for (j = 0; j < b->q->n && !b->missing; j++) {
		for (i = 0, found = false; i < n && !found; i++)
			found = !strcmp(d[i].name, b->q->dev[j]) &&
				!strcmp(d[i].driver, b->q->drv[j]);
		if (!found)
			b->missing = b->q->dev[j];
	}
	free(d);
	return !b->missing;
}

static bool all_back(void *arg)
{
	struct back *b = arg;

	bus_count_read(&b->seen);
	if (b->seen.usb < b->q->before.usb ||
	    b->seen.scsi < b->q->before.scsi)
		return false;
	return drivers_back(b);
}

int set_aside_end(const struct set_aside *q, int timeout_ms, char *why,
		  size_t len)
{
	struct back b = { .q = q };
	size_t j;
	int r, bad = 0;

	why[0] = '\0';
	r = devpm_journal_restore_since(q->bind_mark);
	if (r < 0)
		return r;
	if (q->n && !devpm_poll_until(all_back, &b, timeout_ms)) {
		bad = 1;
		drivers_back(&b);
		for (j = 0; j < q->n && b.missing; j++)
			if (!strcmp(q->dev[j], b.missing))
				break;
		if (b.missing)
			snprintf(why, len, "%s is not bound to %s %d ms after the bind",
				 b.missing, j < q->n ? q->drv[j] : "its driver",
				 timeout_ms);
		else
			snprintf(why, len, "%ld usb devices (want %ld), %ld scsi (want %ld) %d ms after the bind",
				 b.seen.usb, q->before.usb, b.seen.scsi,
				 q->before.scsi, timeout_ms);
	}
	/* The ports are back (or never will be): their control records. */
	r = devpm_journal_restore_since(q->hold_mark);
	return r < 0 && !bad ? r : bad;
}

struct settle {
	const char *const *drivers;
	char missing[256];	/* what is not back yet */
};

/* Devices of the usb and scsi buses below path in v[0..n). */
static size_t below(const char *path, const struct devpm_dev *v, size_t n)
{
	size_t i, k = 0, len = strlen(path);

	for (i = 0; i < n; i++)
		k += !strncmp(v[i].path, path, len) && v[i].path[len] == '/';
	return k;
}

static size_t baseline_below(const struct devpm_baseline *b,
			     const char *path)
{
	size_t i, k = 0, len = strlen(path);

	for (i = 0; i < b->n; i++)
		k += (!strcmp(b->v[i].bus, "usb") ||
		      !strcmp(b->v[i].bus, "scsi")) &&
		     !strncmp(b->v[i].path, path, len) &&
		     b->v[i].path[len] == '/';
	return k;
}

/*
 * Has each bound controller as many usb and scsi devices below it as the
 * baseline had?  Counted, not named: a SCSI host's number, a HID
 * device's, are new after a bind.
 */
static bool settled(void *arg)
{
	const struct devpm_baseline *b = devpm_baseline();
	struct devpm_dev *d = NULL, *u = NULL, *s = NULL;
	size_t n, nu = 0, ns = 0, i, want, have;
	struct settle *w = arg;
	bool ok = true;

	w->missing[0] = '\0';
	if (!b || devpm_dev_list("pci", &d, &n))
		return true;
	if (devpm_dev_list("usb", &u, &nu))
		nu = 0;
	if (devpm_dev_list("scsi", &s, &ns))
		ns = 0;
	for (i = 0; i < n && ok; i++) {
		if (!listed(w->drivers, d[i].driver))
			continue;
		want = baseline_below(b, d[i].path);
		have = below(d[i].path, u, nu) + below(d[i].path, s, ns);
		if (have >= want)
			continue;
		snprintf(w->missing, sizeof(w->missing),
			 "%zu of the %zu usb and scsi devices below %s (%s)",
			 want - have, want, d[i].name, d[i].driver);
		ok = false;
	}
	free(d);
	free(u);
	free(s);
	return ok;
}

int set_aside_settle(const char *const *drivers, int timeout_ms, char *why,
		     size_t len)
{
	struct settle w = { .drivers = drivers };

	why[0] = '\0';
	if (devpm_poll_until(settled, &w, timeout_ms))
		return 0;
	snprintf(why, len, "%s not back %d ms after its bind", w.missing,
		 timeout_ms);
	return 1;
}
