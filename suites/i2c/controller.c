// SPDX-License-Identifier: GPL-2.0-only
/*
 * controller.c - I2C: the controller behind each adapter suspends when
 * idle and is resumed by every transfer, EEPROM reads through at24 and
 * SMBus reads through i2c-dev alike; its autosuspend delay is honoured and
 * its usage count balances.
 *
 * An adapter has no runtime-PM callbacks: its controller (the nearest
 * ancestor with power/control, i801's PCI function) is what suspends.
 * Transfers need an address that is safe to read on any machine: only the
 * SPD EEPROM at 0x50 of an i801 SMBus is read (q35 has eight of them).
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/i2c.h>

#include "harness/test.h"
#include "bus/i2c/i2c.h"
#include "rpm/autosuspend_timer.h"
#include "trace/transition.h"

#define EEPROM_ADDR	0x50
#define EEPROM_TYPE	"24c02"
#define EEPROM_LEN	256
#define READS		20
#define CYCLE_DELAY_MS	50	/* short delay for the read cycles */
#define HONOUR_DELAY_MS	200
#define HONOUR_SAMPLES	3
#define USAGE_CYCLES	10
#define USAGE_DELAY_MS	50

static const struct devpm_test_info info = {
	.suite = "i2c",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM", "CONFIG_I2C",
						   NULL },
	},
};

FIXTURE(i2c) {
	off_t mark;
	struct devpm_i2c_adapter *ad;	/* one adapter per controller */
	size_t n;
	struct devpm_trace *trace;
};

/* Adapters without a runtime-PM controller are listed, then dropped. */
static void controllers(struct devpm_i2c_adapter **list, size_t *n,
			struct devpm_subtest *s)
{
	size_t i, j, k = 0;

	for (i = 0; i < *n; i++) {
		struct devpm_i2c_adapter *a = &(*list)[i];
		bool dup = false;

		if (!a->ctrl[0]) {
			char name[32];

			snprintf(name, sizeof(name), "i2c-%d", a->nr);
			devpm_subtest_skip(s, name,
				       "%s: no ancestor with runtime-PM callbacks (no power/control)",
				       a->name);
			continue;
		}
		for (j = 0; j < k; j++)
			dup |= !strcmp((*list)[j].ctrl, a->ctrl);
		if (!dup)
			(*list)[k++] = *a;
	}
	*n = k;
}

/* The adapter's controller, or the block ends failed. */
static void open_ctrl(struct devpm_block *b,
		      const struct devpm_i2c_adapter *a, struct devpm_dev *d)
{
	if (devpm_dev_open(d, a->ctrl) < 0)
		devpm_block_abort(b, "%s", devpm_error());
}

FIXTURE_SETUP(i2c)
{
	self->mark = devpm_case_setup();
	self->ad = NULL;
	self->n = 0;
	self->trace = NULL;
	if (devpm_i2c_adapters(&self->ad, &self->n) < 0)
		TH_LOG("i2c adapters: %s", devpm_error());
}

FIXTURE_TEARDOWN(i2c)
{
	if (self->trace)
		devpm_trace_stop(self->trace);
	free(self->ad);
	devpm_case_teardown(self->mark);
}

/* control=auto and a given autosuspend delay, both journaled. */
static int ctrl_prepare(struct devpm_dev *d, long delay_ms)
{
	char v[24];
	int r;

	snprintf(v, sizeof(v), "%ld", delay_ms);
	r = devpm_dev_knob_write(d, "autosuspend_delay_ms", v);
	if (!r)
		r = devpm_dev_knob_write(d, "control", "auto");
	if (!r)
		r = devpm_dev_snapshot(d);
	return r;
}

/*
 * The suspend an autosuspend delay of delay_ms brings, bounded by the
 * delay, its 25% timer slack, and a second.
 */
static int wait_suspended(struct devpm_dev *d, struct devpm_trace *t,
			  long delay_ms, struct devpm_wait_result *res)
{
	return devpm_wait_status_why(d, t, "suspended",
				     (int)(delay_ms + delay_ms / 4 + 1000),
				     res);
}

static struct devpm_trace *start_trace(const char *a, const char *b)
{
	const char *devs[3];
	struct devpm_trace *t;

	devs[0] = a;
	devs[1] = b;
	devs[2] = NULL;
	t = devpm_trace_start(devs);

