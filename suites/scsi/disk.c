// SPDX-License-Identifier: GPL-2.0-only
/*
 * disk.c - SCSI disks under runtime PM: each disk (scsi_debug always, and
 * whatever virtio-scsi, usb-storage, ahci... disks are there) autosuspends
 * once user space sets a delay, then its target and host; I/O resumes
 * host, target and disk in that order, once per burst, with the data
 * intact; the write cache is flushed before the disk suspends; usage
 * counts balance.
 *
 * sd starts with control=on and autosuspend_delay_ms=-1: every case sets
 * both (journaled).  Data is written only where devpm_scsi_data_ok()
 * allows (scsi_debug; other disks with --allow-disk and nothing on them),
 * into a region whose content is read first and written back after.
 */
#include "harness/test.h"
#include "bus/scsi/scsi.h"
#include "bus/scsi/scsi_disk_set.h"
#include "rpm/autosuspend_timer.h"
#include "trace/transition.h"
#include "common.h"

#define DELAY_MS	100	/* autosuspend delay set on the disks */
#define CYCLE_DELAY_MS	50	/* the same for the I/O cycles */
#define CYCLES		20
#define USAGE_CYCLES	10
#define BLK		4096

static const struct devpm_test_info info = {
	.suite = "scsi",
	.timeout_s = 120,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM",
						   "CONFIG_BLK_DEV_SD", NULL },
		.modules = (const char *const[]){ "scsi_debug", NULL },
	},
};

FIXTURE(scsi) {
	off_t mark;
	struct devpm_scsi_disk *d;
	size_t n;
	struct devpm_test_disk *x;
	struct devpm_trace *t;
};

FIXTURE_SETUP(scsi)
{
	self->mark = devpm_case_setup();
	self->t = NULL;
	if (devpm_scsi_disks(&self->d, &self->n) < 0)
		TH_LOG("scsi disks: %s", devpm_error());
	self->x = calloc(self->n ? self->n : 1, sizeof(*self->x));
}

FIXTURE_TEARDOWN(scsi)
{
	if (self->t)
		devpm_trace_stop(self->t);
	free(self->x);
	free(self->d);
	devpm_case_teardown(self->mark);
}

/*
 * Wait until every disk still on has sd, target and host suspended; one
 * that does not drops out (its block fails with why).
 */
static void settle(struct devpm_test_disk *x, size_t n,
		   struct devpm_trace *t, long delay_ms, bool parents)
{
	struct devpm_wait_result res;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!x[i].on)
			continue;
		if (devpm_wait_status_why(&x[i].sd, t, "suspended",
					  (int)(delay_ms + delay_ms / 4 + 2000),
					  &res) ||
		    (parents &&
		     (devpm_wait_status_why(&x[i].tgt, t, "suspended", 1000,
					    &res) ||
		      devpm_wait_status_why(&x[i].host, t, "suspended", 1000,
					    &res))))
			devpm_test_disk_drop(&x[i], res.why);
	}
}

/* Set delay and control on every disk still on (or drop it out). */
static void set_all(struct devpm_test_disk *x, size_t n, long delay,
		    const char *control)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i].on && devpm_scsi_rpm_set(x[i].d, delay, control))
			devpm_test_disk_drop(&x[i], devpm_error());
}

static bool any_suspended(void *arg)
{
	struct devpm_test_disk *x = ((void **)arg)[0];
	size_t n = *(size_t *)((void **)arg)[1], i;
	char st[32];

	for (i = 0; i < n; i++)
		if (x[i].on && !devpm_dev_status(&x[i].sd, st, sizeof(st)) &&
		    !strcmp(st, "suspended"))
			return true;
	return false;
}

/* A disk's block in disk_autosuspends: what the trace shows after auto. */
struct autosuspend {
	struct devpm_test_disk *x;
	struct devpm_trace *t;
	uint64_t t_auto;	/* when control=auto was written */
	int hold;		/* how long control=on held it active */
};

/*
 * The disk's suspend judged from the trace against the kernel's promise
 * (rpm/autosuspend_timer.h: scsi_runtime_idle() marks it busy and calls
 * pm_runtime_autosuspend(), rpm_suspend() arms the timer for last_busy +
 * delay with delay / 4 of slack), then its target and host after it.
 */
