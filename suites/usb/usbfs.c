// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbfs.c - an open usbfs file (a libusb handle) holds its USB device
 * awake until USBDEVFS_ALLOW_SUSPEND or close; FORBID_SUSPEND resumes and
 * pins it again; WAIT_FOR_RESUME sleeps until a resume comes from
 * elsewhere (devio.c, KERNEL-FACTS.md §10).
 *
 * "Stays active" is checked twice: runtime_status never read suspended
 * while polled, and runtime_suspended_time did not grow (a suspend between
 * two polls would add to it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness/test.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"
#include "usb_suite.h"

#define DELAY_MS	50	/* written on every device */
#define HOLD_MS		(DELAY_MS + 150)	/* well past the delay */
#define NO_RETURN_MS	150	/* WAIT_FOR_RESUME must not end alone */

static const struct devpm_test_info info = {
	.suite = "usb",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.files = (const char *const[]){ "/sys/bus/usb/devices", NULL },
	},
};

struct fs {
	struct devpm_usbfs *h;
	long long suspended_ms;	/* runtime_suspended_time at the hold */
	double allow_ms, close_ms, waited_ms, wake_ms;
	int op_ret;
};

FIXTURE(usbfs) {
	off_t mark;
	struct devpm_usb_bus b;
	struct fs *fs;
};

FIXTURE_SETUP(usbfs)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(usbfs)
{
	struct devpm_usb_hold *h;
	size_t i;

	for (i = 0; self->fs && i < self->b.n; i++)
		devpm_usbfs_close(self->fs[i].h);
	free(self->fs);
	h = devpm_usb_bus_hold(&self->b);
	DEVPM_CASE_RESTORE(self->mark);
	devpm_usb_release(h);
	devpm_usb_bus_free(&self->b);
	DEVPM_CASE_VERDICT();
}

enum op { OP_OPEN, OP_FORBID };

struct job {
	struct devpm_usb_item *it;
	struct fs *fs;
	enum op op;
	pthread_t th;
	bool started;
};

static void *do_op(void *arg)
{
	struct job *j = arg;

	if (j->op == OP_OPEN)
		j->fs->op_ret = devpm_usbfs_open(&j->it->u, &j->fs->h);
	else
		j->fs->op_ret = devpm_usbfs_forbid_suspend(j->fs->h);
	if (j->fs->op_ret)
		devpm_usb_item_out(j->it, true, "%s: %s",
				   j->op == OP_OPEN ? "usbfs open" :
				   "USBDEVFS_FORBID_SUSPEND", devpm_error());
	return NULL;
}

/* Open (or FORBID) every device at once: each is a synchronous resume. */
static void parallel(struct devpm_usb_bus *b, struct fs *fs, enum op op)
{
	struct job *j = calloc(b->n + 1, sizeof(*j));
	size_t i;

	if (!j)
		return;
	for (i = 0; i < b->n; i++) {
		j[i] = (struct job){ .it = &b->it[i], .fs = &fs[i], .op = op };
		if (!b->it[i].ok)
			continue;
		j[i].started = !pthread_create(&j[i].th, NULL, do_op, &j[i]);
		if (!j[i].started)
			do_op(&j[i]);
	}
	for (i = 0; i < b->n; i++)
		if (j[i].started)
			pthread_join(j[i].th, NULL);
	free(j);
}

/* Every device still in must be active now; remember its suspended time. */
static void all_active(struct devpm_usb_bus *b, struct fs *fs,
		       const char *after)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];

		if (!it->ok)
			continue;
		devpm_dev_snapshot(&it->u.dev);
		fs[i].suspended_ms = it->u.dev.rpm.suspended_ms;
		if (strcmp(it->u.dev.rpm.status, "active"))
			devpm_usb_item_out(it, true, "%s did not resume it: status %s",
					   after, it->u.dev.rpm.status);
	}
}

/*
 * Hold for HOLD_MS and check that nothing suspended: polled status, and
 * runtime_suspended_time unchanged.
 */
static void held(struct devpm_usb_bus *b, struct fs *fs, const char *while_)
{
	char what[160];
	size_t i;

	snprintf(what, sizeof(what), "%s with a %d ms delay, it suspended",
		 while_, DELAY_MS);
	devpm_poll_until(usb_any_suspended, b, HOLD_MS);
	for (i = 0; i < b->n; i++)
		usb_stayed_active(&b->it[i], fs[i].suspended_ms, HOLD_MS, what);
}

/*
 * Wait for every device to suspend; the time each took goes into *slot,
 * from runtime_suspended_time (ms, updated when read): a device suspended
 * since "now - growth" (it does not wake in between).  The bus's trace
 * wakes the waits and dates each suspend for the case's floor.
 */