	if (!t)
		devpm_note("no trace (%s): polling runtime_status", devpm_error());
	return t;
}

/* rpm_resume calls of dev made in the window, whatever their outcome. */
static int resume_calls(struct devpm_trace *t, const char *dev, uint64_t from,
			uint64_t to)
{
	const struct devpm_event *ev;
	struct devpm_call c[64];
	size_t n, k, i;
	int found = 0;

	ev = devpm_trace_read(t, 0, &n);
	k = devpm_rpm_calls(ev, n, dev, from, to, c, 64);
	for (i = 0; i < k && i < 64; i++)
		found += c[i].type == DEVPM_EV_RPM_RESUME;
	return found;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/*
 * A controller held by someone else (usage count, a busy child that is no
 * adapter: a GPU with DDC buses, firmware that took the SMBus) is not
 * idle, and "suspends when idle" says nothing about it.  True, with the
 * diagnosis in why, when that is what keeps it active.
 */
/*
 * Held by others (usage, active children) - but only if it was so at
 * baseline: a hold that appeared during the run is the driver's bug, a
 * failure, never a reason to skip.
 */
static bool held_by_others(struct devpm_dev *d, char *why, size_t len)
{
	const struct devpm_baseline *b = devpm_baseline();
	const struct devpm_base_dev *base = b ?
		devpm_baseline_find(b, d->path) : NULL;
	struct devpm_diag diag;
	char line[512];
	bool held = false;
	int i;

	if (base && base->could_suspend)
		return false;
	if (devpm_dev_snapshot(d) < 0 || devpm_diagnose(d, &diag) <= 0)
		return false;
	for (i = 0; i < diag.n; i++)
		held |= diag.r[i].code == DEVPM_R_USAGE_HELD ||
			diag.r[i].code == DEVPM_R_PROBE_USAGE ||
			diag.r[i].code == DEVPM_R_ACTIVE_CHILDREN;
	if (!held)
		return false;
	devpm_diag_line(&diag, line, sizeof(line));
	snprintf(why, len, "not idle (%s) since baseline (%s): %s", d->driver,
		 base ? base->role : "no baseline", line);
	return true;
}

static void autosuspends_one(struct devpm_block *b, void *arg)
{
	const struct devpm_i2c_adapter *a = arg;
	struct devpm_wait_result res;
	struct devpm_autosuspend as;
	struct devpm_trace *t;
	struct devpm_dev d;
	char why[640], line[256];
	long delay;
	uint64_t t0;
	int hold, r;

	open_ctrl(b, a, &d);
	delay = d.rpm.have_autosuspend ? d.rpm.autosuspend_delay_ms : 0;
	if (delay < 0)
		devpm_block_skip(b, "autosuspend_delay_ms=%ld: user space turned autosuspend off",
			       delay);
	t = start_trace(d.name, NULL);
	devpm_block_defer_trace_stop(b, t);
	/* Negative control: control=on must keep it active. */
	if (devpm_dev_knob_write(&d, "control", "on"))
		devpm_block_abort(b, "control=on: %s", devpm_error());
	if (devpm_wait_status_why(&d, t, "active", 1000, &res))
		devpm_block_abort(b, "control=on: %s", res.why);
	/*
	 * With auto it would suspend within delay + 25% of its last use,
	 * which is long past unless something else uses it: a hold of up
	 * to 500 ms + 300 ms shows the difference.
	 */
	hold = (int)(delay + delay / 4 < 500 ? delay + delay / 4 : 500) + 300;
	r = devpm_wait_status_why(&d, t, "suspended", hold, &res);
	if (!r)
		devpm_block_abort(b, "suspended %.0f ms after control=on: control=on must keep it active",
				(double)res.waited_us / 1000);
	if (r != -ETIMEDOUT)
		devpm_block_abort(b, "%s", devpm_error());
	if (t && devpm_autosuspend_trace(t) < 0)
		devpm_note("no hrtimer events (%s): a late timer counts as late",
			   devpm_error());
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&d, "control", "auto"))
		devpm_block_abort(b, "control=auto: %s", devpm_error());
	r = devpm_wait_autosuspend(&d, t, t0, &as, &res, why, sizeof(why));
	if (r == -ETIMEDOUT && held_by_others(&d, why, sizeof(why)))
		devpm_block_skip(b, "%s", why);
	if (r > 0 || r == -ETIMEDOUT)
		devpm_block_abort(b, "%s (%s): %s", d.name, d.driver, why);
	if (r < -1)
		devpm_block_abort(b, "%s", why);
	devpm_metric(d.name, "suspend_after_ms",
		     (double)(res.at_us - t0) / 1000);
	if (r < 0) {
		devpm_block_pass(b, "for %s: active %d ms with control=on, suspended %.1f ms after control=auto (delay %ld ms; %s)",
			       a->name, hold, (double)(res.at_us - t0) / 1000,
			       delay, why);
		return;
	}
	devpm_autosuspend_line(&as, line, sizeof(line));
	devpm_block_pass(b, "for %s: active %d ms with control=on, then control=auto: %s (delay %ld ms)",
		       a->name, hold, line, delay);
}

