// SPDX-License-Identifier: GPL-2.0-only
/*
 * invalid.c - PM QoS: every QoS file rejects what it must and keeps its
 * old value; what the kernel accepts instead is asserted as it is.
 *
 * drivers/base/power/sysfs.c:
 *  - pm_qos_resume_latency_us_store(): kstrtos32 base 0; negative or
 *    S32_MAX -> EINVAL; a parse failure other than "n/a" -> EINVAL.
 *  - pm_qos_no_power_off_store(): kstrtoint base 0, only 0 or 1.
 *  - pm_qos_latency_tolerance_us_store(): negative -> EINVAL, but S32_MAX
 *    is accepted: it is PM_QOS_LATENCY_ANY and reads back "any".
 * kernel/power/qos.c: cpu_latency_qos_write(): a 4-byte write is a binary
 * s32 taken as it is (even "junk"); other lengths are hex for
 * kstrtos32_from_user(), whose overflow is ERANGE, not EINVAL; there is no
 * range check, so a negative hex value is a request.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness/test.h"
#include "mock/qos_bench.h"
#include "qos/qos.h"
#include "qos_suite.h"

static const struct devpm_test_info info = {
	.suite = "qos",
	.timeout_s = 60,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM", NULL },
	},
};

static const struct devpm_qos_bad resume_latency_bad[] = {
	{ "100", 0, "100" },		/* positive control: writable */
	{ "n/a", 0, "n/a" },
	{ "-1", -EINVAL, NULL },
	{ "2147483647", -EINVAL, NULL },
	{ "0x7fffffff", -EINVAL, NULL },	/* base 0: S32_MAX again */
	{ "2147483648", -EINVAL, NULL },
	{ "99999999999999999999", -EINVAL, NULL },
	{ "junk", -EINVAL, NULL },
};

static const struct devpm_qos_bad no_power_off_bad[] = {
	{ "-1", -EINVAL, NULL },
	{ "2", -EINVAL, NULL },
	{ "2147483647", -EINVAL, NULL },
	{ "2147483648", -EINVAL, NULL },
	{ "99999999999999999999", -EINVAL, NULL },
	{ "junk", -EINVAL, NULL },
};

static const struct devpm_qos_bad tolerance_bad[] = {
	{ "-1", -EINVAL, NULL },
	{ "2147483647", 0, "any" },	/* PM_QOS_LATENCY_ANY, not rejected */
	{ "2147483648", -EINVAL, NULL },
	{ "99999999999999999999", -EINVAL, NULL },
	{ "junk", -EINVAL, NULL },
};

struct qos_file {
	const char *attr;
	const struct devpm_qos_bad *bad;
	size_t n;
};

static const struct qos_file qos_files[] = {
	{ "pm_qos_resume_latency_us", resume_latency_bad,
	  sizeof(resume_latency_bad) / sizeof(resume_latency_bad[0]) },
	{ "pm_qos_no_power_off", no_power_off_bad,
	  sizeof(no_power_off_bad) / sizeof(no_power_off_bad[0]) },
	{ "pm_qos_latency_tolerance_us", tolerance_bad,
	  sizeof(tolerance_bad) / sizeof(tolerance_bad[0]) },
};

static const char *const qos_file_names[] = {
	"pm_qos_resume_latency_us", "pm_qos_no_power_off",
	"pm_qos_latency_tolerance_us", NULL
};

FIXTURE(qos_invalid) {
	off_t mark;
	struct devpm_trace *trace;
	struct devpm_qos_bench mock;
};

FIXTURE_SETUP(qos_invalid)
{
	self->mark = devpm_case_setup();
	self->trace = NULL;
	devpm_qos_bench_init(&self->mock);
}

FIXTURE_TEARDOWN(qos_invalid)
{
	if (self->trace != self->mock.t)
		devpm_trace_stop(self->trace);
	devpm_qos_bench_fini(&self->mock);
	devpm_case_teardown(self->mark);
}

/* Whether d has any of the QoS files (a device with none has no line). */
static bool has_qos_file(const struct devpm_dev *d)
{
	char k[DEVPM_PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(qos_files) / sizeof(qos_files[0]); i++)
		if (!devpm_dev_attr(d, qos_files[i].attr, k, sizeof(k)) &&
		    devpm_exists(k))
			return true;
	return false;
}

