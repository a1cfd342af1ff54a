// SPDX-License-Identifier: GPL-2.0-only
/*
 * access.c - real accesses through a PCI device's driver: each is preceded
 * by the device's runtime resume and followed by its suspend, twenty of
 * them (four of a disk read) leave the usage counts as they were, and the
 * suspend after the last one waits for the autosuspend delay.
 *
 * The accesses: an SMBus read of the SPD EEPROM address 0x50 through
 * i2c-dev on an i801 controller, a 4 KiB O_DIRECT read of a disk below the
 * controller (--allow-disk; never a disk in use), and for vfio-pci the VFIO
 * device open (cycles: VFIO low-power entry and exit).  A config space read
 * is no access: it does not resume the device (config_read_keeps_d3hot).
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "harness/test.h"
#include "bus/i2c/i2c.h"
#include "bus/pci/pci_set.h"
#include "bus/pci/pci_settle.h"
#include "bus/pci/vfio.h"
#include "bus/scsi/scsi.h"
#include "judge/usage_cycle.h"
#include "rpm/autosuspend_timer.h"
#include "trace/transition.h"
#include "pci_suite.h"

static const struct devpm_test_info info = {
	.suite = "pci",
	.timeout_s = 90,
	.needs = { .root = true, .files = (const char *[]){
			"/sys/bus/pci/devices", NULL } },
};

#define CYCLES 20
/*
 * A disk read resumes the ata port and its link (~0.33 s a cycle under
 * TCG), the same path every time: a reference leaked per access shows
 * after the first cycle, so a few prove what twenty would.
 */
#define DISK_CYCLES 4
#define SPD_ADDR 0x50
#define AUTOSUSPEND_MS 200

/*
 * ACT_CONTROL: no access known through the driver; usage_balanced cycles
 * control instead (lib/judge/usage_cycle.c), in the main thread (the journal).
 */
enum act_kind { ACT_NONE, ACT_SMBUS, ACT_DISK, ACT_VFIO, ACT_CONTROL };

struct action {
	enum act_kind kind;
	struct devpm_pci_dev *p;
	int fd;				/* /dev/i2c-N */
	struct devpm_blk blk;
	void *buf;
	char what[96];
	/* accesses and cycles, run in a thread per device */
	pthread_t thread;
	uint64_t t0, t1;		/* one access: begun, completed */
	int r;
	int done, err;
	char why[512];
	uint64_t start_us, end_us;
	long usage0, kids0;
};

FIXTURE(pci) {
	off_t mark;
	struct devpm_pci_set s;
	struct action *a;
	struct devpm_subtest sub;
};

FIXTURE_SETUP(pci)
{
	size_t i;

	self->mark = devpm_case_setup();
	ASSERT_EQ(0, devpm_pci_set_open(&self->s)) TH_LOG("%s", devpm_error());
	self->a = calloc(self->s.n ? self->s.n : 1, sizeof(*self->a));
	ASSERT_TRUE(self->a != NULL);
	/* A device no case finds an action for closes nothing (not fd 0). */
	for (i = 0; i < self->s.n; i++) {
		self->a[i].fd = -1;
		self->a[i].blk.fd = -1;
	}
}

static void action_close(struct action *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	devpm_blk_close(&a->blk);
	free(a->buf);
	a->buf = NULL;
}

FIXTURE_TEARDOWN(pci)
{
	size_t i;

	for (i = 0; i < self->s.n; i++)
		action_close(&self->a[i]);
	free(self->a);
	devpm_pci_set_close(&self->s);
	devpm_case_teardown(self->mark);
}

/* An i801 SMBus controller: its adapter, opened through i2c-dev. */
static int find_smbus(struct action *a, char *why, size_t len)
{
	struct devpm_i2c_adapter *ad;
	size_t i, n;
	int r = 1;

	if (devpm_i2c_adapters(&ad, &n) < 0)
		return 1;
	for (i = 0; i < n && r == 1; i++) {
		if (strcmp(ad[i].ctrl_name, a->p->d.name))
			continue;
		if (!devpm_i2c_is_i801(&ad[i])) {
			snprintf(why, len,
				 "SMBus adapter i2c-%d is no i801: no address known safe to read",
				 ad[i].nr);
			r = -1;
			break;
		}
		devpm_module_load("i2c_dev", NULL);
		a->fd = devpm_i2c_dev_open(ad[i].nr);
		if (a->fd < 0) {
			snprintf(why, len, "%s", devpm_error());
			r = -1;
			break;
		}
		a->kind = ACT_SMBUS;
		snprintf(a->what, sizeof(a->what),
			 "SMBus read of 0x%02x on i2c-%d", SPD_ADDR, ad[i].nr);
		r = 0;
	}
	free(ad);
	return r;
}