/* Each controller's block in its own line, named after the controller. */
static void each_controller(struct _test_data_i2c *self, struct devpm_subtest *s,
			    devpm_block_fn *fn)
{
	size_t i;

	controllers(&self->ad, &self->n, s);
	for (i = 0; i < self->n; i++)
		devpm_block_run(s, self->ad[i].ctrl_name, fn, &self->ad[i]);
}

/* A case: fn's block for every controller, one line each. */
static void per_controller(struct __test_metadata *_metadata,
			   struct _test_data_i2c *self, const char *name,
			   devpm_block_fn *fn)
{
	struct devpm_subtest s;

	devpm_subtest_begin(&s, name);
	each_controller(self, &s, fn);
	DEVPM_SUBTEST_END(&s);
}

TEST_F(i2c, controller_autosuspends)
{
	per_controller(_metadata, self, "controller_autosuspends", autosuspends_one);
}

/* The i801 adapters among the controllers; the others are skipped. */
static void i801_only(struct devpm_block *b,
		      const struct devpm_i2c_adapter *a)
{
	if (!devpm_i2c_is_i801(a))
		devpm_block_skip(b, "%s (i2c-%d): no address known to be safe to read (only an i801's SPD EEPROM at 0x%02x is read)",
			       a->name, a->nr, EEPROM_ADDR);
}

/*
 * The client at 0x50: ours (journaled) or one a driver with an EEPROM
 * already has.  0 and the client path and nvmem file, 1 skip, <0 fail.
 */
static int eeprom_client(const struct devpm_i2c_adapter *a, char *client,
			 size_t clen, char *nvmem, size_t nlen, char *why,
			 size_t wlen)
{
	struct devpm_dev c;
	int r;

	if (devpm_i2c_client(a->nr, EEPROM_ADDR, client, clen)) {
		r = devpm_i2c_new_device(a->nr, EEPROM_TYPE, EEPROM_ADDR);
		if (r) {
			snprintf(why, wlen, "new_device %s 0x%02x: %s",
				 EEPROM_TYPE, EEPROM_ADDR, devpm_error());
			return r;
		}
		r = devpm_i2c_client(a->nr, EEPROM_ADDR, client, clen);
		if (r) {
			snprintf(why, wlen, "%s", devpm_error());
			return r;
		}
	}
	if (devpm_dev_open(&c, client) < 0) {
		snprintf(why, wlen, "%s", devpm_error());
		return -EIO;
	}
	/* at24 probes synchronously; an ee1004 or spd5118 may be there. */
	if (!c.driver[0] || devpm_i2c_eeprom(client, nvmem, nlen)) {
		snprintf(why, wlen, "%s: %s", c.name, c.driver[0] ?
			 "its driver exposes no EEPROM" :
			 "no driver bound (at24 did not probe)");
		return c.driver[0] ? 1 : -ENODEV;
	}
	return 0;
}

/*
 * One read: each must have made rpm_resume calls on the controller; a
 * controller that was suspended must have been resumed exactly once, an
 * active one not at all (the detector's negative control).
 */
