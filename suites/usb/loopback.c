// SPDX-License-Identifier: GPL-2.0-only
/*
 * loopback.c - USB runtime PM with no USB hardware: dummy_hcd wires a
 * configfs gadget (mass storage backed by a file devpm made, and a HID
 * keyboard that can do remote wakeup) to a host controller of the same
 * machine.  The host side autosuspends, resumes for I/O with the data
 * intact on both ends, and a key report the gadget writes while it sleeps
 * wakes it through remote wakeup.
 */
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/test.h"
#include "bus/input/input.h"
#include "bus/scsi/scsi.h"
#include "bus/usb/gadget.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"

#define DELAY_MS	50
#define STORAGE_MB	8
#define IO_BYTES	(64 * 1024)
#define DISK_MS		5000	/* usb-storage scans, sd probes */
#define EVENT_MS	2000
#define QUIET_MS	100	/* a queued report alone must not wake it */
#define DELAY_USE	"/sys/module/usb_storage/parameters/delay_use"

static const struct devpm_test_info info = {
	.suite = "usb",
	.timeout_s = 60,
	.needs = {
		.root = true,
		.modules = (const char *const[]){ "dummy_hcd", "libcomposite",
			"usb_f_mass_storage", "usb_f_hid", "usb_storage",
			NULL },
		.files = (const char *const[]){ DEVPM_GADGET_DIR, NULL },
	},
};

struct loop_state {
	off_t mark;
	struct devpm_gadget g;
	struct devpm_blk blk;
	struct devpm_input *in;
};

FIXTURE(loopback) {
	struct loop_state st;
};

FIXTURE_SETUP(loopback)
{
	self->st.mark = devpm_case_setup();
	self->st.g.hid_fd = -1;
	self->st.blk.fd = -1;
}

FIXTURE_TEARDOWN(loopback)
{
	devpm_input_close(self->st.in);
	devpm_blk_close(&self->st.blk);
	devpm_gadget_close(&self->st.g);
	devpm_case_teardown(self->st.mark);
}

struct host {
	struct devpm_usb u;
	char disk[32];			/* "sdb" */
	char event[16];			/* the keyboard's evdev node */
};

static bool host_ready(void *arg)
{
	struct host *h = arg;
	struct devpm_scsi_disk *d;
	struct devpm_input *in;
	struct devpm_input_node ev[8];
	char kp[DEVPM_PATH_MAX];
	size_t i, n;
	int k, j;

	if (!h->disk[0] && !devpm_scsi_disks(&d, &n)) {
		for (i = 0; i < n; i++)
			if (d[i].block[0] && devpm_usb_owns(&h->u, d[i].path))
				snprintf(h->disk, sizeof(h->disk), "%s",
					 d[i].block);
		free(d);
	}
	k = devpm_input_find(h->u.dev.path, ev, 8);
	for (j = 0; !h->event[0] && j < k && j < 8; j++) {
		if (devpm_input_dev_path(ev[j].name, kp, sizeof(kp)) ||
		    !devpm_usb_owns(&h->u, kp) ||
		    devpm_input_open(ev[j].name, &in))
			continue;
		if (devpm_input_is_keyboard(in))
			snprintf(h->event, sizeof(h->event), "%s", ev[j].name);
		devpm_input_close(in);
	}
	return h->disk[0] && h->event[0];
}

