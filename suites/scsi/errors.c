// SPDX-License-Identifier: GPL-2.0-only
/*
 * errors.c - faults injected into the commands that resume a disk: SCSI
 * error handling recovers, nothing hangs, runtime PM is not left in error.
 *
 * scsi_debug is the only disk that can fail on demand.  Two faults, each
 * into the first command after a runtime resume (scsi_debug sends none of
 * its own when resumed):
 *  - a timeout: every_nth=1 with the TIMEOUT option drops commands; once
 *    the READ that resumed the disk is dispatched, every_nth goes back to
 *    0, so the command times out, is aborted and its retry succeeds;
 *  - a medium error: the MEDIUM_ERR option fails reads of LBA 0x1234 with
 *    an unrecovered read error, which SCSI error handling does not retry.
 * Faults are never injected into the SYNCHRONIZE CACHE of a suspend: a
 * failed flush makes sd's runtime suspend fail with -EIO, which the PM core
 * keeps as runtime_error (status "error") - a different test.
 */
#include <pthread.h>

#include "harness/test.h"
#include "bus/scsi/scsi.h"
#include "bus/scsi/scsi_disk_set.h"
#include "trace/transition.h"
#include "common.h"

#define DELAY_MS	100
#define CMD_TIMEOUT_S	1	/* the disk's command timeout, set */
/* Timeout (rounded up to a second by the block layer) plus abort. */
#define HANG_BOUND_MS	(CMD_TIMEOUT_S * 1000 + 1000 + 3000)
#define BLK		4096

static const struct devpm_test_info info = {
	.suite = "scsi",
	.timeout_s = 60,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM",
						   "CONFIG_SCSI_DEBUG", NULL },
		.modules = (const char *const[]){ "scsi_debug", NULL },
	},
};

FIXTURE(errors) {
	off_t mark;
	struct devpm_scsi_disk *d;
	size_t n;
	struct devpm_trace *t;
	struct devpm_kmsg *k;
};

FIXTURE_SETUP(errors)
{
	self->mark = devpm_case_setup();
	self->t = NULL;
	self->k = devpm_kmsg_open();
	if (devpm_scsi_disks(&self->d, &self->n) < 0)
		TH_LOG("scsi disks: %s", devpm_error());
}

FIXTURE_TEARDOWN(errors)
{
	if (self->t)
		devpm_trace_stop(self->t);
	if (self->k)
		devpm_kmsg_close(self->k);
	free(self->d);
	devpm_case_teardown(self->mark);
}

/* A read in a thread, so that a hang is seen and bounded. */
struct reader {
	struct devpm_blk *b;
	void *buf;
	off_t off;
	int ret, err;
	uint64_t t0, t1;
	char msg[256];
};

static void *read_thread(void *arg)
{
	struct reader *r = arg;

	r->t0 = devpm_now_us();
	r->ret = devpm_blk_read(r->b, r->buf, BLK, r->off);
	r->t1 = devpm_now_us();
	snprintf(r->msg, sizeof(r->msg), "%s", devpm_error());
	return NULL;
}

/* Start the read; 0, or -1 when no thread could be made. */
static int read_start(pthread_t *th, struct reader *r)
{
	return pthread_create(th, NULL, read_thread, r) ? -1 : 0;
}