static int check_read(struct devpm_trace *t, const char *ctrl, bool was_susp,
		      uint64_t t0, uint64_t t1, char *why, size_t len)
{
	const struct devpm_event *ev;
	int calls, real;
	size_t n;

	if (!t)
		return 0;
	calls = resume_calls(t, ctrl, t0, t1);
	ev = devpm_trace_read(t, 0, &n);
	real = devpm_rpm_resumes(ev, n, ctrl, t0, t1, NULL, 0);
	if (!calls) {
		snprintf(why, len, "no rpm_resume of %s during the read", ctrl);
		return -1;
	}
	if (real != (was_susp ? 1 : 0)) {
		snprintf(why, len, "%d resumes of %s during a read that found it %s (want %d)",
			 real, ctrl, was_susp ? "suspended" : "active",
			 was_susp ? 1 : 0);
		return -1;
	}
	return 0;
}

/*
 * Before read k of a cycle: even reads wait for the controller to
 * suspend, odd ones find it active from the read before.  1 suspended,
 * 0 active, -1 the wait failed (res->why).
 */
static int before_read(struct devpm_dev *d, struct devpm_trace *t, int k,
		       struct devpm_wait_result *res)
{
	char st[64];

	if (k % 2 == 0 && wait_suspended(d, t, CYCLE_DELAY_MS, res))
		return -1;
	devpm_dev_status(d, st, sizeof(st));
	return !strcmp(st, "suspended");
}

/*
 * The controller's line until the EEPROM client is found, then the
 * client's: what the reads say is about the client's resume path.
 */
static void eeprom_one(struct devpm_block *b, void *arg)
{
	const struct devpm_i2c_adapter *a = arg;
	unsigned char ref[EEPROM_LEN], buf[EEPROM_LEN];
	char client[DEVPM_PATH_MAX], nvmem[DEVPM_PATH_MAX], why[512];
	uint64_t lat_s[READS], lat_a[READS];
	struct devpm_wait_result res;
	struct devpm_trace *t;
	struct devpm_dev d, c;
	size_t ns = 0, na = 0;
	ssize_t got;
	int k, r;

	i801_only(b, a);
	if (devpm_module_load("at24", NULL))
		devpm_block_skip(b, "%s", devpm_error());
	r = eeprom_client(a, client, sizeof(client), nvmem, sizeof(nvmem), why,
			  sizeof(why));
	if (r > 0)
		devpm_block_skip(b, "%s", why);
	if (r)
		devpm_block_abort(b, "%s", why);
	if (devpm_dev_open(&d, a->ctrl) < 0 || devpm_dev_open(&c, client) < 0 ||
	    ctrl_prepare(&d, CYCLE_DELAY_MS))
		devpm_block_abort(b, "%s", devpm_error());
	devpm_block_name(b, c.name);
	t = start_trace(d.name, c.name);
	devpm_block_defer_trace_stop(b, t);
	for (k = 0; k < READS; k++) {
		bool susp;
		uint64_t t0, t1;

		r = before_read(&d, t, k, &res);
		if (r < 0)
			devpm_block_abort(b, "before read %d: %s", k + 1, res.why);
		susp = r;
		t0 = devpm_now_us();
		got = devpm_i2c_eeprom_read(nvmem, buf, sizeof(buf), 0);
		t1 = devpm_now_us();
		if (got != EEPROM_LEN)
			devpm_block_abort(b, "read %d: %s", k + 1,
					got < 0 ? devpm_error() : "short read");
		if (susp)
			lat_s[ns++] = t1 - t0;
		else
			lat_a[na++] = t1 - t0;
		if (!k)
			memcpy(ref, buf, sizeof(ref));
		else if (memcmp(ref, buf, sizeof(ref)))
			devpm_block_fail(b, "read %d differs from read 1", k + 1);
		if (check_read(t, d.name, susp, t0, t1, why, sizeof(why)))
			devpm_block_fail(b, "read %d: %s", k + 1, why);
		/* The reads after a wrong one prove nothing more. */
		if (devpm_block_failed(b))
			return;
	}
	if (wait_suspended(&d, t, CYCLE_DELAY_MS, &res) ||
	    (c.rpm.have_status &&
	     devpm_wait_status_why(&c, t, "suspended", 1000, &res)))
		devpm_block_abort(b, "after the reads: %s", res.why);
	if (!ns)
		devpm_block_abort(b, "no read found %s suspended: nothing was tested",
				d.name);
	devpm_block_pass(b, "%d reads of %d bytes identical; %zu resumed %s from suspended, %zu found it active; %s and %s suspended again",
		       READS, EEPROM_LEN, ns, d.name, na, d.name, c.name);
	devpm_metric(c.name, "first_read_latency_us",
		     (double)median(lat_s, ns));
	devpm_metric(c.name, "active_read_latency_us",
		     (double)median(lat_a, na));
}