static void all_suspend(struct devpm_usb_bus *b, struct fs *fs,
			size_t slot, const char *after)
{
	struct devpm_wait_result res;
	uint64_t start = devpm_now_us(), deadline, now;
	long long *base;
	char what[128];
	size_t i;
	int r;

	base = calloc(b->n + 1, sizeof(*base));
	for (i = 0; base && i < b->n; i++) {
		devpm_dev_snapshot(&b->it[i].u.dev);
		base[i] = b->it[i].u.dev.rpm.suspended_ms;
	}
	deadline = start + (uint64_t)(4 * DELAY_MS + DEVPM_USB_BOUND_MS) *
		   1000;
	snprintf(what, sizeof(what), "not suspended after %s", after);
	for (i = 0; i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];

		if (!it->ok)
			continue;
		r = devpm_wait_status(&it->u.dev, b->t, "suspended",
				      devpm_usb_left_ms(deadline), &res);
		if (r)
			devpm_usb_item_out(it, true, "%s: %s", what,
					   r == -ETIMEDOUT ? res.why :
					   devpm_error());
	}
	for (i = 0; base && i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];
		double *m = (double *)((char *)&fs[i] + slot);

		if (!it->ok)
			continue;
		now = devpm_now_us();
		devpm_dev_snapshot(&it->u.dev);
		*m = (double)(now - start) / 1000 -
		     (double)(it->u.dev.rpm.suspended_ms - base[i]);
	}
	free(base);
}

static void close_all(struct devpm_usb_bus *b, struct fs *fs)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		devpm_usbfs_close(fs[i].h);
		fs[i].h = NULL;
	}
}

static int load(struct devpm_usb_bus *b, struct fs **fs)
{
	int r = devpm_usb_bus_load(b, DELAY_MS, DELAY_MS, true);

	if (r)
		return r;
	*fs = calloc(b->n + 1, sizeof(**fs));
	return *fs ? 0 : -ENOMEM;
}

/* One device and what its usbfs file measured. */
struct dev_fs {
	struct devpm_usb_item *it;
	const struct fs *fs;
};

static void open_holds_one(struct devpm_block *blk, void *arg)
{
	const struct dev_fs *x = arg;
	const char *name = x->it->u.dev.name;

	devpm_usb_item_still_in(blk, x->it);
	devpm_metric(name, "allow_to_suspended_ms", x->fs->allow_ms);
	devpm_metric(name, "close_to_suspended_ms", x->fs->close_ms);
	devpm_block_pass(blk,
		       "held active %d ms while open (delay %d ms); suspended %.0f ms after ALLOW_SUSPEND, %.0f ms after close",
		       HOLD_MS, DELAY_MS, x->fs->allow_ms, x->fs->close_ms);
}