/* A disk below the controller that nothing uses, opened O_DIRECT. */
static int find_disk(struct action *a, char *why, size_t len)
{
	struct devpm_scsi_disk *dk;
	char no[256] = "";
	size_t i, n;
	int r = 1;

	if (devpm_scsi_disks(&dk, &n) < 0)
		return 1;
	for (i = 0; i < n && r == 1; i++) {
		if (strcmp(dk[i].ctrl, a->p->d.name) || !dk[i].block[0])
			continue;
		if (!devpm_scsi_data_ok(&dk[i], no, sizeof(no)))
			continue;
		if (devpm_blk_open(dk[i].block, false, &a->blk) < 0) {
			snprintf(why, len, "%s", devpm_error());
			r = -1;
			break;
		}
		a->buf = devpm_blk_alloc(4096);
		a->kind = ACT_DISK;
		snprintf(a->what, sizeof(a->what), "4 KiB O_DIRECT read of %s",
			 dk[i].block);
		r = 0;
	}
	if (r == 1 && no[0]) {
		snprintf(why, len, "%s", no);
		r = -1;
	}
	free(dk);
	return r;
}

/* What real access p's driver offers; 0, or why (a SKIP) in a->why. */
static int action_find(struct devpm_pci_dev *p, struct action *a)
{
	int r;

	memset(a, 0, sizeof(*a));
	a->p = p;
	a->fd = -1;
	a->blk.fd = -1;
	if (!p->d.driver[0]) {
		snprintf(a->why, sizeof(a->why),
			 "unbound: no driver to access it through");
		a->kind = ACT_CONTROL;
		return -1;
	}
	if (!strcmp(p->d.driver, DEVPM_VFIO_DRIVER)) {
		/* Loaded here: the accesses run in threads, the journal not. */
		if (devpm_module_load("vfio_iommu_type1", NULL) < 0) {
			snprintf(a->why, sizeof(a->why), "%s", devpm_error());
			return -1;
		}
		a->kind = ACT_VFIO;
		snprintf(a->what, sizeof(a->what), "VFIO device open");
		return 0;
	}
	r = find_smbus(a, a->why, sizeof(a->why));
	if (r == 1)
		r = find_disk(a, a->why, sizeof(a->why));
	if (r == 1) {
		snprintf(a->why, sizeof(a->why),
			 "no driver action known for %s", p->d.driver);
		a->kind = ACT_CONTROL;
	}
	return r ? -1 : 0;
}

/* One access; 0 when it completed. */
static int action_do(struct action *a)
{
	struct devpm_vfio *v;
	int r;

	switch (a->kind) {
	case ACT_SMBUS:
		r = devpm_i2c_smbus_read_byte(a->fd, SPD_ADDR, 0, true);
		/* No answer at 0x50 is a transfer the controller completed. */
		return r >= 0 || r == -ENXIO ? 0 : r;
	case ACT_DISK:
		return devpm_blk_read(&a->blk, a->buf, 4096, 0);
	case ACT_VFIO:
		v = devpm_vfio_open(&a->p->d);
		if (!v)
			return -EIO;
		devpm_vfio_close(v);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * The parts with an action, suspended.  short_delay: autosuspend delays
 * made short first, so that an access does not wait for them.
 */
static void prepare(struct devpm_pci_set *s, struct action *acts,
		    bool short_delay, devpm_pci_want_fn *want)
{
	size_t i;

	devpm_pci_set_parts(s, true, want);
	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];

		if (!p->part)
			continue;
		if (action_find(p, &acts[i]) < 0) {
			snprintf(p->skip, sizeof(p->skip), "%s", acts[i].why);
			p->part = false;
			continue;
		}
	}
	devpm_pci_set_allow(s, false, short_delay);
	devpm_pci_set_settle(s);
}

/* Wait until p is suspended again, delay + bound after now. */
static int suspended_again(struct devpm_pci_set *s, struct devpm_pci_dev *p,
			   struct devpm_wait_result *w)
{
	devpm_dev_snapshot(&p->d);
	p->deadline_us = devpm_now_us() +
			 (uint64_t)(p->delay_ms + DEVPM_PCI_BOUND_MS) * 1000;
	return devpm_pci_dev_wait_suspended(s, p, w);
}

static void *access_one(void *arg)
{
	struct action *a = arg;

	a->t0 = devpm_now_us();
	a->r = action_do(a);
	a->t1 = devpm_now_us();
	if (a->r < 0)
		snprintf(a->why, sizeof(a->why), "%s", devpm_error());
	return NULL;
}