TEST_F(i2c, eeprom_read_resumes_controller)
{
	per_controller(_metadata, self, "eeprom_read_resumes_controller", eeprom_one);
}

/* i2c-dev on the adapter, loading i2c_dev if needed: fd, or -1 (why). */
static int open_i2c_dev(const struct devpm_i2c_adapter *a, bool *force,
			char *why, size_t len)
{
	char client[DEVPM_PATH_MAX];
	unsigned long funcs;
	int fd;

	if (devpm_module_load("i2c_dev", NULL) < 0) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	fd = devpm_i2c_dev_open(a->nr);
	if (fd < 0) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	funcs = devpm_i2c_funcs(fd);
	if (!(funcs & I2C_FUNC_SMBUS_READ_BYTE_DATA)) {
		snprintf(why, len, "i2c-%d cannot do SMBus read byte data (funcs 0x%lx)",
			 a->nr, funcs);
		close(fd);
		return -1;
	}
	/* A driver may hold 0x50 (at24, ee1004): read beside it. */
	*force = !devpm_i2c_client(a->nr, EEPROM_ADDR, client, sizeof(client));
	return fd;
}

static void smbus_one(struct devpm_block *b, void *arg)
{
	const struct devpm_i2c_adapter *a = arg;
	struct devpm_wait_result res;
	struct devpm_trace *t;
	struct devpm_dev d;
	char why[512];
	bool force;
	int fd, k, r, ns = 0;

	i801_only(b, a);
	fd = open_i2c_dev(a, &force, why, sizeof(why));
	if (fd < 0)
		devpm_block_skip(b, "%s", why);
	devpm_block_defer_close(b, fd);
	if (devpm_dev_open(&d, a->ctrl) < 0 || ctrl_prepare(&d, CYCLE_DELAY_MS))
		devpm_block_abort(b, "%s", devpm_error());
	t = start_trace(d.name, NULL);
	devpm_block_defer_trace_stop(b, t);
	/* Register k read twice: from suspended, then while active. */
	for (k = 0; k < READS; k++) {
		uint64_t t0, t1;
		bool susp;
		int v, first = 0;

		r = before_read(&d, t, k, &res);
		if (r < 0)
			devpm_block_abort(b, "before transfer %d: %s", k + 1,
					res.why);
		susp = r;
		ns += susp;
		t0 = devpm_now_us();
		v = devpm_i2c_smbus_read_byte(fd, EEPROM_ADDR, k / 2, force);
		t1 = devpm_now_us();
		if (v == -ENXIO && !k)
			devpm_block_skip(b, "no device answers at 0x%02x on i2c-%d",
				       EEPROM_ADDR, a->nr);
		if (v < 0)
			devpm_block_abort(b, "transfer %d: %s", k + 1,
					devpm_error());
		if (k % 2 == 0)
			first = v;
		else if (v != first)
			devpm_block_fail(b, "register 0x%02x read 0x%02x from suspended, 0x%02x while active",
				       k / 2, first, v);
		if (check_read(t, d.name, susp, t0, t1, why, sizeof(why)))
			devpm_block_fail(b, "transfer %d: %s", k + 1, why);
		if (devpm_block_failed(b))
			return;
	}
	if (wait_suspended(&d, t, CYCLE_DELAY_MS, &res))
		devpm_block_abort(b, "after the transfers: %s", res.why);
	if (!ns)
		devpm_block_abort(b, "no transfer found it suspended: nothing was tested");
	devpm_block_pass(b, "%d SMBus reads of 0x%02x on i2c-%d: each made rpm_resume calls, %d resumed it from suspended, values stable; suspended again",
		       READS, EEPROM_ADDR, a->nr, ns);
}

TEST_F(i2c, smbus_transfer_resumes_controller)
{
	per_controller(_metadata, self, "smbus_transfer_resumes_controller", smbus_one);
}

/*
 * One sample: from suspended, two transfers, then the autosuspend that
 * followed, judged from the trace against the kernel's promise
 * (rpm/autosuspend_timer.h: i801_access() marks the controller busy and
 * puts it, rpm_suspend() arms pm_suspend_timer_fn for last_busy + delay
 * with delay / 4 of slack).  0 kept, 1 broken, -1 (why) not measured.
 */