/* The pattern must be in the gadget's backing file too. */
static int backing_has(const struct devpm_gadget *g, const void *want)
{
	char *buf = malloc(IO_BYTES);
	ssize_t n;
	int fd, r;

	if (!buf)
		return -ENOMEM;
	fd = open(g->backing, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : pread(fd, buf, IO_BYTES, 0);
	if (n != IO_BYTES)
		r = devpm_fail(EIO, "%s: reading it back: %s", g->backing,
			       n < 0 ? strerror(errno) : "short read");
	else if (memcmp(buf, want, IO_BYTES))
		r = devpm_fail(EIO,
			       "%s: the gadget's backing file does not hold what the host wrote",
			       g->backing);
	else
		r = 0;
	if (fd >= 0)
		close(fd);
	free(buf);
	return r;
}

/*
 * Time the device spent active, in ms: it grows only while it is awake,
 * so growth across an operation proves a resume without a trace.
 */
static long long active_ms(struct devpm_usb *u)
{
	devpm_dev_snapshot(&u->dev);
	return u->dev.rpm.have_times ? u->dev.rpm.active_ms : -1;
}

static void blk_close(void *blk)
{
	devpm_blk_close(blk);
}

/* Storage: asleep, then a write and a read wake it; the data holds. */
static void storage(struct devpm_block *b, struct loop_state *self,
		    struct host *h, char *msg, size_t len)
{
	struct devpm_wait_result res;
	uint64_t seed = devpm_now_us();
	long long before;
	void *buf, *back;
	long bad;
	int r;

	buf = devpm_blk_alloc(IO_BYTES);
	devpm_block_defer(b, free, buf);
	back = devpm_blk_alloc(IO_BYTES);
	devpm_block_defer(b, free, back);
	if (!buf || !back)
		devpm_block_abort(b, "out of memory");
	if (devpm_blk_open(h->disk, true, &self->blk))
		devpm_block_abort(b, "%s", devpm_error());
	devpm_block_defer(b, blk_close, &self->blk);
	r = devpm_wait_status(&h->u.dev, NULL, "suspended",
			      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "idle, not suspended: %s", res.why);
	devpm_pattern_fill(buf, IO_BYTES, seed);
	before = active_ms(&h->u);
	r = devpm_blk_write(&self->blk, buf, IO_BYTES, 0);
	if (!r)
		r = devpm_blk_read(&self->blk, back, IO_BYTES, 0);
	if (r)
		devpm_block_abort(b, "%s", devpm_error());
	bad = devpm_pattern_check(back, IO_BYTES, seed);
	if (bad >= 0)
		devpm_block_abort(b, "%s: read back differs at byte %ld",
				h->disk, bad);
	if (active_ms(&h->u) <= before)
		devpm_block_abort(b,
				"I/O on %s did not resume %s (runtime_active_time did not grow)",
				h->disk, h->u.dev.name);
	if (backing_has(&self->g, buf))
		devpm_block_abort(b, "%s", devpm_error());
	/* Asleep again, then the data once more. */
	r = devpm_wait_status(&h->u.dev, NULL, "suspended",
			      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "after I/O, not suspended: %s", res.why);
	if (devpm_blk_read(&self->blk, back, IO_BYTES, 0))
		devpm_block_abort(b, "%s", devpm_error());
	bad = devpm_pattern_check(back, IO_BYTES, seed);
	if (bad >= 0)
		devpm_block_abort(b,
				"%s: after a suspend the data differs at byte %ld",
				h->disk, bad);
	snprintf(msg, len,
		 "%s: %d KiB written and read back across suspends, intact on the host and in the backing file",
		 h->disk, IO_BYTES / 1024);
	/* Closed before the HID part; the deferred close is for an abort. */
	devpm_blk_close(&self->blk);
}

/* HID: a report queued while asleep, then remote wakeup brings it. */
static void hid_wake(struct devpm_block *b, struct loop_state *self,
		     struct host *h, char *msg, size_t len)
{
	static const unsigned char press[8] = { 0, 0, 0x04 }, up[8] = { 0 };
	struct devpm_wait_result res;
	struct devpm_key k[4];
	long long before;
	uint64_t t0;
	int r, n;

	if (devpm_input_open(h->event, &self->in))
		devpm_block_abort(b, "%s", devpm_error());
	r = devpm_wait_status(&h->u.dev, NULL, "suspended",
			      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "evdev open, idle: %s", res.why);
	if (devpm_gadget_key_report(&self->g, press, EVENT_MS))
		devpm_block_abort(b, "%s", devpm_error());
	/* Queued on the gadget: without the wakeup signal it stays asleep. */
	r = devpm_wait_status(&h->u.dev, NULL, "active", QUIET_MS, &res);
	if (r != -ETIMEDOUT)
		devpm_block_abort(b,
				"a report queued on the gadget woke the host before any remote wakeup signal");
	before = active_ms(&h->u);
	t0 = devpm_now_us();
	if (devpm_gadget_remote_wakeup(&self->g))
		devpm_block_abort(b, "%s", devpm_error());
	n = devpm_input_read_keys(self->in, k, 4, 1, EVENT_MS);
	if (n < 0)
		devpm_block_abort(b, "%s", devpm_error());
	if (n == 0)
		devpm_block_abort(b,
				"remote wakeup signalled: no key event in %d ms (status %s)",
				EVENT_MS, res.status);
	if (devpm_gadget_key_report(&self->g, up, EVENT_MS))
		devpm_block_abort(b, "%s", devpm_error());
	n = devpm_input_read_keys(self->in, k + 1, 3, 1, EVENT_MS);
	if (n < 0)
		devpm_block_abort(b, "%s", devpm_error());
	if (n != 1)
		devpm_block_abort(b, "no key release in %d ms", EVENT_MS);
	if (k[0].code != KEY_A || k[0].value != 1 || k[1].code != KEY_A ||
	    k[1].value != 0)
		devpm_block_abort(b,
				"events %s %d, %s %d; expected KEY_A 1, KEY_A 0",
				devpm_input_key_name(k[0].code), k[0].value,
				devpm_input_key_name(k[1].code), k[1].value);
	if (active_ms(&h->u) <= before)
		devpm_block_abort(b,
				"the key arrived but %s's runtime_active_time did not grow",
				h->u.dev.name);
	devpm_metric(h->u.dev.name, "wakeup_to_event_us",
		     (double)(k[0].ts_us - t0));
	snprintf(msg, len,
		 "a key report written while suspended waited %d ms, then remote wakeup resumed it and KEY_A arrived %.1f ms after the signal",
		 QUIET_MS, (double)(k[0].ts_us - t0) / 1000);
}

struct loop_case {
	struct loop_state *st;
	struct host *h;
};

/* The gadget's host side: autosuspend, storage, then remote wakeup. */
static void loopback_one(struct devpm_block *b, void *arg)
{
	struct loop_case *x = arg;
	struct loop_state *self = x->st;
	struct host *h = x->h;
	struct devpm_wait_result res;
	char m1[300] = "", m2[300] = "";
	uint64_t t0;
	int r;

	if (!devpm_poll_until(host_ready, h, DISK_MS))
		devpm_block_abort(b,
				"gadget %s enumerated, but after %d ms: disk '%s', keyboard '%s'",
				self->g.name, DISK_MS, h->disk, h->event);
	t0 = devpm_now_us();
	r = devpm_usb_allow_autosuspend(&h->u, DELAY_MS, DELAY_MS);
	if (!r)
		r = devpm_wait_status(&h->u.dev, NULL, "suspended",
				      4 * DELAY_MS + DEVPM_USB_BOUND_MS, &res);
	if (r)
		devpm_block_abort(b, "idle, not suspended: %s",
				r == -ETIMEDOUT ? res.why : devpm_error());
	devpm_metric(h->u.dev.name, "autosuspend_ms",
		     (double)(res.at_us - t0) / 1000);
	storage(b, self, h, m1, sizeof(m1));
	hid_wake(b, self, h, m2, sizeof(m2));
	devpm_block_pass(b,
		       "gadget %s on %s: autosuspended %.0f ms after control=auto; %s; %s",
		       self->g.name, self->g.udc,
		       (double)(res.at_us - t0) / 1000, m1, m2);
}

TEST_F_TIMEOUT(loopback, gadget_loopback, 45)
{
	struct devpm_gadget_cfg c = { .remote_wakeup = true,
				      .storage_mb = STORAGE_MB,
				      .keyboard = true };
	struct devpm_subtest s;
	struct host h = { 0 };
	struct loop_case x = { &self->st, &h };

	/* usb-storage waits delay_use seconds before it scans a new disk. */
	if (devpm_exists(DELAY_USE) && devpm_knob_write(DELAY_USE, "0"))
		devpm_note("%s: the disk's scan waits delay_use",
			   devpm_error());
	ASSERT_EQ(0, devpm_gadget_create(&c, &self->st.g))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_gadget_host(&self->st.g, DISK_MS, &h.u))
		TH_LOG("%s", devpm_error());
	devpm_subtest_begin(&s, "gadget_loopback");
	devpm_block_run(&s, h.u.dev.name, loopback_one, &x);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
