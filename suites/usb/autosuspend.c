// SPDX-License-Identifier: GPL-2.0-only
/*
 * autosuspend.c - idle USB devices autosuspend within their delay, hubs
 * after their children and before them on resume, the host controller
 * after its whole bus, and usage counts balance over many cycles.
 *
 * Every USB device gets control=auto and a short delay (journaled), and so
 * does what hangs below it (an sd disk starts at on / -1).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness/test.h"
#include "bus/input/input.h"
#include "bus/pci/pci.h"
#include "bus/scsi/scsi.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"
#include "rpm/autosuspend_timer.h"
#include "rpm/rpm_order.h"
#include "trace/transition.h"
#include "usb_suite.h"

#define DELAY_MS	50	/* written on every device */
/*
 * Each cycle resumes the whole bus (port resume signalling, ~0.3 s under
 * TCG) along the same path: a reference leaked per use shows after the
 * first, so ten prove what twenty did.
 */
#define CYCLES		10
#define CYCLE_DELAY_MS	0	/* suspend at once: cycles are many */
#define CYCLE_DISK_DELAY_MS 20	/* sd: see usb_bus.h */
#define HUB_DELAY_MS	50
#define HC_WAIT_MS	300	/* for the controller, beyond its delay */
#define ON_HOLD_MS	(DELAY_MS + 150) /* control=on, past the delay */
#define MAX_NODES	8

static const struct devpm_test_info info = {
	.suite = "usb",
	.timeout_s = 150,
	.needs = {
		.root = true,
		.files = (const char *const[]){ "/sys/bus/usb/devices", NULL },
	},
};

FIXTURE(usb) {
	off_t mark;
	struct devpm_usb_bus b;
};

FIXTURE_SETUP(usb)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(usb)
{
	struct devpm_usb_hold *h = devpm_usb_bus_hold(&self->b);

	DEVPM_CASE_RESTORE(self->mark);
	devpm_usb_release(h);
	devpm_usb_bus_free(&self->b);
	DEVPM_CASE_VERDICT();
}

/* The first resume of dev in the window that really resumed it. */
static bool traced_resume(struct devpm_trace *t, const char *dev,
			  uint64_t from, uint64_t to, struct devpm_call *out)
{
	struct devpm_call c[64];
	const struct devpm_event *ev;
	size_t n, k, i;

	if (!t)
		return false;
	ev = devpm_trace_read(t, 0, &n);
	k = devpm_rpm_calls(ev, n, dev, from, to, c, 64);
	for (i = 0; i < k && i < 64; i++) {
		if (c[i].type == DEVPM_EV_RPM_RESUME && c[i].ret_us &&
		    c[i].ret == 0 && !(c[i].flags & DEVPM_RPM_ASYNC)) {
			*out = c[i];
			return true;
		}
	}
	return false;
}

/*
 * Resume one device (control=on), let it go (control=auto) and judge its
 * autosuspend from the trace against the kernel's promise
 * (rpm/autosuspend_timer.h): not before last_busy + delay, begun by
 * last_busy + delay + 25 % (or at once when the delay has passed) plus
 * the kernel's pm_wq lag.  The verdict goes into the item (taken out on
 * failure) and msg.
 */
static void timed_autosuspend(struct devpm_usb_bus *b,
			      struct devpm_usb_item *it, char *msg,
			      size_t len)
{
	const char *name = it->u.dev.name;
	struct devpm_autosuspend a;
	struct devpm_wait_result res;
	char why[512], line[256];
	uint64_t t0;
	int r;

	if (b->t)
		devpm_trace_poll(b->t, 0);
	t0 = devpm_now_us();
	r = devpm_usb_control(&it->u, "on");
	if (!r)
		r = devpm_usb_control(&it->u, "auto");
	if (r) {
		devpm_usb_item_out(it, true, "%s", devpm_error());
		return;
	}
	r = devpm_wait_autosuspend(&it->u.dev, b->t, t0, &a, &res, why,
				   sizeof(why));
	if (r == -1) {
		snprintf(msg, len, "suspended (%s)", why);
		return;
	}
	if (r) {
		devpm_usb_item_out(it, true, "%s", why);
		return;
	}
	devpm_metric(name, "autosuspend_ms",
		     (double)(a.begin_us - a.idle_us) / 1000);
	devpm_metric(name, "autosuspend_late_us", (double)a.late_us);
	devpm_metric(name, "suspend_us", (double)(a.done_us - a.begin_us));
	devpm_autosuspend_line(&a, line, sizeof(line));
	snprintf(msg, len, "%s (delay %d ms)", line, a.delay_ms);
}