static void autosuspend_one(struct devpm_block *b, void *arg)
{
	struct autosuspend *a = arg;
	struct devpm_test_disk *x = a->x;
	const struct devpm_event *ev;
	uint64_t now = devpm_now_us(), a_sd, a_tgt, a_host, dur;
	struct devpm_autosuspend as;
	char why[512], line[256];
	double after;
	size_t ne;
	int r;

	devpm_test_disk_check(b, x);
	if (!a->t) {
		devpm_block_pass(b, "%s, %s and %s suspended after control=auto (order and timing unchecked: no trace)",
			       x->d->block, x->tgt.name, x->host.name);
		return;
	}
	ev = devpm_trace_read(a->t, 0, &ne);
	a_sd = devpm_rpm_suspended_at(ev, ne, x->sd.name, a->t_auto, now,
				      &dur);
	a_tgt = devpm_rpm_suspended_at(ev, ne, x->tgt.name, a->t_auto, now,
				       NULL);
	a_host = devpm_rpm_suspended_at(ev, ne, x->host.name, a->t_auto, now,
					NULL);
	if (!a_sd || !a_tgt || !a_host)
		devpm_test_disk_abort(b, x, "suspended, but the trace shows no suspend of it, its target or host");
	after = (double)(a_sd - a->t_auto) / 1000;
	devpm_metric(x->d->name, "suspend_after_ms", after);
	devpm_metric(x->d->name, "suspend_us", (double)dur);
	r = devpm_autosuspend_check(ev, ne, x->sd.name, a->t_auto, now,
				    DELAY_MS, &as, why, sizeof(why));
	if (r > 0)
		devpm_test_disk_abort(b, x, "%s (sd): %s", x->sd.name, why);
	if (r < 0)
		devpm_test_disk_abort(b, x, "%s", why);
	devpm_metric(x->d->name, "autosuspend_late_us", (double)as.late_us);
	devpm_autosuspend_line(&as, line, sizeof(line));
	if (a_tgt < a_sd || a_host < a_tgt)
		devpm_test_disk_abort(b, x, "suspend order wrong: disk at +%.3f ms, %s at +%.3f ms, %s at +%.3f ms",
				      after, x->tgt.name,
				      (double)(a_tgt - a->t_auto) / 1000,
				      x->host.name,
				      (double)(a_host - a->t_auto) / 1000);
	devpm_block_pass(b, "%s active %d ms with control=on; control=auto: %s (delay %d ms), then %s (+%llu us), %s (+%llu us)",
		       x->d->block, a->hold, line, DELAY_MS, x->tgt.name,
		       (unsigned long long)(a_tgt - a_sd), x->host.name,
		       (unsigned long long)(a_host - a_tgt));
}

TEST_F(scsi, disk_autosuspends)
{
	struct autosuspend *a = calloc(self->n + 1, sizeof(*a));
	int hold = DELAY_MS + DELAY_MS / 4 + 300;
	struct devpm_subtest s;
	size_t n, i;

	ASSERT_NE(NULL, a);
	devpm_subtest_begin(&s, "disk_autosuspends");
	n = devpm_disk_set_select(&s, self->d, self->n, false, self->x);
	self->t = devpm_disk_set_trace(self->x, n, NULL);
	if (self->t && devpm_autosuspend_trace(self->t) < 0)
		devpm_note("no hrtimer events (%s): a late timer counts as late",
			   devpm_error());
	/* Negative control: with control=on no disk may suspend. */
	set_all(self->x, n, DELAY_MS, "on");
	{
		void *arg[2] = { self->x, &n };

		if (devpm_poll_until(any_suspended, arg, hold))
			for (i = 0; i < n; i++) {
				char st[32];

				if (self->x[i].on &&
				    !devpm_dev_status(&self->x[i].sd, st,
						      sizeof(st)) &&
				    !strcmp(st, "suspended"))
					devpm_test_disk_drop(&self->x[i],
						"suspended with control=on");
			}
	}
	for (i = 0; i < n; i++) {
		a[i] = (struct autosuspend){ .x = &self->x[i], .t = self->t,
					     .t_auto = devpm_now_us(),
					     .hold = hold };
		if (self->x[i].on &&
		    devpm_scsi_rpm_set(self->x[i].d, DELAY_MS, "auto"))
			devpm_test_disk_drop(&self->x[i], devpm_error());
	}
	settle(self->x, n, self->t, DELAY_MS, true);
	for (i = 0; i < n; i++)
		devpm_block_run(&s, self->x[i].d->name, autosuspend_one, &a[i]);
	free(a);
	DEVPM_SUBTEST_END(&s);
}

