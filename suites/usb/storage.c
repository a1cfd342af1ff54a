// SPDX-License-Identifier: GPL-2.0-only
/*
 * storage.c - a USB disk resumes for I/O and keeps its data: a pattern
 * written with O_DIRECT reads back intact after each of 20 runtime
 * suspend/resume cycles, and each read burst causes exactly one resume of
 * the USB device.
 *
 * Only with --allow-disk, on a disk nothing uses (no mounted filesystem,
 * swap or holder; opened O_EXCL).  The region written is read first and
 * put back at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/test.h"
#include "bus/scsi/scsi.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"
#include "trace/transition.h"

#define CYCLES		20
#define DISK_DELAY_MS	20	/* sd: longer than one burst's gaps */
#define USB_DELAY_MS	0
#define IO_BYTES	(64 * 1024)
#define IO_OFFSET	(1024 * 1024)

static const struct devpm_test_info info = {
	.suite = "usb",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.disk = true,
		.files = (const char *const[]){ "/sys/bus/usb/devices", NULL },
	},
};

struct storage_state {
	struct devpm_usb usb;	/* the device whose disk is tested */
	off_t mark;
	struct devpm_blk blk;
	void *orig;		/* the region before we wrote it */
	bool dirty;		/* our pattern is on the disk */
	struct devpm_trace *t;
};

FIXTURE(storage) {
	struct storage_state st;
};

FIXTURE_SETUP(storage)
{
	self->st.mark = devpm_case_setup();
	self->st.blk.fd = -1;
}

/* Put the disk's own data back, whatever happened. */
static int put_back(struct devpm_blk *blk, void *orig)
{
	void *check;
	int r;

	r = devpm_blk_write(blk, orig, IO_BYTES, IO_OFFSET);
	if (r)
		return r;
	check = devpm_blk_alloc(IO_BYTES);
	if (!check)
		return -ENOMEM;
	r = devpm_blk_read(blk, check, IO_BYTES, IO_OFFSET);
	if (!r && memcmp(check, orig, IO_BYTES))
		r = devpm_fail(EIO, "%s: the original data did not read back",
			       blk->name);
	free(check);
	return r;
}

FIXTURE_TEARDOWN(storage)
{
	const struct devpm_usb *u[1] = { &self->st.usb };
	size_t n = self->st.usb.dev.name[0] ? 1 : 0;
	struct devpm_usb_hold *h;

	if (self->st.dirty && put_back(&self->st.blk, self->st.orig))
		fprintf(stderr, "# %s: could not put the data back: %s\n",
			self->st.blk.name, devpm_error());
	if (self->st.blk.fd >= 0)
		devpm_blk_close(&self->st.blk);
	free(self->st.orig);
	devpm_trace_stop(self->st.t);
	/* Awake at once, so that putting control=on back is quick. */
	h = devpm_usb_hold(u, n);
	DEVPM_CASE_RESTORE(self->st.mark);
	devpm_usb_release(h);
	DEVPM_CASE_VERDICT();
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct run {
	uint64_t burst[CYCLES + 1];	/* burst c starts */
	uint64_t asleep[CYCLES + 2];	/* seen suspended before burst c */
	uint64_t resume_us[CYCLES + 1];	/* burst start to resumed */
	char why[512];
};

/* One read burst of the pattern, verified. */
static int burst(struct devpm_blk *blk, void *buf, uint64_t seed,
		 char *why, size_t len)
{
	long bad;
	int r;

	r = devpm_blk_read(blk, buf, IO_BYTES, IO_OFFSET);
	if (r) {
		snprintf(why, len, "read: %s", devpm_error());
		return r;
	}
	bad = devpm_pattern_check(buf, IO_BYTES, seed);
	if (bad >= 0) {
		snprintf(why, len,
			 "pattern differs at byte %ld of %d at offset %d",
			 bad, IO_BYTES, IO_OFFSET);
		return -EIO;
	}
	return 0;
}

/* 0 pass, 1 fail; why says it either way. */
static int cycles(struct devpm_trace *t, const struct devpm_usb *u,
		  struct devpm_blk *blk, void *buf, uint64_t seed,
		  struct run *run)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	uint64_t at[4];
	size_t n;
	int c, r, k;

	for (c = 1; c <= CYCLES + 1; c++) {
		r = devpm_wait_status((struct devpm_dev *)&u->dev, t,
				      "suspended", 4 * DISK_DELAY_MS +
				      DEVPM_USB_BOUND_MS, &res);
		if (r) {
			snprintf(run->why, sizeof(run->why),
				 "idle after burst %d, %s", c - 1,
				 r == -ETIMEDOUT ? res.why : devpm_error());
			return 1;
		}
		run->asleep[c] = devpm_now_us();
		if (c > CYCLES)
			break;
		run->burst[c] = devpm_now_us();
		if (burst(blk, buf, seed, run->why, sizeof(run->why))) {
			snprintf(run->why + strlen(run->why),
				 sizeof(run->why) - strlen(run->why),
				 " (cycle %d)", c);
			return 1;
		}
	}
	if (!t)
		return 0;
	ev = devpm_trace_read(t, 0, &n);
	for (c = 1; c <= CYCLES; c++) {
		k = devpm_rpm_resumes(ev, n, u->dev.name, run->burst[c],
				      run->asleep[c + 1], at, 4);
		if (k != 1) {
			snprintf(run->why, sizeof(run->why),
				 "burst %d resumed %s %d times, expected once",
				 c, u->dev.name, k);
			return 1;
		}
		run->resume_us[c] = at[0] - run->burst[c];
	}
	return 0;
}