/*
 * The negative control: with control=on every device stays active well
 * past its delay (status polled, runtime_suspended_time unchanged).
 */
static void control_on_holds(struct devpm_usb_bus *b)
{
	long long *base = calloc(b->n + 1, sizeof(*base));
	size_t i;

	if (!base)
		return;
	for (i = 0; i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];

		if (it->ok && devpm_usb_control(&it->u, "on"))
			devpm_usb_item_out(it, true, "%s", devpm_error());
		devpm_dev_snapshot(&it->u.dev);
		base[i] = it->u.dev.rpm.suspended_ms;
	}
	/* Staying active through the hold is what is checked: floor. */
	devpm_least_time_add(devpm_now_us(), ON_HOLD_MS * 1000ULL);
	devpm_poll_until(usb_any_suspended, b, ON_HOLD_MS);
	for (i = 0; i < b->n; i++)
		usb_stayed_active(&b->it[i], base[i], ON_HOLD_MS,
				  "with control=on it suspended anyway");
	free(base);
}

struct timed {
	struct devpm_usb_item *it;
	char msg[256];		/* timed_autosuspend()'s pass */
};

static void idle_one(struct devpm_block *blk, void *arg)
{
	struct timed *x = arg;

	devpm_usb_item_still_in(blk, x->it);
	devpm_block_pass(blk, "%s; control=on kept it active %d ms", x->msg,
		       ON_HOLD_MS);
}

TEST_F_TIMEOUT(usb, idle_devices_autosuspend, 60)
{
	struct devpm_subtest s;
	struct timed *x;
	size_t i;

	ASSERT_EQ(0, devpm_usb_bus_load(&self->b, DELAY_MS, DELAY_MS, true))
		TH_LOG("%s", devpm_error());
	if (!self->b.n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	x = calloc(self->b.n + 1, sizeof(*x));
	ASSERT_TRUE(x != NULL);
	if (self->b.t && devpm_autosuspend_trace(self->b.t) < 0)
		devpm_note("no hrtimer events (%s): a late timer counts as late",
			   devpm_error());
	for (i = 0; i < self->b.n; i++) {
		x[i].it = &self->b.it[i];
		if (x[i].it->ok)
			timed_autosuspend(&self->b, x[i].it, x[i].msg,
					  sizeof(x[i].msg));
	}
	control_on_holds(&self->b);
	devpm_subtest_begin(&s, "idle_devices_autosuspend");
	for (i = 0; i < self->b.n; i++)
		devpm_block_run(&s, x[i].it->u.dev.name, idle_one, &x[i]);
	free(x);
	DEVPM_SUBTEST_END(&s);
}

/* Wait, with a bound, until the trace holds a completed resume of dev. */
static void trace_settle(struct devpm_trace *t, const char *dev,
			 uint64_t from)
{
	uint64_t end = devpm_now_us() + 200000;
	struct devpm_call c;

	while (!traced_resume(t, dev, from, UINT64_MAX, &c) &&
	       devpm_now_us() < end)
		devpm_trace_poll(t, 20);
}

static bool child_of(const struct devpm_usb_item *it,
		     const struct devpm_usb_item *hub)
{
	return it->ok && !strcmp(it->u.parent, hub->u.dev.name);
}

static bool has_child(const struct devpm_usb_bus *b,
		      const struct devpm_usb_item *it)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (child_of(&b->it[i], it))
			return true;
	return false;
}

/* Is it a hub whose order can be looked at? */
static bool hub_testable(const struct devpm_usb_bus *b,
			 const struct devpm_usb_item *it)
{
	return (it->u.hub || it->u.root_hub) && it->ok && has_child(b, it);
}

/*
 * Wake every leaf (which wakes every hub above it), let them all go at
 * once, and wait until every hub suspended again.  0, or -errno.
 */