/* The test region: the middle of the disk, 1 MiB aligned. */
static off_t region_of(const struct devpm_blk *b, size_t len)
{
	unsigned long long off = (b->bytes / 2) & ~((1ULL << 20) - 1);

	if (off + len > b->bytes)
		off = 0;
	return (off_t)off;
}

static uint64_t seed_of(const struct devpm_scsi_disk *d, int k)
{
	return ((uint64_t)d->host_no << 40 | (uint64_t)d->id << 24 |
		(d->lun & 0xffff) << 8) + (uint64_t)k;
}

/* A disk's data under test: the region and what was there before. */
struct io {
	struct devpm_blk b;
	off_t off;
	size_t len;
	void *orig, *buf;
	bool saved;
	uint64_t lat_s[CYCLES + 1], lat_a[CYCLES + 1];
	int ns, na, resumes_checked;
};

/* Open for writing and save the region (the read resumes the disk). */
static int io_open(struct devpm_test_disk *x, struct io *io, size_t len)
{
	int r;

	memset(io, 0, sizeof(*io));
	io->b.fd = -1;
	r = devpm_blk_open(x->d->block, true, &io->b);
	if (r)
		goto err;
	io->len = len;
	io->off = region_of(&io->b, len);
	io->orig = devpm_blk_alloc(len);
	io->buf = devpm_blk_alloc(len);
	if (!io->orig || !io->buf) {
		r = devpm_fail(ENOMEM, "out of memory");
		goto err;
	}
	r = devpm_blk_read(&io->b, io->orig, len, io->off);
	if (r)
		goto err;
	io->saved = true;
	return 0;
err:
	snprintf(x->why, sizeof(x->why), "%s", devpm_error());
	return r;
}