struct disk_case {
	struct storage_state *st;
	const struct devpm_usb *u;
	const struct devpm_scsi_disk *d;
	bool clean;		/* false: its data could not be put back */
};

/*
 * The end of a disk's block, however it ended: its data back, then the
 * disk let go.  Still dirty: the teardown tries again, and no other disk
 * is tested meanwhile.
 */
static void disk_done(void *arg)
{
	struct disk_case *x = arg;
	struct storage_state *self = x->st;

	if (self->dirty && !put_back(&self->blk, self->orig))
		self->dirty = false;
	if (self->dirty) {
		x->clean = false;
		return;
	}
	devpm_blk_close(&self->blk);
	free(self->orig);
	self->orig = NULL;
	devpm_trace_stop(self->t);
	self->t = NULL;
}

static void disk_one(struct devpm_block *b, void *arg)
{
	struct disk_case *x = arg;
	struct storage_state *self = x->st;
	const struct devpm_usb *u = x->u;
	const struct devpm_scsi_disk *d = x->d;
	const char *const names[] = { u->dev.name, d->name, NULL };
	char why[512];
	struct run *run;
	uint64_t seed = devpm_now_us();
	void *buf;
	int r;

	if (devpm_usb_blocker(u, why, sizeof(why)) > 0)
		devpm_block_skip(b, "%s", why);
	if (!devpm_scsi_data_ok(d, why, sizeof(why)))
		devpm_block_skip(b, "%s: %s", d->block, why);
	self->usb = *u;
	self->t = devpm_trace_start(names);
	devpm_block_defer(b, disk_done, x);
	r = devpm_usb_allow_autosuspend(u, USB_DELAY_MS, DISK_DELAY_MS);
	if (!r)
		r = devpm_blk_open(d->block, true, &self->blk);
	if (r)
		devpm_block_abort(b, "%s", devpm_error());
	if (self->blk.bytes < IO_OFFSET + IO_BYTES)
		devpm_block_skip(b, "%s: %llu bytes, too small", d->block,
			       self->blk.bytes);
	self->orig = devpm_blk_alloc(IO_BYTES);
	buf = devpm_blk_alloc(IO_BYTES);
	devpm_block_defer(b, free, buf);
	run = calloc(1, sizeof(*run));
	devpm_block_defer(b, free, run);
	if (!self->orig || !buf || !run)
		devpm_block_abort(b, "out of memory");
	r = devpm_blk_read(&self->blk, self->orig, IO_BYTES, IO_OFFSET);
	if (r)
		devpm_block_abort(b, "%s", devpm_error());
	devpm_pattern_fill(buf, IO_BYTES, seed);
	self->dirty = true;
	r = devpm_blk_write(&self->blk, buf, IO_BYTES, IO_OFFSET);
	if (!r)
		r = burst(&self->blk, buf, seed, why, sizeof(why)) ? -EIO : 0;
	if (r)
		devpm_block_abort(b, "%s: writing the pattern: %s", d->block,
				r == -EIO ? why : devpm_error());
	if (cycles(self->t, u, &self->blk, buf, seed, run))
		devpm_block_abort(b, "%s: %s", d->block, run->why);
	r = put_back(&self->blk, self->orig);
	self->dirty = r != 0;
	if (r)
		devpm_block_abort(b, "%s: %s", d->block, devpm_error());
	if (!self->t) {
		devpm_block_pass(b,
			       "%s: %d KiB pattern intact over %d suspend/resume cycles (untraced: resumes not counted)",
			       d->block, IO_BYTES / 1024, CYCLES);
		return;
	}
	qsort(run->resume_us + 1, CYCLES, sizeof(uint64_t), cmp_u64);
	devpm_metric(u->dev.name, "io_resume_us_p50",
		     (double)run->resume_us[1 + CYCLES / 2]);
	devpm_metric(u->dev.name, "io_resume_us_max",
		     (double)run->resume_us[CYCLES]);
	devpm_block_pass(b,
		       "%s: %d KiB pattern intact over %d suspend/resume cycles, one resume per read (resume p50 %.1f ms, max %.1f ms)",
		       d->block, IO_BYTES / 1024, CYCLES,
		       run->resume_us[1 + CYCLES / 2] / 1000.0,
		       run->resume_us[CYCLES] / 1000.0);
}

TEST_F_TIMEOUT(storage, storage_io_resumes_data_intact, 80)
{
	struct devpm_scsi_disk *disks;
	struct devpm_usb *usb;
	struct disk_case x = { .st = &self->st, .clean = true };
	struct devpm_subtest s;
	size_t nu, nd, i, j;
	bool any;

	ASSERT_EQ(0, devpm_usb_list(&usb, &nu)) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_scsi_disks(&disks, &nd))
		TH_LOG("%s", devpm_error());
	devpm_subtest_begin(&s, "storage_io_resumes_data_intact");
	for (i = 0; i < nu && x.clean; i++) {
		if (usb[i].root_hub || usb[i].hub)
			continue;
		any = false;
		for (j = 0; j < nd && !any; j++) {
			if (!disks[j].block[0] ||
			    !devpm_usb_below(&usb[i], disks[j].path))
				continue;
			any = true;
			/* One disk per device: one resume per burst. */
			x.u = &usb[i];
			x.d = &disks[j];
			devpm_block_run(&s, usb[i].dev.name, disk_one, &x);
		}
	}
	free(usb);
	free(disks);
	if (!s.n) {
		devpm_subtest_end(&s);
		SKIP(return, "no USB disk (an sd disk below a USB device)");
	}
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