static int honour_sample(struct devpm_dev *d, struct devpm_trace *t, int fd,
			 bool force, struct devpm_autosuspend *as, char *why,
			 size_t len)
{
	struct devpm_wait_result res;
	uint64_t t0;
	int r;

	if (wait_suspended(d, t, HONOUR_DELAY_MS, &res)) {
		snprintf(why, len, "before: %s", res.why);
		return -1;
	}
	devpm_trace_poll(t, 0);
	t0 = devpm_now_us();
	if (devpm_i2c_smbus_read_byte(fd, EEPROM_ADDR, 0, force) < 0 ||
	    devpm_i2c_smbus_read_byte(fd, EEPROM_ADDR, 1, force) < 0) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	r = devpm_wait_autosuspend(d, t, t0, as, &res, why, len);
	return r == -1 || r == 0 || r == 1 ? r : -1;
}

static void honoured_one(struct devpm_block *b, void *arg)
{
	const struct devpm_i2c_adapter *a = arg;
	struct devpm_autosuspend as[HONOUR_SAMPLES];
	double worst = 0, err;
	struct devpm_trace *t;
	struct devpm_dev d;
	bool force;
	char why[512];
	int fd, k, r;

	i801_only(b, a);
	open_ctrl(b, a, &d);
	if (!d.rpm.have_autosuspend)
		devpm_block_skip(b, "driver %s does not use autosuspend",
			       d.driver);
	t = start_trace(d.name, NULL);
	if (!t)
		devpm_block_skip(b, "needs tracefs for timing in µs: %s",
			       devpm_error());
	devpm_block_defer_trace_stop(b, t);
	if (devpm_autosuspend_trace(t) < 0)
		devpm_block_skip(b, "needs the hrtimer trace events: %s",
			       devpm_error());
	fd = open_i2c_dev(a, &force, why, sizeof(why));
	if (fd < 0)
		devpm_block_skip(b, "%s", why);
	devpm_block_defer_close(b, fd);
	if (ctrl_prepare(&d, HONOUR_DELAY_MS))
		devpm_block_abort(b, "%s", devpm_error());
	for (k = 0; k < HONOUR_SAMPLES; k++) {
		r = honour_sample(&d, t, fd, force, &as[k], why, sizeof(why));
		if (r < 0)
			devpm_block_abort(b, "sample %d: %s", k + 1, why);
		if (r)
			devpm_block_abort(b, "%s (%s): sample %d: %s", d.name,
					  d.driver, k + 1, why);
		if (!as[k].busy_us)
			devpm_block_abort(b, "sample %d: the trace shows neither the timer nor a resume: last_busy unknown",
					  k + 1);
		err = (double)(as[k].begin_us - as[k].busy_us) / 1000 -
		      HONOUR_DELAY_MS;
		if (err > worst)
			worst = err;
	}
	devpm_metric(d.name, "autosuspend_error_ms", worst);
	devpm_block_pass(b, "suspend began %.1f, %.1f, %.1f ms after last_busy (delay %d ms, due by %.1f, %.1f, %.1f ms)",
		       (double)(as[0].begin_us - as[0].busy_us) / 1000,
		       (double)(as[1].begin_us - as[1].busy_us) / 1000,
		       (double)(as[2].begin_us - as[2].busy_us) / 1000,
		       HONOUR_DELAY_MS,
		       (double)(as[0].due_us - as[0].busy_us) / 1000,
		       (double)(as[1].due_us - as[1].busy_us) / 1000,
		       (double)(as[2].due_us - as[2].busy_us) / 1000);
}

TEST_F(i2c, autosuspend_delay_honoured)
{
	per_controller(_metadata, self, "autosuspend_delay_honoured", honoured_one);
}

/* Usage count now: runtime_usage, else the trace; -1 when unknowable. */
static long usage_now(struct devpm_dev *d, struct devpm_trace *t,
		      uint64_t from)
{
	const struct devpm_event *ev;
	size_t n;

	if (!devpm_dev_snapshot(d) && d->rpm.have_usage)
		return d->rpm.usage;
	ev = devpm_trace_read(t, 0, &n);
	return devpm_rpm_last_usage(ev, n, d->name, from, devpm_now_us());
}