/* Put the region back; a failure is the disk's FAIL. */
static int io_close(struct devpm_test_disk *x, struct io *io)
{
	int r = 0;

	if (io->saved && devpm_blk_write(&io->b, io->orig, io->len, io->off)) {
		snprintf(x->why, sizeof(x->why),
			 "could not restore %zu bytes at %lld: %s", io->len,
			 (long long)io->off, devpm_error());
		r = -1;
	}
	devpm_blk_close(&io->b);
	free(io->orig);
	free(io->buf);
	io->orig = io->buf = NULL;
	return r;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

struct io_ctx {
	struct io *io;
	struct devpm_trace *t;
};

/*
 * Cycle k, the disk suspended: read block k (written in the previous
 * cycle, before the suspend), read it again while active, write the
 * pattern of k + 1 into block k + 1.  Exactly one resume.
 */
static int io_burst(struct devpm_test_disk *x, size_t i, int k, void *arg)
{
	struct io_ctx *c = arg;
	struct io *io = &c->io[i];
	const struct devpm_event *ev;
	uint64_t t0, t1, t2, t3;
	off_t blk = io->off + (off_t)k * BLK;
	long bad;
	size_t n;
	int res;

	t0 = devpm_now_us();
	if (devpm_blk_read(&io->b, io->buf, BLK, blk))
		goto err;
	t1 = devpm_now_us();
	bad = devpm_pattern_check(io->buf, BLK, seed_of(x->d, k));
	if (bad >= 0) {
		snprintf(x->why, sizeof(x->why),
			 "cycle %d: block written before the suspend differs at byte %ld",
			 k + 1, bad);
		return -1;
	}
	t2 = devpm_now_us();
	if (devpm_blk_read(&io->b, io->buf, BLK, blk))
		goto err;
	t3 = devpm_now_us();
	io->lat_s[io->ns++] = t1 - t0;
	io->lat_a[io->na++] = t3 - t2;
	if (k < CYCLES) {
		devpm_pattern_fill(io->buf, BLK, seed_of(x->d, k + 1));
		if (devpm_blk_write(&io->b, io->buf, BLK, blk + BLK))
			goto err;
	}
	if (!c->t)
		return 0;
	ev = devpm_trace_read(c->t, 0, &n);
	res = devpm_rpm_resumes(ev, n, x->sd.name, t0, devpm_now_us(), NULL,
				0);
	if (res != 1) {
		snprintf(x->why, sizeof(x->why),
			 "cycle %d: %d resumes during one I/O burst (want 1)",
			 k + 1, res);
		return -1;
	}
	io->resumes_checked++;
	return 0;
err:
	snprintf(x->why, sizeof(x->why), "cycle %d: %s", k + 1, devpm_error());
	return -1;
}

/* The pattern of cycle 0 into the region's first block. */
static int io_first_block(struct devpm_test_disk *x, struct io *io)
{
	devpm_pattern_fill(io->buf, BLK, seed_of(x->d, 0));
	if (devpm_blk_write(&io->b, io->buf, BLK, io->off)) {
		snprintf(x->why, sizeof(x->why), "%s", devpm_error());
		return -1;
	}
	return 0;
}

/* A disk's block in io_resumes_data_intact. */
struct io_disk {
	struct devpm_test_disk *x;
	struct io *io;
	struct devpm_block *b;
	bool traced;
	bool dropped;		/* out before its block: that is its FAIL */
};

/* Put the region back however the block ends; a failure is its FAIL. */
static void io_restore(void *arg)
{
	struct io_disk *a = arg;
	struct devpm_test_disk *x = a->x;

	if (a->io->b.fd < 0 || !io_close(x, a->io))
		return;
	if (a->dropped)
		devpm_note("%s: %s", x->d->name, x->why);
	else
		devpm_block_fail(a->b, "%s: %s", x->d->block, x->why);
}

static void io_one(struct devpm_block *b, void *arg)
{
	struct io_disk *a = arg;
	struct devpm_test_disk *x = a->x;
	struct io *io = a->io;

	a->b = b;
	a->dropped = !x->on;
	/* The FAIL's message before io_close() writes x->why. */
	if (a->dropped)
		devpm_block_fail(b, "%s: %s", x->d->block, x->why);
	devpm_block_defer(b, io_restore, a);
	if (a->dropped)
		return;
	devpm_metric(x->d->name, "first_io_latency_us",
		     (double)median(io->lat_s, io->ns));
	devpm_metric(x->d->name, "active_io_latency_us",
		     (double)median(io->lat_a, io->na));
	devpm_block_pass(b, "%s: %d cycles: pattern written with O_DIRECT read back identical after each suspend; %s; first I/O %llu us suspended, %llu us active (medians); region restored",
		       x->d->block, CYCLES, a->traced ?
		       "exactly one resume per burst" :
		       "resumes uncounted (no trace)",
		       (unsigned long long)io->lat_s[io->ns / 2],
		       (unsigned long long)io->lat_a[io->na / 2]);
}

TEST_F(scsi, io_resumes_data_intact)
{
	struct io *io = calloc(self->n + 1, sizeof(*io));
	struct io_disk *a = calloc(self->n + 1, sizeof(*a));
	struct io_ctx c = { .io = io };
	struct devpm_subtest s;
	size_t n, i;

	ASSERT_NE(NULL, io);
	ASSERT_NE(NULL, a);
	devpm_subtest_begin(&s, "io_resumes_data_intact");
	n = devpm_disk_set_select(&s, self->d, self->n, true, self->x);
	for (i = 0; i < n; i++) {
		struct devpm_test_disk *x = &self->x[i];

		if (io_open(x, &io[i], (CYCLES + 1) * BLK) ||
		    io_first_block(x, &io[i]))
			devpm_test_disk_drop(x, x->why);
	}
	c.t = self->t = devpm_disk_set_trace(self->x, n, NULL);
	set_all(self->x, n, CYCLE_DELAY_MS, "auto");
	devpm_disk_set_cycles(self->x, n, self->t, CYCLES + 1,
		  CYCLE_DELAY_MS + CYCLE_DELAY_MS / 4 + 2000, io_burst, &c);
	for (i = 0; i < n; i++) {
		a[i] = (struct io_disk){ .x = &self->x[i], .io = &io[i],
					 .traced = self->t != NULL };
		devpm_block_run(&s, self->x[i].d->name, io_one, &a[i]);
	}
	free(a);
	free(io);
	DEVPM_SUBTEST_END(&s);
}

/* A disk's block in resume_order_host_target_disk. */
struct resume {
	struct devpm_test_disk *x;
	struct devpm_trace *t;
	void *buf;
};

static void resume_one(struct devpm_block *b, void *arg)
{
	struct resume *a = arg;
	struct devpm_test_disk *x = a->x;
	const struct devpm_event *ev;
	uint64_t t0, rh = 0, rt = 0, rd = 0;
	int nh, nt, nd;
	struct devpm_blk blk;
	size_t ne;
	int r;

	devpm_test_disk_check(b, x);
	if (!a->t)
		devpm_block_skip(b, "needs tracefs to order the resumes");
	/* Suspended since the settle: a read resumes all. */
	t0 = devpm_now_us();
	r = devpm_blk_open(x->d->block, false, &blk);
	if (!r)
		r = devpm_blk_read(&blk, a->buf, BLK, 0);
	devpm_blk_close(&blk);
	if (r)
		devpm_test_disk_abort(b, x, "%s", devpm_error());
	ev = devpm_trace_read(a->t, 0, &ne);
	nh = devpm_rpm_resumes(ev, ne, x->host.name, t0, devpm_now_us(), &rh,
			       1);
	nt = devpm_rpm_resumes(ev, ne, x->tgt.name, t0, devpm_now_us(), &rt,
			       1);
	nd = devpm_rpm_resumes(ev, ne, x->sd.name, t0, devpm_now_us(), &rd,
			       1);
	if (nh != 1 || nt != 1 || nd != 1)
		devpm_test_disk_abort(b, x, "a read resumed %s %d times, %s %d, the disk %d (want 1 each)",
				      x->host.name, nh, x->tgt.name, nt, nd);
	if (!(rh < rt && rt < rd))
		devpm_test_disk_abort(b, x, "resumes completed out of order: %s +%llu us, %s +%llu us, disk +%llu us",
				      x->host.name,
				      (unsigned long long)(rh - t0),
				      x->tgt.name,
				      (unsigned long long)(rt - t0),
				      (unsigned long long)(rd - t0));
	devpm_metric(x->d->name, "resume_us", (double)(rd - t0));
	devpm_block_pass(b, "%s: a read resumed %s (+%llu us), then %s (+%llu us), then the disk (+%llu us)",
		       x->d->block, x->host.name,
		       (unsigned long long)(rh - t0), x->tgt.name,
		       (unsigned long long)(rt - t0),
		       (unsigned long long)(rd - t0));
}

TEST_F(scsi, resume_order_host_target_disk)
{
	struct resume a = { .buf = devpm_blk_alloc(BLK) };
	struct devpm_subtest s;
	size_t n, i;

	devpm_subtest_begin(&s, "resume_order_host_target_disk");
	n = devpm_disk_set_select(&s, self->d, self->n, false, self->x);
	a.t = self->t = devpm_disk_set_trace(self->x, n, NULL);
	set_all(self->x, n, DELAY_MS, "auto");
	settle(self->x, n, self->t, DELAY_MS, true);
	for (i = 0; i < n; i++) {
		a.x = &self->x[i];
		devpm_block_run(&s, a.x->d->name, resume_one, &a);
	}
	free(a.buf);
	DEVPM_SUBTEST_END(&s);
}

/* What the trace shows between a write burst and the suspend after it. */
struct flush {
	uint64_t last_write, sync, sync_done, suspended, call;
	char sync_status[32];
	bool write_after_sync;
};

static void flush_of(struct devpm_trace *t, const struct devpm_test_disk *x,
		     uint64_t from, uint64_t to, struct flush *f)
{
	const struct devpm_event *ev;
	struct devpm_scsi_cmd c;
	uint64_t dur;
	size_t n, i;

	memset(f, 0, sizeof(*f));
	ev = devpm_trace_read(t, 0, &n);
	f->suspended = devpm_rpm_suspended_at(ev, n, x->sd.name, from, to,
					      &dur);
	f->call = f->suspended - dur;
	for (i = 0; i < n; i++) {
		if (ev[i].ts_us < from || ev[i].ts_us > to ||
		    devpm_scsi_parse(&ev[i], &c) || !devpm_scsi_cmd_is(&c, x->d))
			continue;
		if (c.kind == DEVPM_SCSI_START &&
		    devpm_scsi_op_is_write(c.opcode)) {
			if (f->sync)
				f->write_after_sync = true;
			else
				f->last_write = c.ts_us;
		} else if (devpm_scsi_op_is_sync(c.opcode) && f->last_write &&
			   !f->sync_done) {
			if (c.kind == DEVPM_SCSI_START && !f->sync) {
				f->sync = c.ts_us;
			} else if (c.kind == DEVPM_SCSI_DONE && f->sync) {
				f->sync_done = c.ts_us;
				snprintf(f->sync_status, sizeof(f->sync_status),
					 "%s", c.status);
			}
		}
	}
}

/* Write one block while active, let the disk suspend, read the trace. */
static int write_then_suspend(struct devpm_test_disk *x, struct io *io,
			      struct devpm_trace *t, uint64_t seed,
			      struct flush *f)
{
	struct devpm_wait_result res;
	uint64_t t0;

	/* Active or not: what counts is the flush after this write. */
	t0 = devpm_now_us();
	devpm_pattern_fill(io->buf, BLK, seed);
	if (devpm_blk_write(&io->b, io->buf, BLK, io->off)) {
		snprintf(x->why, sizeof(x->why), "%s", devpm_error());
		return -1;
	}
	if (devpm_wait_status_why(&x->sd, t, "suspended",
				  CYCLE_DELAY_MS * 2 + 2000, &res)) {
		snprintf(x->why, sizeof(x->why), "after the write: %s",
			 res.why);
		return -1;
	}
	flush_of(t, x, t0, devpm_now_us(), f);
	if (!f->last_write || !f->suspended) {
		snprintf(x->why, sizeof(x->why),
			 "the trace shows no %s", f->last_write ?
			 "suspend after the write" : "WRITE command");
		return -1;
	}
	return 0;
}

/* Negative control: the kernel told the cache is off sends no flush. */
static int flush_control(struct devpm_test_disk *x, struct io *io,
			 struct devpm_trace *t)
{
	char k[DEVPM_PATH_MAX];
	struct flush f;
	int r;

	/* "temporary" changes sd's view only: no MODE SELECT reaches it. */
	if (devpm_scsi_attr(x->d, "scsi_disk/cache_type", k, sizeof(k)) ||
	    devpm_journal_undo_write(k, "temporary write back") ||
	    devpm_write_str(k, "temporary write through")) {
		snprintf(x->why, sizeof(x->why), "cache_type: %s",
			 devpm_error());
		return -1;
	}
	r = write_then_suspend(x, io, t, seed_of(x->d, 2), &f);
	devpm_write_str(k, "temporary write back");
	if (r)
		return -1;
	if (f.sync) {
		snprintf(x->why, sizeof(x->why),
			 "SYNCHRONIZE CACHE sent though sd was told the cache is write through");
		return -1;
	}
	return 0;
}

/* A disk's block in cache_flushed_before_suspend. */
struct cache {
	struct devpm_test_disk *x;
	struct devpm_trace *t;
	struct devpm_block *b;
	struct io io;		/* not in the block's frame: cache_restore() */
};

/* Put the data back however the block ends; a failure is its FAIL. */
static void cache_restore(void *arg)
{
	struct cache *a = arg;

	if (io_close(a->x, &a->io))
		devpm_block_fail(a->b, "%s: %s", a->x->d->block, a->x->why);
}

static void cache_one(struct devpm_block *b, void *arg)
{
	struct cache *a = arg;
	struct devpm_test_disk *x = a->x;
	int wc = devpm_scsi_write_cache(x->d);
	struct flush f;

	if (!a->t)
		devpm_block_skip(b, "needs tracefs with scsi events: %s",
			       devpm_error());
	if (wc <= 0)
		devpm_block_skip(b, "%s: %s", x->d->block, wc < 0 ?
			       devpm_error() :
			       "write cache off (write through): sd sends no flush");
	if (devpm_scsi_rpm_set(x->d, CYCLE_DELAY_MS, "auto"))
		devpm_test_disk_abort(b, x, "%s", devpm_error());
	a->b = b;
	if (io_open(x, &a->io, BLK)) {
		devpm_block_fail(b, "%s: %s", x->d->block, x->why);
		io_close(x, &a->io);
		return;
	}
	devpm_block_defer(b, cache_restore, a);
	if (write_then_suspend(x, &a->io, a->t, seed_of(x->d, 1), &f) ||
	    flush_control(x, &a->io, a->t))
		devpm_test_disk_abort(b, x, "%s", x->why);
	if (!f.sync || f.sync > f.suspended)
		devpm_test_disk_abort(b, x, "no SYNCHRONIZE CACHE between the last WRITE and the suspend");
	if (f.write_after_sync)
		devpm_test_disk_abort(b, x, "a WRITE came after the SYNCHRONIZE CACHE, before the suspend");
	if (f.sync_status[0] && strcmp(f.sync_status, "SAM_STAT_GOOD"))
		devpm_test_disk_abort(b, x, "SYNCHRONIZE CACHE completed with %s",
				      f.sync_status);
	devpm_metric(x->d->name, "flush_us",
		     f.sync_done ? (double)(f.sync_done - f.sync) : 0);
	devpm_block_pass(b, "%s: SYNCHRONIZE CACHE %.1f ms after the last WRITE, %.1f ms before the suspend completed (%s); none when sd was told write through",
		       x->d->block, (double)(f.sync - f.last_write) / 1000,
		       (double)(f.suspended - f.sync) / 1000,
		       f.sync_status[0] ? f.sync_status :
		       "status not traced");
}

TEST_F(scsi, cache_flushed_before_suspend)
{
	struct cache a = { 0 };
	struct devpm_subtest s;
	size_t n, i;

	devpm_subtest_begin(&s, "cache_flushed_before_suspend");
	n = devpm_disk_set_select(&s, self->d, self->n, true, self->x);
	self->t = devpm_disk_set_trace(self->x, n, NULL);
	if (self->t) {
		struct devpm_scsi_disk *dd = calloc(n + 1, sizeof(*dd));

		for (i = 0; dd && i < n; i++)
			dd[i] = *self->x[i].d;
		if (!dd || devpm_scsi_trace(self->t, dd, n)) {
			devpm_note("scsi events: %s", devpm_error());
			devpm_trace_stop(self->t);
			self->t = NULL;
		}
		free(dd);
	}
	a.t = self->t;
	for (i = 0; i < n; i++) {
		a.x = &self->x[i];
		devpm_block_run(&s, a.x->d->name, cache_one, &a);
	}
	DEVPM_SUBTEST_END(&s);
}

/* Usage now: runtime_usage, else the last trace event; -1 unknowable. */
static long usage_of(struct devpm_dev *d, struct devpm_trace *t,
		     uint64_t from)
{
	const struct devpm_event *ev;
	size_t n;

	if (!devpm_dev_snapshot(d) && d->rpm.have_usage)
		return d->rpm.usage;
	ev = devpm_trace_read(t, 0, &n);
	return devpm_rpm_last_usage(ev, n, d->name, from, devpm_now_us());
}

static int read_burst(struct devpm_test_disk *x, size_t i, int k, void *arg)
{
	struct devpm_blk b;
	int r;

	(void)i;
	(void)k;
	r = devpm_blk_open(x->d->block, false, &b);
	if (!r)
		r = devpm_blk_read(&b, arg, BLK, 0);
	devpm_blk_close(&b);
	if (r)
		snprintf(x->why, sizeof(x->why), "%s", devpm_error());
	return r ? -1 : 0;
}

/*
 * The disk's usage count at baseline, control=on's reference not counted;
 * -1 when it was not there (scsi_debug disks come with the program).
 */
/*
 * Negative control: control=on holds one reference.  Sets *base, the
 * usage with control=auto before the cycles; a disk that fails or cannot
 * be read drops out.
 */
static void usage_held(struct devpm_test_disk *x, struct devpm_trace *t,
		       uint64_t t0, long *base)
{
	char why[160];
	long held;

	if (devpm_scsi_rpm_set(x->d, CYCLE_DELAY_MS, "on") < 0) {
		devpm_test_disk_drop(x, devpm_error());
		return;
	}
	held = usage_of(&x->sd, t, t0);
	if (devpm_scsi_rpm_set(x->d, CYCLE_DELAY_MS, "auto") < 0) {
		devpm_test_disk_drop(x, devpm_error());
		return;
	}
	*base = usage_of(&x->sd, t, t0);
	if (*base >= 0 && devpm_baseline_usage(&x->sd) >= 0 &&
	    *base != devpm_baseline_usage(&x->sd)) {
		snprintf(why, sizeof(why),
			 "usage %ld with control=auto before the cycles, %ld at baseline: a reference leaked before this case",
			 *base, devpm_baseline_usage(&x->sd));
		devpm_test_disk_drop(x, why);
	} else if (*base < 0 || held < 0) {
		devpm_test_disk_drop_skip(x, "usage count unreadable: no runtime_usage (CONFIG_PM_ADVANCED_DEBUG) and no trace");
	} else if (held != *base + 1) {
		snprintf(why, sizeof(why),
			 "usage %ld with control=on, %ld with auto: the count does not show a held reference",
			 held, *base);
		devpm_test_disk_drop(x, why);
	}
}

/* A disk's block in usage_balanced_after_cycles. */
struct usage {
	struct devpm_test_disk *x;
	struct devpm_trace *t;
	uint64_t t0;
	long base;
};

static void usage_one(struct devpm_block *b, void *arg)
{
	struct usage *a = arg;
	struct devpm_test_disk *x = a->x;
	long u;

	devpm_test_disk_check(b, x);
	u = usage_of(&x->sd, a->t, a->t0);
	devpm_dev_snapshot(&x->tgt);
	devpm_dev_snapshot(&x->host);
	if (u != a->base)
		devpm_test_disk_abort(b, x, "usage %ld after %d open/read/close cycles, %ld before",
				      u, USAGE_CYCLES, a->base);
	if ((x->tgt.rpm.have_active_kids && x->tgt.rpm.active_kids) ||
	    (x->host.rpm.have_usage && x->host.rpm.usage) ||
	    (x->tgt.rpm.have_usage && x->tgt.rpm.usage))
		devpm_test_disk_abort(b, x, "%s usage %ld active children %ld, %s usage %ld after the cycles",
				      x->tgt.name, x->tgt.rpm.usage,
				      x->tgt.rpm.active_kids, x->host.name,
				      x->host.rpm.usage);
	devpm_block_pass(b, "%s: usage %ld before and after %d open/read/close cycles from suspended (control=on showed %ld); %s and %s hold nothing",
		       x->d->block, a->base, USAGE_CYCLES, a->base + 1,
		       x->tgt.name, x->host.name);
}

TEST_F(scsi, usage_balanced_after_cycles)
{
	struct usage *a = calloc(self->n + 1, sizeof(*a));
	void *buf = devpm_blk_alloc(BLK);
	uint64_t t0 = devpm_now_us();
	struct devpm_subtest s;
	size_t n, i;

	ASSERT_NE(NULL, a);
	devpm_subtest_begin(&s, "usage_balanced_after_cycles");
	n = devpm_disk_set_select(&s, self->d, self->n, false, self->x);
	self->t = devpm_disk_set_trace(self->x, n, NULL);
	set_all(self->x, n, CYCLE_DELAY_MS, "auto");
	settle(self->x, n, self->t, CYCLE_DELAY_MS, true);
	for (i = 0; i < n; i++) {
		a[i] = (struct usage){ .x = &self->x[i], .t = self->t,
				       .t0 = t0 };
		if (self->x[i].on)
			usage_held(&self->x[i], self->t, t0, &a[i].base);
	}
	devpm_disk_set_cycles(self->x, n, self->t, USAGE_CYCLES,
		  CYCLE_DELAY_MS + CYCLE_DELAY_MS / 4 + 2000, read_burst, buf);
	settle(self->x, n, self->t, CYCLE_DELAY_MS, true);
	for (i = 0; i < n; i++)
		devpm_block_run(&s, self->x[i].d->name, usage_one, &a[i]);
	free(a);
	free(buf);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