TEST_F_TIMEOUT(usbfs, usbfs_open_holds_awake, 60)
{
	struct devpm_usb_bus *b = &self->b;
	struct devpm_subtest s;
	size_t i;

	ASSERT_EQ(0, load(b, &self->fs)) TH_LOG("%s", devpm_error());
	if (!b->n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	parallel(b, self->fs, OP_OPEN);
	all_active(b, self->fs, "opening its usbfs node");
	held(b, self->fs, "open");
	for (i = 0; i < b->n; i++)
		if (b->it[i].ok && devpm_usbfs_allow_suspend(self->fs[i].h))
			devpm_usb_item_out(&b->it[i], true, "%s",
					   devpm_error());
	all_suspend(b, self->fs, offsetof(struct fs, allow_ms),
		    "USBDEVFS_ALLOW_SUSPEND");
	close_all(b, self->fs);
	/* Open again, and this time just close it. */
	parallel(b, self->fs, OP_OPEN);
	all_active(b, self->fs, "opening its usbfs node again");
	close_all(b, self->fs);
	all_suspend(b, self->fs, offsetof(struct fs, close_ms), "close");

	devpm_subtest_begin(&s, "usbfs_open_holds_awake");
	for (i = 0; i < b->n; i++) {
		struct dev_fs x = { &b->it[i], &self->fs[i] };

		devpm_block_run(&s, x.it->u.dev.name, open_holds_one, &x);
	}
	DEVPM_SUBTEST_END(&s);
}

static bool any_returned(void *arg)
{
	struct devpm_usb_bus *b = ((void **)arg)[0];
	struct fs *fs = ((void **)arg)[1];
	uint64_t at;
	size_t i;
	int ret;

	for (i = 0; i < b->n; i++) {
		if (!b->it[i].ok || !fs[i].h)
			continue;
		if (devpm_usbfs_wait_end(fs[i].h, 0, &ret, &at) == 1) {
			devpm_usb_item_out(&b->it[i], true,
					   "USBDEVFS_WAIT_FOR_RESUME returned (%d) with nothing resuming it",
					   ret);
			return true;
		}
	}
	return false;
}

struct waker {
	struct devpm_usb_item *it;
	struct fs *fs;
	uint64_t wait_start;
	pthread_t th;
	bool started;
};

/*
 * Another opener resumes the device (a second usbfs file); the first
 * file's WAIT_FOR_RESUME must return, and then hold the device itself.
 */
static void *wake_one(void *arg)
{
	struct waker *w = arg;
	struct devpm_usb_item *it = w->it;
	struct devpm_usbfs *other;
	uint64_t t0, at;
	int r, ret;

	t0 = devpm_now_us();
	if (devpm_usbfs_open(&it->u, &other)) {
		devpm_usb_item_out(it, true, "second open: %s", devpm_error());
		return NULL;
	}
	r = devpm_usbfs_wait_end(w->fs->h, DEVPM_USB_BOUND_MS, &ret, &at);
	devpm_usbfs_close(other);
	if (r != 1)
		devpm_usb_item_out(it, true,
				   "USBDEVFS_WAIT_FOR_RESUME still waiting %d ms after another opener resumed it",
				   DEVPM_USB_BOUND_MS);
	else if (ret)
		devpm_usb_item_out(it, true, "USBDEVFS_WAIT_FOR_RESUME: %s",
				   strerror(-ret));
	if (r != 1 || ret)
		return NULL;
	w->fs->waited_ms = (double)(at - w->wait_start) / 1000;
	/* Signed: the wait may end before the second open (another resume). */
	w->fs->wake_ms = (double)((int64_t)at - (int64_t)t0) / 1000;
	return NULL;
}

static void wake_all(struct devpm_usb_bus *b, struct fs *fs,
		     uint64_t wait_start)
{
	struct waker *w = calloc(b->n + 1, sizeof(*w));
	size_t i;

	if (!w)
		return;
	for (i = 0; i < b->n; i++) {
		w[i] = (struct waker){ .it = &b->it[i], .fs = &fs[i],
				       .wait_start = wait_start };
		if (!b->it[i].ok)
			continue;
		w[i].started = !pthread_create(&w[i].th, NULL, wake_one, &w[i]);
		if (!w[i].started)
			wake_one(&w[i]);
	}
	for (i = 0; i < b->n; i++)
		if (w[i].started)
			pthread_join(w[i].th, NULL);
	free(w);
}

static void forbid_allow_wait_one(struct devpm_block *blk, void *arg)
{
	const struct dev_fs *x = arg;
	const char *name = x->it->u.dev.name;

	devpm_usb_item_still_in(blk, x->it);
	devpm_metric(name, "wait_for_resume_ms", x->fs->waited_ms);
	devpm_metric(name, "resume_to_wait_return_ms", x->fs->wake_ms);
	devpm_block_pass(blk,
		       "FORBID held it %d ms, ALLOW let it suspend; WAIT_FOR_RESUME returned %.1f ms after another opener resumed it (waited %.0f ms) and held it",
		       HOLD_MS, x->fs->wake_ms, x->fs->waited_ms);
}

TEST_F_TIMEOUT(usbfs, usbfs_forbid_allow_wait, 60)
{
	struct devpm_usb_bus *b = &self->b;
	struct fs *fs;
	struct devpm_subtest s;
	uint64_t wait_start;
	void *arg[2];
	size_t i;

	ASSERT_EQ(0, load(b, &self->fs)) TH_LOG("%s", devpm_error());
	if (!b->n)
		SKIP(return, "no USB device in /sys/bus/usb/devices");
	fs = self->fs;
	parallel(b, fs, OP_OPEN);
	for (i = 0; i < b->n; i++)
		if (b->it[i].ok && devpm_usbfs_allow_suspend(fs[i].h))
			devpm_usb_item_out(&b->it[i], true, "%s",
					   devpm_error());
	all_suspend(b, fs, offsetof(struct fs, allow_ms),
		    "USBDEVFS_ALLOW_SUSPEND");
	parallel(b, fs, OP_FORBID);
	all_active(b, fs, "USBDEVFS_FORBID_SUSPEND");
	held(b, fs, "after USBDEVFS_FORBID_SUSPEND");
	for (i = 0; i < b->n; i++)
		if (b->it[i].ok && devpm_usbfs_allow_suspend(fs[i].h))
			devpm_usb_item_out(&b->it[i], true, "%s",
					   devpm_error());
	all_suspend(b, fs, offsetof(struct fs, allow_ms),
		    "USBDEVFS_ALLOW_SUSPEND after FORBID");
	/* Everyone waits; nothing may return before its device resumes. */
	wait_start = devpm_now_us();
	for (i = 0; i < b->n; i++)
		if (b->it[i].ok && devpm_usbfs_wait_start(fs[i].h))
			devpm_usb_item_out(&b->it[i], true, "%s",
					   devpm_error());
	arg[0] = b;
	arg[1] = fs;
	devpm_poll_until(any_returned, arg, NO_RETURN_MS);
	wake_all(b, fs, wait_start);
	all_active(b, fs, "USBDEVFS_WAIT_FOR_RESUME");
	held(b, fs, "after WAIT_FOR_RESUME returned and the other file closed");
	close_all(b, fs);
	all_suspend(b, fs, offsetof(struct fs, close_ms), "close");

	devpm_subtest_begin(&s, "usbfs_forbid_allow_wait");
	for (i = 0; i < b->n; i++) {
		struct dev_fs x = { &b->it[i], &fs[i] };

		devpm_block_run(&s, x.it->u.dev.name, forbid_allow_wait_one,
			      &x);
	}
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