/* Every QoS file of the device: its one line. */
static void device_one(struct devpm_block *b, void *arg)
{
	const struct devpm_dev *d = arg;
	char msg[512], log[512], k[DEVPM_PATH_MAX], files[160] = "";
	size_t i;
	int r;

	for (i = 0; i < sizeof(qos_files) / sizeof(qos_files[0]); i++) {
		const struct qos_file *f = &qos_files[i];

		if (devpm_dev_attr(d, f->attr, k, sizeof(k)) ||
		    !devpm_exists(k))
			continue;
		r = devpm_qos_check_values(k, f->bad, f->n, msg, sizeof(msg),
					   log, sizeof(log));
		devpm_note("%s %s: %s", d->name, f->attr, log);
		if (r <= 0)
			devpm_block_abort(b, "%s", r < 0 ? devpm_error() : msg);
		snprintf(files + strlen(files), sizeof(files) - strlen(files),
			 "%s%s", files[0] ? " " : "", f->attr);
	}
	devpm_note("%s: %s hold their value on every rejected write",
		   d->name, files);
}

/* One /dev/cpu_dma_latency write and what the kernel must do with it. */
struct cpu_write {
	const char *text;	/* NULL: binary value */
	int32_t value;		/* binary value, or what text parses to */
	int err;		/* 0 accepted, else -errno */
	/*
	 * Accepted by write() but a kernel may drop it: 6.1's
	 * cpu_latency_qos_write() has no range check and makes a negative
	 * value the aggregate; later kernels' cpu_latency_qos_update_request()
	 * returns early, untraced, on cpu_latency_qos_value_invalid().
	 */
	bool may_drop;
};

static const struct cpu_write cpu_writes[] = {
	{ "zz\n", 0, -EINVAL, false },
	{ "80000000\n", 0, -ERANGE, false },	/* 2^31: s32 overflow */
	{ "100000000\n", 0, -ERANGE, false },	/* 2^32 */
	{ "-2\n", -2, 0, true },	/* applied (6.1) or dropped */
	{ "junk", 0x6b6e756a, 0, false },	/* 4 bytes: a binary s32 */
	{ NULL, 2147483647, 0, false },
	{ "7fffffff\n", 2147483647, 0, false },
};

#define CPU_BASE_US	100	/* the baseline request: hex "64" */

static int cpu_write(int fd, const struct cpu_write *w)
{
	if (!w->text)
		return devpm_cpu_latency_write_s32(fd, w->value);
	return devpm_cpu_latency_write_str(fd, w->text);
}

/* The pm_qos_update_request values traced since from_us, at most max. */
static size_t cpu_requests(struct devpm_trace *t, uint64_t from_us,
			   size_t want, int *vals, size_t max)
{
	struct devpm_qos_update u[64];
	const struct devpm_event *ev;
	uint64_t end = devpm_now_us() + 1000000;
	size_t n, k, i;

	do {
		ev = devpm_trace_read(t, 10, &n);
		k = devpm_qos_updates(ev, n, NULL, "CPU", from_us, u, 64);
	} while (k < want && devpm_now_us() < end);
	for (i = 0; i < k && i < max && i < 64; i++)
		vals[i] = u[i].value;
	return k;
}

struct cpu_ctx {
	struct devpm_trace *t;	/* NULL: values checked by read only */
	int fd;			/* the held request, -1 once let go */
};