/* Start one thread per part running fn; a part without one skips. */
static void run_threads(struct devpm_pci_set *s, struct action *acts,
			void *(*fn)(void *))
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!s->v[i].part)
			continue;
		if (pthread_create(&acts[i].thread, NULL, fn, &acts[i])) {
			snprintf(s->v[i].skip, sizeof(s->v[i].skip),
				 "cannot start a thread");
			s->v[i].part = false;
		}
	}
	for (i = 0; i < s->n; i++)
		if (s->v[i].part)
			pthread_join(acts[i].thread, NULL);
}

/* What a case's blocks share: the set, the device and its action. */
struct access_ctx {
	struct devpm_pci_set *s;
	struct devpm_pci_dev *p;
	size_t i;		/* p's index: its action is acts[i] */
	struct action *acts;
};

/* The access of a suspended device: resumed for it, suspended after. */
static void resumes_one(struct devpm_block *b, void *arg)
{
	struct access_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	struct action *a = &c->acts[c->i];
	struct devpm_wait_result w;
	const struct devpm_event *ev;
	uint64_t at;
	size_t n;
	int r;

	if (!p->part)
		devpm_block_skip(b, "%s", p->skip);
	if (a->r < 0)
		devpm_block_abort(b, "%s failed: %s", a->what, a->why);
	ev = devpm_trace_read(s->t, 0, &n);
	if (devpm_rpm_resumes(ev, n, p->d.name, a->t0, a->t1, &at, 1) < 1)
		devpm_block_abort(b,
				"%s completed in %.1f ms without a traced resume of the device",
				a->what, us_to_ms(a->t1 - a->t0));
	r = suspended_again(s, p, &w);
	if (r)
		devpm_block_abort(b, "%s: resumed, then not suspended again: %s",
				a->what, r == 1 ? p->skip :
				w.why[0] ? w.why : devpm_error());
	devpm_metric(p->d.name, "access_resume_us", (double)(at - a->t0));
	devpm_block_pass(b,
		       "%s: resumed after %.1f ms, completed after %.1f ms, suspended again %.1f ms later",
		       a->what, us_to_ms(at - a->t0), us_to_ms(a->t1 - a->t0),
		       us_to_ms(w.at_us - a->t1));
}