static int tree_cycle(struct devpm_usb_bus *b, uint64_t *from)
{
	struct devpm_wait_result res;
	uint64_t deadline;
	size_t i;
	int r = 0;

	for (i = 0; i < b->n && !r; i++)
		if (b->it[i].ok && !has_child(b, &b->it[i]))
			r = devpm_usb_control(&b->it[i].u, "on");
	*from = devpm_now_us();
	for (i = 0; i < b->n && !r; i++)
		if (b->it[i].ok && !has_child(b, &b->it[i]))
			r = devpm_usb_control(&b->it[i].u, "auto");
	if (r)
		return r;
	deadline = devpm_now_us() +
		   (uint64_t)(8 * HUB_DELAY_MS + DEVPM_USB_BOUND_MS) * 1000;
	for (i = b->n; i-- > 0;) {
		struct devpm_usb_item *it = &b->it[i];

		if (!hub_testable(b, it))
			continue;
		r = devpm_wait_status(&it->u.dev, b->t, "suspended",
				      devpm_usb_left_ms(deadline), &res);
		if (r)
			devpm_usb_item_out(it, true, "children idle again, hub %s",
				r == -ETIMEDOUT ? res.why : devpm_error());
	}
	return 0;
}

static void suspend_order(struct devpm_usb_bus *b,
			  struct devpm_usb_item *hub, uint64_t from,
			  struct devpm_order *o)
{
	const char *kids[64];
	const struct devpm_event *ev;
	char why[300];
	size_t i, nk = 0, n;

	for (i = 0; i < b->n && nk < 64; i++)
		if (child_of(&b->it[i], hub))
			kids[nk++] = b->it[i].u.dev.name;
	ev = devpm_trace_read(b->t, 0, &n);
	if (devpm_order_suspend(ev, n, hub->u.dev.name, kids, nk, from,
				devpm_now_us(), o, why, sizeof(why)))
		devpm_usb_item_out(hub, true, "suspend order: %s", why);
}