/* Usage count at baseline with control=on's reference not counted. */
static void usage_one(struct devpm_block *b, void *arg)
{
	const struct devpm_i2c_adapter *a = arg;
	struct devpm_wait_result res;
	struct devpm_trace *t;
	struct devpm_dev d;
	long base, held, after, kids0 = -1;
	uint64_t t0 = devpm_now_us();
	bool force = false;
	char why[512];
	int fd = -1, k;

	open_ctrl(b, a, &d);
	t = start_trace(d.name, NULL);
	devpm_block_defer_trace_stop(b, t);
	if (devpm_i2c_is_i801(a)) {
		fd = open_i2c_dev(a, &force, why, sizeof(why));
		devpm_block_defer_close(b, fd);
	}
	if (ctrl_prepare(&d, d.rpm.have_autosuspend ? USAGE_DELAY_MS : 0))
		devpm_block_abort(b, "%s", devpm_error());
	if (wait_suspended(&d, t, USAGE_DELAY_MS, &res)) {
		if (held_by_others(&d, why, sizeof(why)))
			devpm_block_skip(b, "%s", why);
		devpm_block_abort(b, "%s", res.why);
	}
	/* control=on's reference shows in the count (negative control). */
	if (devpm_dev_knob_write(&d, "control", "on") < 0)
		devpm_block_abort(b, "control=on: %s", devpm_error());
	held = usage_now(&d, t, t0);
	if (devpm_dev_knob_write(&d, "control", "auto") < 0)
		devpm_block_abort(b, "control=auto: %s", devpm_error());
	base = usage_now(&d, t, t0);
	/* Judged against the run's baseline, not this moment's. */
	if (base >= 0 && devpm_baseline_usage(&d) >= 0 && base != devpm_baseline_usage(&d))
		devpm_block_abort(b, "usage %ld with control=auto before the cycles, %ld at baseline: a reference leaked before this case",
				base, devpm_baseline_usage(&d));
	if (base < 0 || held < 0)
		devpm_block_skip(b, "usage count unreadable: no runtime_usage (CONFIG_PM_ADVANCED_DEBUG) and no trace");
	/* Negative control: control=on holds one reference. */
	if (held != base + 1)
		devpm_block_abort(b, "usage %ld with control=on, %ld with auto: the count does not show a held reference",
				held, base);
	if (d.rpm.have_active_kids)
		kids0 = d.rpm.active_kids;
	for (k = 0; k < USAGE_CYCLES; k++) {
		if (wait_suspended(&d, t, USAGE_DELAY_MS, &res))
			devpm_block_abort(b, "cycle %d: %s", k + 1, res.why);
		if (fd >= 0 &&
		    devpm_i2c_smbus_read_byte(fd, EEPROM_ADDR, k, force) < 0)
			break;	/* no device there: toggles only */
		if (devpm_dev_knob_write(&d, "control", "on") < 0 ||
		    devpm_dev_knob_write(&d, "control", "auto") < 0)
			devpm_block_abort(b, "cycle %d: control: %s", k + 1,
					devpm_error());
		after = usage_now(&d, t, t0);
		if (after >= 0 && after != base)
			devpm_block_abort(b, "cycle %d of %d: usage %ld, %ld at baseline",
					k + 1, USAGE_CYCLES, after, base);
	}
	if (wait_suspended(&d, t, USAGE_DELAY_MS, &res))
		devpm_block_abort(b, "after %d cycles: %s", USAGE_CYCLES, res.why);
	after = usage_now(&d, t, t0);
	if (after != base)
		devpm_block_abort(b, "usage %ld after %d cycles, %ld before", after,
				USAGE_CYCLES, base);
	if (kids0 >= 0 && d.rpm.active_kids != kids0)
		devpm_block_abort(b, "%ld active children after %d cycles, %ld before",
				d.rpm.active_kids, USAGE_CYCLES, kids0);
	devpm_block_pass(b, "usage %ld before and after %d cycles of %s (control=on showed %ld)",
		       base, USAGE_CYCLES,
		       fd >= 0 ? "transfers and control toggles" :
		       "control toggles", held);
}

TEST_F(i2c, usage_balanced_after_cycles)
{
	per_controller(_metadata, self, "usage_balanced_after_cycles", usage_one);
}

DEVPM_TEST_MAIN(info)