/* Closing the fd removes the request (cpu_latency_qos_release()). */
static void cpu_release(void *arg)
{
	struct cpu_ctx *c = arg;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Every write of cpu_writes[] through /dev/cpu_dma_latency: its line. */
static void cpu_latency_one(struct devpm_block *b, void *arg)
{
	const char *name = "cpu_dma_latency";
	struct cpu_ctx *c = arg;
	int32_t before, after;
	int vals[64], want[64];
	size_t i, nwant = 0, k;
	uint64_t t0;
	char log[512] = "";

	c->fd = devpm_cpu_latency_open();
	if (c->fd < 0)
		devpm_block_skip(b, "%s", devpm_error());
	devpm_block_defer(b, cpu_release, c);
	t0 = devpm_now_us();
	if (devpm_cpu_latency_write_str(c->fd, "64\n"))
		devpm_block_abort(b, "%s", devpm_error());
	want[nwant++] = CPU_BASE_US;
	for (i = 0; i < sizeof(cpu_writes) / sizeof(cpu_writes[0]); i++) {
		const struct cpu_write *w = &cpu_writes[i];
		int got;

		if (devpm_cpu_latency_read(c->fd, &before) < 0)
			devpm_block_abort(b, "%s", devpm_error());
		got = cpu_write(c->fd, w);
		if (got > 0)
			got = 0;
		snprintf(log + strlen(log), sizeof(log) - strlen(log),
			 "%s'%.*s':%s", log[0] ? " " : "",
			 w->text ? (int)strcspn(w->text, "\n") : 4,
			 w->text ? w->text : "s32", got ? "rejected" : "ok");
		if (got != w->err)
			devpm_block_abort(b,
					"writing %s%.*s gave %d (%s), expected %d",
					w->text ? "'" : "binary ",
					w->text ? (int)strcspn(w->text, "\n") : 0,
					w->text ? w->text : "", got,
					got ? devpm_error() : "accepted",
					w->err);
		if (devpm_cpu_latency_read(c->fd, &after) < 0)
			devpm_block_abort(b, "%s", devpm_error());
		if (got) {
			if (after != before)
				devpm_block_abort(b,
						"rejected '%.*s' moved the aggregate from %d to %d",
						(int)strcspn(w->text, "\n"),
						w->text, before, after);
			continue;
		}
		devpm_note("%s: accepted %d, aggregate now %d", name,
			   w->value, after);
		if (w->may_drop && after != before && after != w->value)
			devpm_block_abort(b,
					"accepted %d moved the aggregate from %d to %d: neither applied nor dropped",
					w->value, before, after);
		if (w->may_drop && after == before) {
			devpm_note("%s: %d dropped by the kernel (cpu_latency_qos_value_invalid()): no request traced",
				   name, w->value);
		} else {
			if (w->may_drop)
				devpm_note("%s: %d applied (no range check in this kernel's cpu_latency_qos_write())",
					   name, w->value);
			want[nwant++] = w->value;
		}
		if (devpm_cpu_latency_write_str(c->fd, "64\n"))
			devpm_block_abort(b, "%s", devpm_error());
		want[nwant++] = CPU_BASE_US;
	}
	cpu_release(c);	/* releases the request */
	devpm_note("%s: %s", name, log);
	if (!c->t) {
		devpm_note("%s: no trace: values checked by read only", name);
		return;
	}
	/* The kernel's record: one request event per accepted write. */
	k = cpu_requests(c->t, t0, nwant + 1, vals, 64);
	/* The close adds a remove (value -1) after ours. */
	if (k != nwant + 1)
		devpm_block_abort(b,
				"traced %zu pm_qos_*_request events, expected %zu (one per accepted write and the close)",
				k, nwant + 1);
	for (i = 0; i < nwant; i++)
		if (vals[i] != want[i])
			devpm_block_abort(b,
					"request %zu traced as value=%d, expected %d",
					i + 1, vals[i], want[i]);
}

TEST_F(qos_invalid, invalid_values_rejected)
{
	static const char *const devs[] = { "-", NULL };
	struct devpm_qos_path *paths;
	struct cpu_ctx cpu = { .fd = -1 };
	struct devpm_subtest s;
	int any = 0, r;
	size_t i;

	devpm_subtest_begin(&s, "invalid_values_rejected");
	/* A device that exposes both files everywhere: devpm_mock.0. */
	if (devpm_qos_bench_setup(&self->mock, false)) {
		devpm_subtest_skip(&s, "devpm_mock", "%s", self->mock.why);
		devpm_qos_bench_fini(&self->mock);
		self->trace = devpm_trace_start(devs);
		if (!self->trace ||
		    devpm_qos_trace_events(self->trace) < 0) {
			devpm_note("no QoS trace (%s): cpu_dma_latency checked by read",
				   devpm_error());
			devpm_trace_stop(self->trace);
			self->trace = NULL;
		}
	} else {
		self->trace = self->mock.t;
	}
	r = devpm_qos_devices(qos_file_names, &paths);
	ASSERT_LE(0, r) TH_LOG("%s", devpm_error());
	devpm_note("%d devices with PM QoS files", r);
	for (i = 0; i < (size_t)r; i++) {
		struct devpm_dev d;

		if (devpm_dev_open(&d, paths[i].path) < 0) {
			devpm_subtest_fail(&s, paths[i].path, "%s", devpm_error());
			continue;
		}
		if (has_qos_file(&d)) {
			any++;
			devpm_block_run(&s, d.name, device_one, &d);
		}
	}
	free(paths);
	if (!any)
		devpm_note("no device exposes a PM QoS file");
	cpu.t = self->trace;
	devpm_block_run(&s, "cpu_dma_latency", cpu_latency_one, &cpu);
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