/* Resume one child of the suspended hub: the hub must resume first. */
static void resume_order(struct devpm_block *blk, struct devpm_usb_bus *b,
			 struct devpm_usb_item *hub,
			 const struct devpm_order *so)
{
	const char *name = hub->u.dev.name;
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	struct devpm_order ro;
	struct devpm_usb_item *c = NULL;
	char why[300];
	uint64_t t0, t1;
	size_t i, n;
	int r;

	/* A leaf child: waking a hub child would leave it awake. */
	for (i = 0; i < b->n; i++)
		if (child_of(&b->it[i], hub) &&
		    (!c || (has_child(b, c) && !has_child(b, &b->it[i]))))
			c = &b->it[i];
	r = devpm_wait_status(&hub->u.dev, b->t, "suspended",
			      4 * HUB_DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(blk, "not suspended before the resume: %s",
				r == -ETIMEDOUT ? res.why : devpm_error());
	t0 = devpm_now_us();
	r = devpm_usb_control(&c->u, "on");
	t1 = devpm_now_us();
	if (r)
		devpm_block_abort(blk, "%s", devpm_error());
	trace_settle(b->t, c->u.dev.name, t0);
	ev = devpm_trace_events(b->t, &n);
	r = devpm_order_resume(ev, n, name, c->u.dev.name, t0, t1 + 100000,
			       &ro, why, sizeof(why));
	devpm_metric(name, "after_last_child_ms",
		     (double)(so->parent_us - so->child_us) / 1000);
	if (r)
		devpm_block_fail(blk, "resume order: %s", why);
	else
		devpm_block_pass(blk,
			       "suspended %.1f ms after its last child %s; resuming %s resumed it first (%.1f ms before the child finished)",
			       (double)(so->parent_us - so->child_us) / 1000,
			       so->child, c->u.dev.name,
			       (double)(ro.child_us - ro.parent_us) / 1000);
	/* Let the child go again: a failure, but after the order's. */
	if (devpm_usb_control(&c->u, "auto"))
		devpm_block_fail(blk, "%s", devpm_error());
}

struct hub {
	struct devpm_usb_bus *b;
	struct devpm_usb_item *it;
	const struct devpm_order *so;	/* its suspend order */
};

static void hub_one(struct devpm_block *blk, void *arg)
{
	struct hub *h = arg;

	devpm_usb_item_still_in(blk, h->it);
	if (!h->b->t)
		devpm_block_skip(blk,
			       "no tracefs: the order of transitions needs trace timestamps");
	if (!has_child(h->b, h->it))
		devpm_block_skip(blk, "no child USB device");
	resume_order(blk, h->b, h->it, h->so);
}

TEST_F_TIMEOUT(usb, hub_order, 60)
{
	struct devpm_order *so;
	struct devpm_subtest s;
	uint64_t from = 0;
	size_t i;
	int r;

	ASSERT_EQ(0, devpm_usb_bus_load(&self->b, HUB_DELAY_MS, HUB_DELAY_MS,
					 true))
		TH_LOG("%s", devpm_error());
	if (!self->b.n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	so = calloc(self->b.n + 1, sizeof(*so));
	ASSERT_TRUE(so != NULL);
	r = self->b.t ? tree_cycle(&self->b, &from) : -ENODATA;
	for (i = 0; i < self->b.n; i++) {
		if (!hub_testable(&self->b, &self->b.it[i]))
			continue;
		if (!r)
			suspend_order(&self->b, &self->b.it[i], from, &so[i]);
		else if (r != -ENODATA)
			devpm_usb_item_out(&self->b.it[i], true, "%s",
					   devpm_error());
	}
	devpm_subtest_begin(&s, "hub_order");
	for (i = 0; i < self->b.n; i++) {
		struct hub h = { &self->b, &self->b.it[i], &so[i] };

		/* Only hubs have a line. */
		if (h.it->u.hub || h.it->u.root_hub)
			devpm_block_run(&s, h.it->u.dev.name, hub_one, &h);
	}
	free(so);
	DEVPM_SUBTEST_END(&s);
}

/* A USB device below the controller that is not suspended, or NULL. */
static const struct devpm_usb_item *bus_awake(const struct devpm_usb_bus *b,
					      const char *hc_path)
{
	size_t i, len = strlen(hc_path);

	for (i = 0; i < b->n; i++)
		if (!strncmp(b->it[i].u.dev.path, hc_path, len) &&
		    b->it[i].u.dev.path[len] == '/' && !b->it[i].ok)
			return &b->it[i];
	return NULL;
}

struct hc {
	struct devpm_usb_bus *b;
	struct devpm_dev *hc;
};

/*
 * A controller its driver keeps active by the kernel's policy
 * (devpm_usb_hcd_hold(): usb_hcd_pci_probe() keeps the probe's reference
 * when the controller cannot signal PME) is a SKIP saying so: the kernel
 * does not promise that it suspends.
 */
static void controller(struct devpm_block *blk, struct hc *h)
{
	struct devpm_usb_bus *b = h->b;
	struct devpm_dev *hc = h->hc;
	struct devpm_pci_info pi = { 0 };
	struct devpm_wait_result res;
	struct devpm_pci *pci;
	char kp[DEVPM_PATH_MAX], why[512];
	uint64_t t0;
	long usage;
	int r;

	t0 = devpm_now_us();
	r = devpm_dev_attr(hc, "control", kp, sizeof(kp));
	if (!r)
		r = devpm_knob_write(kp, "auto");
	if (r)
		devpm_block_abort(blk, "%s", devpm_error());
	/* The driver's own delay, if it uses one, then the bound. */
	devpm_dev_snapshot(hc);
	r = devpm_wait_status(hc, b->t, "suspended", HC_WAIT_MS +
			      (hc->rpm.have_autosuspend &&
			       hc->rpm.autosuspend_delay_ms > 0 ?
			       (int)hc->rpm.autosuspend_delay_ms : 0), &res);
	if (!r) {
		devpm_metric(hc->name, "suspend_after_auto_ms",
			     (double)(res.at_us - t0) / 1000);
		devpm_block_pass(blk,
			       "suspended %.1f ms after control=auto, its whole bus suspended",
			       (double)(res.at_us - t0) / 1000);
		return;
	}
	if (r != -ETIMEDOUT)
		devpm_block_abort(blk, "%s", devpm_error());
	devpm_dev_snapshot(hc);
	pci = devpm_pci_open();
	r = pci ? devpm_pci_info(pci, hc->name, &pi) : -ENODEV;
	devpm_pci_close(pci);
	usage = hc->rpm.have_usage ? hc->rpm.usage : -1;
	if (!r && (!hc->rpm.have_active_kids || !hc->rpm.active_kids) &&
	    devpm_usb_hcd_hold(hc->driver, pi.pm_cap != 0, pi.d3hot_pme,
			       usage, why, sizeof(why)))
		devpm_block_skip(blk, "kernel policy: %s", why);
	devpm_block_fail(blk, "%s (%s): %s", hc->name, hc->driver, res.why);
}

static void hc_one(struct devpm_block *blk, void *arg)
{
	struct hc *h = arg;
	const struct devpm_usb_item *awake;

	if (strcmp(h->hc->bus, "pci"))
		devpm_block_skip(blk,
			       "not a PCI host controller (bus %s, driver %s)",
			       h->hc->bus[0] ? h->hc->bus : "none",
			       h->hc->driver);
	awake = bus_awake(h->b, h->hc->path);
	if (awake)
		devpm_block_skip(blk, "its bus is not all suspended: %s: %.400s",
			       awake->u.dev.name, awake->why);
	controller(blk, h);
}

TEST_F_TIMEOUT(usb, host_controller_follows_bus, 30)
{
	char done[8][DEVPM_PATH_MAX];
	struct devpm_dev hc;
	struct hc h = { &self->b, &hc };
	struct devpm_subtest s;
	size_t i, k, nd = 0;

	ASSERT_EQ(0, devpm_usb_bus_load(&self->b, DELAY_MS, DELAY_MS, false))
		TH_LOG("%s", devpm_error());
	if (!self->b.n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	devpm_subtest_begin(&s, "host_controller_follows_bus");
	for (i = 0; i < self->b.n && nd < 8; i++) {
		struct devpm_usb_item *it = &self->b.it[i];

		if (!it->u.root_hub || devpm_usb_controller(&it->u, &hc))
			continue;
		for (k = 0; k < nd && strcmp(done[k], hc.path); k++)
			;
		if (k < nd)
			continue;
		snprintf(done[nd++], DEVPM_PATH_MAX, "%s", hc.path);
		devpm_block_run(&s, hc.name, hc_one, &h);
	}
	DEVPM_SUBTEST_END(&s);
}

struct usage_item {
	long dev_usage;
	long if_usage[MAX_NODES];
	char if_name[MAX_NODES][64];
	int nif;
	char events[MAX_NODES][16];
	int nev;
	char disks[MAX_NODES][32];
	int ndisk;
};

static void usage_collect(const struct devpm_usb_item *it,
			  struct usage_item *ui)
{
	struct devpm_input_node ev[MAX_NODES];
	char kp[DEVPM_PATH_MAX];
	struct devpm_scsi_disk *disks;
	struct devpm_dev *ifs;
	size_t i, n;
	int k;

	memset(ui, 0, sizeof(*ui));
	ui->dev_usage = it->u.dev.rpm.have_usage ? it->u.dev.rpm.usage : -1;
	if (!devpm_usb_interfaces(&it->u, &ifs, &n)) {
		for (i = 0; i < n && ui->nif < MAX_NODES; i++) {
			snprintf(ui->if_name[ui->nif], 64, "%s", ifs[i].name);
			ui->if_usage[ui->nif++] = ifs[i].rpm.have_usage ?
						  ifs[i].rpm.usage : -1;
		}
		free(ifs);
	}
	k = devpm_input_find(it->u.dev.path, ev, MAX_NODES);
	for (i = 0; k > 0 && i < (size_t)k && i < MAX_NODES; i++)
		if (!devpm_input_dev_path(ev[i].name, kp, sizeof(kp)) &&
		    devpm_usb_owns(&it->u, kp))
			snprintf(ui->events[ui->nev++], 16, "%s", ev[i].name);
	if (!devpm_scsi_disks(&disks, &n)) {
		for (i = 0; i < n && ui->ndisk < MAX_NODES; i++)
			if (disks[i].block[0] &&
			    devpm_usb_owns(&it->u, disks[i].path))
				snprintf(ui->disks[ui->ndisk++], 32, "%s",
					 disks[i].block);
		free(disks);
	}
}

static long if_usage_now(const struct devpm_usb_item *it, const char *ifname)
{
	struct devpm_dev *ifs;
	size_t i, n;
	long u = -1;

	if (devpm_usb_interfaces(&it->u, &ifs, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(ifs[i].name, ifname) && ifs[i].rpm.have_usage)
			u = ifs[i].rpm.usage;
	free(ifs);
	return u;
}

struct use {
	struct devpm_usb_item *it;
	const struct usage_item *ui;
	pthread_t th;
	bool started;
};

/*
 * One cycle of use: usbfs open, evdev open, a disk read; all closed.  A
 * thread per device: their resumes (~0.1 s each under TCG) overlap.
 */
static void *use_once(void *arg)
{
	struct use *use = arg;
	struct devpm_usb_item *it = use->it;
	const struct usage_item *ui = use->ui;
	struct devpm_usbfs *h;
	struct devpm_input *in;
	struct devpm_blk blk;
	char st[16];
	void *buf;
	int i;

	/* The usbfs open resumes it; the rest happens while it is held. */
	if (devpm_usbfs_open(&it->u, &h)) {
		devpm_usb_item_out(it, true, "cycle: usbfs: %s", devpm_error());
		return NULL;
	}
	if (devpm_dev_status(&it->u.dev, st, sizeof(st)) || strcmp(st, "active"))
		devpm_usb_item_out(it, true, "cycle: open did not resume it (%s)",
				   st);
	for (i = 0; i < ui->nev; i++)
		if (!devpm_input_open(ui->events[i], &in))
			devpm_input_close(in);
	for (i = 0; i < ui->ndisk; i++) {
		if (devpm_blk_open(ui->disks[i], false, &blk))
			continue;
		buf = devpm_blk_alloc(4096);
		if (buf && devpm_blk_read(&blk, buf, 4096, 0))
			devpm_usb_item_out(it, true, "read of %s: %s",
					   ui->disks[i], devpm_error());
		free(buf);
		devpm_blk_close(&blk);
	}
	devpm_usbfs_close(h);
	return NULL;
}

/* Usage of the device and of each interface as before the cycles. */
static void usage_one(struct devpm_block *blk, void *arg)
{
	struct use *use = arg;
	struct devpm_usb_item *it = use->it;
	const struct usage_item *ui = use->ui;
	char extra[400] = "";
	size_t o = 0;
	long now;
	int i;

	devpm_usb_item_still_in(blk, it);
	devpm_dev_snapshot(&it->u.dev);
	now = it->u.dev.rpm.have_usage ? it->u.dev.rpm.usage : -1;
	if (now != ui->dev_usage)
		devpm_block_abort(blk, "usage %ld after %d cycles, %ld before",
				now, CYCLES, ui->dev_usage);
	for (i = 0; i < ui->nif; i++) {
		now = if_usage_now(it, ui->if_name[i]);
		if (now != ui->if_usage[i])
			devpm_block_abort(blk,
					"interface %s: usage %ld after %d cycles, %ld before",
					ui->if_name[i], now, CYCLES,
					ui->if_usage[i]);
		o += snprintf(extra + o, sizeof(extra) - o, ", %s %ld",
			      ui->if_name[i], now);
		if (o >= sizeof(extra))
			break;
	}
	devpm_block_pass(blk,
		       "usage %ld as before %d cycles (each: resumed by a usbfs open%s%s, suspended again)%s",
		       ui->dev_usage, CYCLES, ui->nev ? ", evdev opened" : "",
		       ui->ndisk ? ", a disk read" : "", extra);
}

TEST_F_TIMEOUT(usb, usage_balanced_after_cycles, 90)
{
	struct usage_item *ui;
	struct use *use;
	struct devpm_subtest s;
	char what[32];
	size_t i;
	int c;

	ASSERT_EQ(0, devpm_usb_bus_load(&self->b, CYCLE_DELAY_MS,
					 CYCLE_DISK_DELAY_MS, false))
		TH_LOG("%s", devpm_error());
	if (!self->b.n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	ui = calloc(self->b.n + 1, sizeof(*ui));
	use = calloc(self->b.n + 1, sizeof(*use));
	ASSERT_TRUE(ui && use);
	for (i = 0; i < self->b.n; i++) {
		struct devpm_usb_item *it = &self->b.it[i];

		if (!it->ok)
			continue;
		devpm_dev_snapshot(&it->u.dev);
		if (!it->u.dev.rpm.have_usage)
			devpm_usb_item_out(it, false,
					   "runtime_usage unreadable: needs CONFIG_PM_ADVANCED_DEBUG");
		else
			usage_collect(it, &ui[i]);
	}
	for (i = 0; i < self->b.n; i++) {
		use[i].it = &self->b.it[i];
		use[i].ui = &ui[i];
	}
	for (c = 0; c < CYCLES; c++) {
		for (i = 0; i < self->b.n; i++) {
			use[i].started = self->b.it[i].ok &&
				!pthread_create(&use[i].th, NULL, use_once,
						&use[i]);
		}
		for (i = 0; i < self->b.n; i++)
			if (use[i].started)
				pthread_join(use[i].th, NULL);
		snprintf(what, sizeof(what), "cycle %d", c + 1);
		devpm_usb_bus_wait(&self->b, "suspended", devpm_now_us() +
				   (uint64_t)(2 * CYCLE_DISK_DELAY_MS +
					      DEVPM_USB_BOUND_MS) * 1000, what);
	}
	devpm_subtest_begin(&s, "usage_balanced_after_cycles");
	for (i = 0; i < self->b.n; i++)
		devpm_block_run(&s, use[i].it->u.dev.name, usage_one, &use[i]);
	free(ui);
	free(use);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)