TEST_F(pci, access_resumes_device)
{
	struct access_ctx c = { .s = &self->s };

	if (!c.s->t)
		SKIP(return, "needs rpm trace events: %s", c.s->trace_why);
	prepare(c.s, self->a, true, NULL);
	/* All devices at once: each access is timed in its own thread. */
	devpm_trace_poll(c.s->t, 0);
	run_threads(c.s, self->a, access_one);
	devpm_subtest_begin(&self->sub, "access_resumes_device");
	c.acts = self->a;
	devpm_pci_set_each(&self->sub, c.s, resumes_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

static int snapshot_counts(struct devpm_pci_dev *p, long *usage, long *kids)
{
	int r = devpm_dev_snapshot(&p->d);

	*usage = p->d.rpm.have_usage ? p->d.rpm.usage : -1;
	*kids = p->d.rpm.have_active_kids ? p->d.rpm.active_kids : -1;
	return r;
}

static bool cycle_suspended(void *arg)
{
	struct action *a = arg;

	return devpm_pci_dev_status_is(a->p, "suspended");
}

/* The device's own autosuspend delay in ms (0: it does not use one). */
static long own_delay_ms(const struct devpm_pci_dev *p)
{
	char k[DEVPM_PATH_MAX];
	long ms;

	if (devpm_dev_attr(&p->d, "autosuspend_delay_ms", k, sizeof(k)) < 0 ||
	    devpm_read_long(k, &ms) < 0)
		return 0;
	return ms;
}

/*
 * Wait for the suspend that ends a cycle.  Threads do not share the trace,
 * so poll runtime_status, backing off from 1 ms to 8 ms only: a cycle
 * takes tens of milliseconds.
 */
static int cycle_wait(struct action *a)
{
	struct timespec ts = { 0, 1000000L };
	uint64_t end = devpm_now_us() +
		       (uint64_t)(a->p->delay_ms + DEVPM_PCI_BOUND_MS) * 1000;
	struct devpm_diag diag;

	while (!cycle_suspended(a)) {
		if (devpm_now_us() > end) {
			devpm_dev_snapshot(&a->p->d);
			devpm_diagnose(&a->p->d, &diag);
			devpm_diag_line(&diag, a->why, sizeof(a->why));
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 8000000L)
			ts.tv_nsec *= 2;
	}
	/* It waited out its autosuspend delay (least_time.h). */
	devpm_least_time_add_before(devpm_now_us(), own_delay_ms(a->p));
	return 0;
}

static int cycles_of(const struct action *a)
{
	return a->kind == ACT_DISK ? DISK_CYCLES : CYCLES;
}

static void *cycles(void *arg)
{
	struct action *a = arg;
	struct devpm_vfio *v = NULL;
	int i, r = 0;

	a->start_us = devpm_now_us();
	if (a->kind == ACT_VFIO) {
		v = devpm_vfio_open(&a->p->d);
		if (!v) {
			snprintf(a->why, sizeof(a->why), "%s", devpm_error());
			a->err = -EIO;
			return NULL;
		}
	}
	for (i = 0; i < cycles_of(a) && !r; i++) {
		if (v) {
			/* idle: low-power entry; access: its exit */
			r = devpm_vfio_low_power(v, true);
			if (!r)
				r = cycle_wait(a);
			if (!r)
				r = devpm_vfio_low_power(v, false);
		} else {
			r = action_do(a);
			if (!r)
				r = cycle_wait(a);
		}
		if (r && !a->why[0])
			snprintf(a->why, sizeof(a->why), "%s", devpm_error());
		a->done = i + (r ? 0 : 1);
	}
	devpm_vfio_close(v);
	if (!r && v)
		r = cycle_wait(a);
	a->end_us = devpm_now_us();
	a->err = r;
	return NULL;
}

/* The device's accesses in cycles: usage counts as before, trace agrees. */
static void check_balance(struct devpm_block *b, struct devpm_pci_set *s,
			  struct action *a)
{
	struct devpm_pci_dev *p = a->p;
	const struct devpm_event *ev;
	long usage, kids;
	size_t n;
	int resumes, traced = -1;

	if (a->err)
		devpm_block_abort(b, "cycle %d of %d: %s: %s", a->done + 1,
				cycles_of(a), a->what, a->why);
	snapshot_counts(p, &usage, &kids);
	ev = devpm_trace_read(s->t, 0, &n);
	resumes = devpm_rpm_resumes(ev, n, p->d.name, a->start_us, a->end_us,
				    NULL, 0);
	traced = devpm_rpm_last_usage(ev, n, p->d.name, a->start_us,
				      devpm_now_us());
	if (resumes < cycles_of(a))
		devpm_block_abort(b,
				"%d cycles of %s but %d resumes traced: it did not cycle",
				cycles_of(a), a->what, resumes);
	if (usage != a->usage0 || kids != a->kids0)
		devpm_block_abort(b,
				"after %d cycles of %s: runtime_usage %ld (was %ld), runtime_active_kids %ld (was %ld)",
				cycles_of(a), a->what, usage, a->usage0, kids,
				a->kids0);
	if (traced < 0 || (usage >= 0 && traced != usage) ||
	    (usage < 0 && traced != 0))
		devpm_block_abort(b,
				"after %d cycles: the last rpm event shows usage %d, runtime_usage says %ld",
				cycles_of(a), traced, usage);
	devpm_block_pass(b,
		       "%d cycles of %s (%d resumes) in %.0f ms: usage %ld, active kids %ld as before; trace agrees",
		       cycles_of(a), a->what, resumes,
		       us_to_ms(a->end_us - a->start_us), usage, kids);
}

/* No access known: control on -> auto cycles (rule 4, lib/judge/usage_cycle.c). */
static void check_control_cycles(struct devpm_block *b,
				 struct devpm_pci_set *s,
				 struct devpm_pci_dev *p)
{
	struct devpm_usage_cycle c;

	if (devpm_usage_cycle_control(&p->d, s->t, CYCLES, DEVPM_PCI_BOUND_MS, &c))
		devpm_block_abort(b, "%s (driver %s)",
				c.why[0] ? c.why : devpm_error(),
				p->d.driver[0] ? p->d.driver : "none");
	devpm_block_pass(b,
		       "no access known: %d control on/auto cycles in %.0f ms, each suspended again with usage %ld (%s) as at baseline",
		       c.done, us_to_ms(c.elapsed_us), c.usage, c.usage_src);
}

static void balance_one(struct devpm_block *b, void *arg)
{
	struct access_ctx *c = arg;

	if (!c->p->part && c->acts[c->i].kind == ACT_CONTROL)
		check_control_cycles(b, c->s, c->p);
	else if (!c->p->part)
		devpm_block_skip(b, "%s", c->p->skip);
	else
		check_balance(b, c->s, &c->acts[c->i]);
}

TEST_F_TIMEOUT(pci, usage_balanced_after_cycles, 60)
{
	struct access_ctx c = { .s = &self->s };
	struct devpm_pci_set *s = c.s;
	size_t i;

	if (!s->t)
		SKIP(return, "needs rpm trace events: %s", s->trace_why);
	prepare(s, self->a, true, NULL);
	for (i = 0; i < s->n; i++)
		if (s->v[i].part)
			snapshot_counts(&s->v[i], &self->a[i].usage0,
					&self->a[i].kids0);
	/* Every device cycles in a thread of its own, all at once. */
	run_threads(s, self->a, cycles);
	devpm_subtest_begin(&self->sub, "usage_balanced_after_cycles");
	c.acts = self->a;
	devpm_pci_set_each(&self->sub, c.s, balance_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

static bool uses_autosuspend(const struct devpm_pci_dev *p, char *why,
			     size_t len)
{
	if (p->d.rpm.have_autosuspend && p->d.rpm.autosuspend_delay_ms >= 0)
		return true;
	snprintf(why, len, "%s does not use autosuspend",
		 p->d.driver[0] ? p->d.driver : "unbound: it");
	return false;
}

/*
 * After the last access the suspend must begin when the kernel promised
 * (rpm/autosuspend_timer.h): no sooner than last_busy + delay, from a
 * timer armed to expire by delay + 25 % slack, run by pm_wq within the
 * allowance; a timer the host delivered late is no runtime-PM promise.
 */
static void delay_one(struct devpm_block *b, void *arg)
{
	struct access_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	struct action *a = &c->acts[c->i];
	struct devpm_autosuspend as;
	struct devpm_wait_result w;
	const struct devpm_event *ev;
	char k[DEVPM_PATH_MAX], why[512];
	uint64_t t0;
	size_t n;
	int r;

	if (!p->part)
		devpm_block_skip(b, "%s", p->skip);
	if (devpm_dev_attr(&p->d, "autosuspend_delay_ms", k, sizeof(k)) < 0 ||
	    devpm_knob_write_long(k, AUTOSUSPEND_MS) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	devpm_trace_poll(s->t, 0);
	t0 = devpm_now_us();
	if (action_do(a) < 0)
		devpm_block_abort(b, "%s failed: %s", a->what, devpm_error());
	p->delay_ms = AUTOSUSPEND_MS;
	if (suspended_again(s, p, &w))
		devpm_block_abort(b, "not suspended %d ms after %s: %s",
				AUTOSUSPEND_MS + DEVPM_PCI_BOUND_MS, a->what,
				w.why[0] ? w.why : p->skip);
	ev = devpm_trace_read(s->t, 0, &n);
	r = devpm_autosuspend_check(ev, n, p->d.name, t0, devpm_now_us(),
				    AUTOSUSPEND_MS, &as, why, sizeof(why));
	if (r < 0)
		devpm_block_abort(b, "%s: %s", a->what, why);
	if (r)
		devpm_block_abort(b, "%s (%s): %s (%s)", p->d.name,
				  p->d.driver, why, a->what);
	if (!as.soft_us || !as.busy_us)
		devpm_block_abort(b, "%s: the trace shows no pm_suspend_timer_fn armed for it: the delay was not exercised",
				  a->what);
	devpm_metric(p->d.name, "autosuspend_error_ms",
		     us_to_ms(as.begin_us - as.busy_us) - AUTOSUSPEND_MS);
	devpm_metric(p->d.name, "autosuspend_late_us", (double)as.late_us);
	devpm_block_pass(b,
		       "suspend began %.1f ms after the last access marked it busy (%s): timer armed for %.1f..%.1f ms, fired at %.1f ms",
		       us_to_ms(as.begin_us - as.busy_us), a->what,
		       us_to_ms(as.soft_us - as.busy_us),
		       us_to_ms(as.hard_us - as.busy_us),
		       as.fired_us ? us_to_ms(as.fired_us - as.busy_us) : 0.0);
}

TEST_F(pci, autosuspend_delay_honoured)
{
	struct access_ctx c = { .s = &self->s };

	if (!c.s->t)
		SKIP(return, "needs rpm trace events: %s", c.s->trace_why);
	prepare(c.s, self->a, false, uses_autosuspend);
	if (devpm_autosuspend_trace(c.s->t) < 0)
		SKIP(return, "no hrtimer trace events: %s", devpm_error());
	devpm_subtest_begin(&self->sub, "autosuspend_delay_honoured");
	c.acts = self->a;
	devpm_pci_set_each(&self->sub, c.s, delay_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

DEVPM_TEST_MAIN(info)