/* Wait for it at most bound_ms: 0 when it returned, -1 when it hangs. */
static int read_join(pthread_t th, int bound_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += bound_ms / 1000;
	ts.tv_nsec += (long)(bound_ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return pthread_timedjoin_np(th, NULL, &ts) ? -1 : 0;
}

/*
 * SCSI commands of the disk in a window: READs dispatched and timed out;
 * first_us (may be NULL): when the first was dispatched.
 */
static void reads_of(struct devpm_trace *t, const struct devpm_scsi_disk *d,
		     uint64_t from, uint64_t to, long long lba, int *started,
		     int *timedout, uint64_t *first_us)
{
	const struct devpm_event *ev;
	struct devpm_scsi_cmd c;
	size_t n, i;

	*started = *timedout = 0;
	ev = devpm_trace_read(t, 0, &n);
	for (i = 0; i < n; i++) {
		if (ev[i].ts_us < from || ev[i].ts_us > to ||
		    devpm_scsi_parse(&ev[i], &c) || !devpm_scsi_cmd_is(&c, d) ||
		    !devpm_scsi_op_is_read(c.opcode) || c.lba != lba)
			continue;
		if (first_us && c.kind == DEVPM_SCSI_START && !*started)
			*first_us = ev[i].ts_us;
		*started += c.kind == DEVPM_SCSI_START;
		*timedout += c.kind == DEVPM_SCSI_TIMEOUT;
	}
}

/* Wait (bounded) until the READ of lba is dispatched. */
static bool read_dispatched(struct devpm_trace *t,
			    const struct devpm_scsi_disk *d, uint64_t from,
			    long long lba, int bound_ms)
{
	uint64_t end = devpm_now_us() + (uint64_t)bound_ms * 1000;
	int started, timedout;

	do {
		reads_of(t, d, from, devpm_now_us(), lba, &started, &timedout,
			 NULL);
		if (started)
			return true;
		devpm_trace_poll(t, 10);
	} while (devpm_now_us() < end);
	return false;
}

struct ctx {
	struct devpm_test_disk *x;
	struct devpm_trace *t;
	struct devpm_blk *b;
	void *buf;
	off_t off;		/* a block holding the pattern */
	char *why;
	size_t len;
	char note[256];
};

static int resumed_once(struct ctx *c, uint64_t t0, uint64_t t1)
{
	const struct devpm_event *ev;
	size_t n;
	int k;

	ev = devpm_trace_read(c->t, 0, &n);
	k = devpm_rpm_resumes(ev, n, c->x->sd.name, t0, t1, NULL, 0);
	if (k != 1)
		snprintf(c->why, c->len,
			 "the faulty command came with %d resumes (want 1: inject into the resume)",
			 k);
	return k == 1 ? 0 : -1;
}

static int wait_suspended(struct ctx *c, const char *when)
{
	struct devpm_wait_result res;

	if (devpm_wait_status_why(&c->x->sd, c->t, "suspended",
				  DELAY_MS * 2 + 2000, &res)) {
		snprintf(c->why, c->len, "%s: %s", when, res.why);
		return -1;
	}
	return 0;
}

/* The READ that resumes the disk times out; its retry must succeed. */
static int timeout_round(struct ctx *c, double *ms)
{
	long long lba = c->off / c->b->lbs;
	struct reader r = { .b = c->b, .buf = c->buf, .off = c->off };
	int started, timedout;
	uint64_t start, dispatched = 0;
	pthread_t th;
	long bad;

	if (wait_suspended(c, "before the timeout") ||
	    devpm_sdebug_set("statistics", "1") ||
	    devpm_sdebug_set("opts", "0x2004") ||
	    devpm_sdebug_set("every_nth", "1"))
		goto err;
	memset(c->buf, 0, BLK);
	start = devpm_now_us();
	if (read_start(&th, &r)) {
		snprintf(c->why, c->len, "no thread");
		return -1;
	}
	/* Let that one command be dropped, not its retry. */
	if (!read_dispatched(c->t, c->x->d, start, lba, 2000)) {
		devpm_sdebug_set("every_nth", "0");
		snprintf(c->why, c->len, "the READ was not dispatched within 2 s");
		read_join(th, HANG_BOUND_MS);
		return -1;
	}
	if (devpm_sdebug_set("every_nth", "0"))
		goto err;
	if (read_join(th, HANG_BOUND_MS)) {
		snprintf(c->why, c->len,
			 "a READ that timed out still hangs after %d ms",
			 HANG_BOUND_MS);
		return -1;
	}
	*ms = (double)(r.t1 - r.t0) / 1000;
	reads_of(c->t, c->x->d, r.t0, r.t1, lba, &started, &timedout,
		 &dispatched);
	if (r.ret) {
		snprintf(c->why, c->len, "the retried READ failed: %s", r.msg);
		return -1;
	}
	bad = devpm_pattern_check(c->buf, BLK, 7);
	if (bad >= 0) {
		snprintf(c->why, c->len, "the retried READ returned other data (byte %ld)",
			 bad);
		return -1;
	}
	if (timedout != 1 || started != 2 ||
	    *ms < CMD_TIMEOUT_S * 1000 - 10) {
		snprintf(c->why, c->len,
			 "after %.0f ms the trace shows %d dispatches and %d timeouts of the READ (want 2 and 1): the fault did not take",
			 *ms, started, timedout);
		return -1;
	}
	/* The dropped READ's block-layer timer: waited out (least_time.h). */
	devpm_least_time_add(dispatched, CMD_TIMEOUT_S * 1000000ULL);
	return resumed_once(c, r.t0, r.t1);
err:
	snprintf(c->why, c->len, "%s", devpm_error());
	return -1;
}

/* The READ that resumes the disk meets a medium error: fails, no retry. */
static int medium_round(struct ctx *c, double *ms)
{
	long long lba = DEVPM_SDEBUG_MEDIUM_ERR_LBA * 512LL / c->b->lbs;
	uint64_t t0, t1;
	int r, e, started, timedout;

	if (wait_suspended(c, "before the medium error") ||
	    devpm_sdebug_set("opts", "0x2002"))
		goto err;
	t0 = devpm_now_us();
	r = devpm_blk_read(c->b, c->buf, BLK, (off_t)lba * c->b->lbs);
	e = r;
	t1 = devpm_now_us();
	if (devpm_sdebug_set("opts", "0"))
		goto err;
	*ms = (double)(t1 - t0) / 1000;
	if (!r) {
		snprintf(c->why, c->len,
			 "a READ of LBA %lld succeeded with MEDIUM_ERR injected: the fault did not take",
			 lba);
		return -1;
	}
	if (e != -EIO && e != -ENODATA) {
		snprintf(c->why, c->len, "the READ failed with %s, want EIO or ENODATA",
			 strerror(-e));
		return -1;
	}
	reads_of(c->t, c->x->d, t0, t1, lba, &started, &timedout, NULL);
	if (started != 1 || *ms > HANG_BOUND_MS) {
		snprintf(c->why, c->len,
			 "an unrecovered read error was dispatched %d times in %.0f ms (want once, no retry)",
			 started, *ms);
		return -1;
	}
	return resumed_once(c, t0, t1);
err:
	snprintf(c->why, c->len, "%s", devpm_error());
	return -1;
}

/* Afterwards: it works, it is not in error, it suspends again. */
static int after_check(struct ctx *c)
{
	struct devpm_dev *dev[3] = { &c->x->sd, &c->x->tgt, &c->x->host };
	char st[32];
	long bad;
	int i;

	devpm_pattern_fill(c->buf, BLK, 8);
	if (devpm_blk_write(c->b, c->buf, BLK, c->off + BLK) ||
	    devpm_blk_read(c->b, c->buf, BLK, c->off + BLK)) {
		snprintf(c->why, c->len, "afterwards: %s", devpm_error());
		return -1;
	}
	bad = devpm_pattern_check(c->buf, BLK, 8);
	if (bad >= 0) {
		snprintf(c->why, c->len, "afterwards a block read back differs at byte %ld",
			 bad);
		return -1;
	}
	for (i = 0; i < 3; i++) {
		if (!devpm_dev_status(dev[i], st, sizeof(st)) &&
		    !strcmp(st, "error")) {
			snprintf(c->why, c->len, "%s: runtime_status left in error",
				 dev[i]->name);
			return -1;
		}
	}
	return wait_suspended(c, "afterwards");
}

struct log {
	int eh, bad;
	char first_bad[200];
};

static void log_line(const char *line, void *arg)
{
	struct log *l = arg;

	if (strstr(line, "Medium Error") || strstr(line, "medium error") ||
	    strstr(line, "Unrecovered read error") ||
	    strstr(line, "scsi_debug_abort") || strstr(line, "timing out"))
		l->eh++;
	if (devpm_kmsg_is_bad(line) && !l->bad++)
		snprintf(l->first_bad, sizeof(l->first_bad), "%s", line);
}

static int run_rounds(struct ctx *c, double *t_ms, double *m_ms)
{
	devpm_pattern_fill(c->buf, BLK, 7);
	if (devpm_blk_write(c->b, c->buf, BLK, c->off)) {
		snprintf(c->why, c->len, "%s", devpm_error());
		return -1;
	}
	return timeout_round(c, t_ms) || medium_round(c, m_ms) ||
	       after_check(c) ? -1 : 0;
}

/* A scsi_debug disk's block; what the clean-ups let go is here. */
struct fault {
	const struct devpm_scsi_disk *d;
	struct devpm_test_disk x;
	struct devpm_trace **t;	/* the case's one trace */
	struct devpm_kmsg *k;
	struct devpm_blk b;
	void *buf, *orig;	/* freed at the block's end */
	char why[768];
};

static void fault_close(void *arg)
{
	devpm_blk_close(arg);
}

static void fault_one(struct devpm_block *b, void *arg)
{
	struct fault *f = arg;
	const struct devpm_scsi_disk *d = f->d;
	struct ctx c = { .x = &f->x, .why = f->why, .len = sizeof(f->why) };
	double t_ms = 0, m_ms = 0;
	struct log log = { 0 };
	char v[16];
	int r;

	if (*f->t)
		devpm_block_skip(b, "faults are injected into one scsi_debug disk only");
	if (!devpm_scsi_data_ok(d, f->why, sizeof(f->why)) ||
	    !devpm_scsi_pm_ok(d, f->why, sizeof(f->why)))
		devpm_block_skip(b, "%s", f->why);
	if (devpm_test_disk_init(d, &f->x))
		devpm_block_abort(b, "%s", devpm_error());
	*f->t = devpm_disk_set_trace(&f->x, 1, NULL);
	if (!*f->t || devpm_scsi_trace(*f->t, d, 1))
		devpm_block_skip(b, "needs tracefs with scsi events to aim the faults: %s",
			       devpm_error());
	if (!f->k)
		devpm_block_skip(b, "needs /dev/kmsg to read the log");
	devpm_kmsg_drain(f->k, NULL, NULL);
	c.t = *f->t;
	c.b = &f->b;
	snprintf(v, sizeof(v), "%d", CMD_TIMEOUT_S);
	r = devpm_knob_writef(v, "%s/timeout", d->path);
	if (!r)
		r = devpm_scsi_rpm_set(d, DELAY_MS, "auto");
	if (!r)
		r = devpm_blk_open(d->block, true, &f->b);
	if (r)
		devpm_test_disk_abort(b, &f->x, "%s", devpm_error());
	devpm_block_defer(b, fault_close, &f->b);
	c.buf = f->buf = devpm_blk_alloc(BLK);
	devpm_block_defer(b, free, f->buf);
	f->orig = devpm_blk_alloc(2 * BLK);
	devpm_block_defer(b, free, f->orig);
	c.off = (off_t)1 << 20;
	/* Negative control: no fault without injection. */
	if (!c.buf || !f->orig ||
	    devpm_blk_read(&f->b, f->orig, 2 * BLK, c.off) ||
	    devpm_blk_read(&f->b, c.buf, BLK,
			   DEVPM_SDEBUG_MEDIUM_ERR_LBA * 512LL)) {
		snprintf(f->why, sizeof(f->why), "without a fault: %s",
			 devpm_error());
		r = -1;
	} else {
		r = run_rounds(&c, &t_ms, &m_ms);
	}
	if (f->orig && devpm_blk_write(&f->b, f->orig, 2 * BLK, c.off) &&
	    !r) {
		snprintf(f->why, sizeof(f->why), "restoring: %s",
			 devpm_error());
		r = -1;
	}
	/* Closed before the log is read, as the deferred close would. */
	devpm_blk_close(&f->b);
	devpm_kmsg_drain(f->k, log_line, &log);
	if (r)
		devpm_test_disk_abort(b, &f->x, "%s", f->why);
	if (log.bad)
		devpm_test_disk_abort(b, &f->x, "the log has: %s",
				      log.first_bad);
	if (!log.eh)
		devpm_test_disk_abort(b, &f->x, "no error-handling line in the log");
	devpm_metric(d->name, "timeout_recovery_ms", t_ms);
	devpm_metric(d->name, "medium_error_ms", m_ms);
	devpm_block_pass(b, "%s: a READ timed out as it resumed the disk, was aborted and retried once: data intact after %.0f ms (timeout %d s); a medium error as it resumed failed at once (%.1f ms, no retry); afterwards it works, is not in error and suspends; log: %d error-handling lines, no WARN",
		       d->block, t_ms, CMD_TIMEOUT_S, m_ms, log.eh);
}

TEST_F_TIMEOUT(errors, error_during_resume_recovers, 60)
{
	struct fault *f = calloc(1, sizeof(*f));
	struct devpm_subtest s;
	size_t i;

	ASSERT_NE(NULL, f);
	f->t = &self->t;
	f->k = self->k;
	devpm_subtest_begin(&s, "error_during_resume_recovers");
	for (i = 0; i < self->n; i++) {
		if (!self->d[i].scsi_debug)
			continue;
		f->d = &self->d[i];
		devpm_block_run(&s, f->d->name, fault_one, f);
	}
	free(f);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
