// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trace.c - lib/trace/trace.c: the trace line parser on lines captured from
 * real kernels (fixtures/trace/), malformed lines, and, as root on a
 * live system, a private instance that sees a PCI config read resume the
 * parent bridge (a read: no PM knob is touched).
 */
#include "devpm.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static const char *const line_idle =
	"            bash-13532   [001] d..1.   963.452762: rpm_idle: 0000:00:00.0 flags-9 cnt-0  dep-0  auto-1 p-0 irq-0 child-0";
static const char *const line_ret =
	"     kworker/1:2-605     [001] d..1.   963.455318: rpm_return_int: rpm_suspend+0x185/0x5e0:0000:00:00.0 ret=0";
static const char *const line_status =
	"     kworker/1:2-605     [001] d..1.   963.455316: rpm_status: 0000:00:00.0 status=RPM_SUSPENDED";

TEST(parse_rpm_internal)
{
	struct devpm_event e;

	ASSERT_EQ(0, devpm_trace_parse_line(line_idle, &e));
	EXPECT_EQ(DEVPM_EV_RPM_IDLE, e.type);
	EXPECT_STREQ("rpm_idle", e.event);
	EXPECT_EQ(963452762ULL, e.ts_us);
	EXPECT_STREQ("0000:00:00.0", e.dev);
	EXPECT_EQ(9, e.flags);
	EXPECT_EQ(0, e.usage);
	EXPECT_EQ(0, e.depth);
	EXPECT_EQ(0, e.child);
	EXPECT_STREQ("0000:00:00.0 flags-9 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
		     e.raw);
	/* Fields that differ are read, not defaulted. */
	ASSERT_EQ(0, devpm_trace_parse_line(
		"bash-1 [000] d..1. 5.000001: rpm_resume: pci0000:00 flags-a cnt-12 dep-1  auto-0 p-1 irq-0 child-6",
		&e));
	EXPECT_EQ(DEVPM_EV_RPM_RESUME, e.type);
	EXPECT_EQ(5000001ULL, e.ts_us);
	EXPECT_EQ(0xa, e.flags);
	EXPECT_EQ(12, e.usage);
	EXPECT_EQ(1, e.depth);
	EXPECT_EQ(6, e.child);
}

TEST(parse_return_and_status)
{
	struct devpm_event e;

	ASSERT_EQ(0, devpm_trace_parse_line(line_ret, &e));
	EXPECT_EQ(DEVPM_EV_RPM_RETURN, e.type);
	EXPECT_STREQ("rpm_suspend", e.func);
	EXPECT_STREQ("0000:00:00.0", e.dev);
	EXPECT_EQ(0, e.ret);
	EXPECT_EQ(963455318ULL, e.ts_us);
	ASSERT_EQ(0, devpm_trace_parse_line(
		"kworker/0:1-34 [000] ..... 12.5: rpm_return_int: rpm_idle.isra.0+0x136/0x2f0:1-1:1.0 ret=-13",
		&e));
	EXPECT_STREQ("rpm_idle.isra.0", e.func);
	EXPECT_STREQ("1-1:1.0", e.dev);	/* colons in the device name */
	EXPECT_EQ(-13, e.ret);
	EXPECT_EQ(12500000ULL, e.ts_us);
	ASSERT_EQ(0, devpm_trace_parse_line(line_status, &e));
	EXPECT_EQ(DEVPM_EV_RPM_STATUS, e.type);
	EXPECT_STREQ("0000:00:00.0", e.dev);
	EXPECT_STREQ("suspended", e.status);
}

TEST(parse_layout_variants)
{
	struct devpm_event e;

	/* No irq-info column (options/irq-info off). */
	ASSERT_EQ(0, devpm_trace_parse_line(
		"  sh-99     [001]   100.000200: rpm_usage: 2:0:0:0 flags-0 cnt-1  dep-0  auto-1 p-0 irq-0 child-0",
		&e));
	EXPECT_EQ(DEVPM_EV_RPM_USAGE, e.type);
	EXPECT_EQ(100000200ULL, e.ts_us);
	EXPECT_STREQ("2:0:0:0", e.dev);
	/* A comm with spaces and brackets; nanosecond timestamps. */
	ASSERT_EQ(0, devpm_trace_parse_line(
		"  Web [x] Content-4242 [003] d..1. 7.123456789: rpm_suspend: usb1 flags-c cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
		&e));
	EXPECT_EQ(7123456ULL, e.ts_us);
	EXPECT_STREQ("usb1", e.dev);
	/* Another subsystem's event: kept whole in raw. */
	ASSERT_EQ(0, devpm_trace_parse_line(
		"  kworker/u4:1-50 [000] ..... 3.000000: device_pm_callback_start: sd 0:0:0:0, parent: target0:0:0, bus [suspend]",
		&e));
	EXPECT_EQ(DEVPM_EV_OTHER, e.type);
	EXPECT_STREQ("device_pm_callback_start", e.event);
	EXPECT_STREQ("sd 0:0:0:0, parent: target0:0:0, bus [suspend]", e.raw);
}

TEST(parse_malformed_lines)
{
	static const char *const bad[] = {
		"",
		"# tracer: nop",
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
		"bash-1 [001] d..1. rpm_idle: x flags-0 cnt-0 dep-0 auto-0 p-0 irq-0 child-0",
		"bash-1 [001] d..1. 12: rpm_idle: x flags-0 cnt-0 dep-0 auto-0 p-0 irq-0 child-0",
		"bash-1 [001] d..1. 12.5: rpm_idle: flags-0 cnt-0 dep-0 auto-0 p-0 irq-0 child-0",
		"bash-1 [001] d..1. 12.5: rpm_idle: x flags-0 cnt-0",
		"bash-1 [001] d..1. 12.5: rpm_return_int: rpm_suspend+0x1/0x2 ret=0",
		"bash-1 [001] d..1. 12.5: rpm_return_int: :x ret=0",
		"bash-1 [001] d..1. 12.5: rpm_status: x",
		"bash-1 [001] d..1. 12.5: no event here",
		"bash-1 [abc] d..1. 12.5: rpm_idle: x flags-0 cnt-0 dep-0 auto-0 p-0 irq-0 child-0",
		"CPU:1 [LOST 5 EVENTS]",
	};
	struct devpm_event e;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-EINVAL, devpm_trace_parse_line(bad[i], &e)) {
			TH_LOG("accepted: '%s'", bad[i]);
		}
}

/* Every captured line parses, in time order, with a device name. */
TEST(captured_fixture_lines)
{
	char dir[PATH_MAX], p[PATH_MAX * 2], line[1024];
	struct devpm_event e;
	struct dirent *de;
	int files = 0, lines = 0, events[DEVPM_EV_OTHER + 1] = { 0 };
	uint64_t last;
	DIR *dp;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/trace", fixtures_dir());
	dp = opendir(dir);
	ASSERT_NE(NULL, dp);
	while ((de = readdir(dp))) {
		if (!strstr(de->d_name, ".txt"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		f = fopen(p, "r");
		ASSERT_NE(NULL, f);
		files++;
		last = 0;
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0] == '#' || !line[0])
				continue;
			lines++;
			ASSERT_EQ(0, devpm_trace_parse_line(line, &e)) {
				TH_LOG("%s: '%s'", de->d_name, line);
			}
			EXPECT_NE(DEVPM_EV_OTHER, e.type);
			EXPECT_NE(0, e.dev[0]);
			EXPECT_LE(last, e.ts_us);
			last = e.ts_us;
			events[e.type]++;
		}
		fclose(f);
	}
	closedir(dp);
	EXPECT_LE(1, files);
	EXPECT_LE(20, lines);
	EXPECT_LT(0, events[DEVPM_EV_RPM_SUSPEND]);
	EXPECT_LT(0, events[DEVPM_EV_RPM_RESUME]);
	EXPECT_LT(0, events[DEVPM_EV_RPM_RETURN]);
}

TEST(no_trace_under_a_sysfs_root)
{
	char *root = tree_new();

	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	EXPECT_EQ(NULL, devpm_trace_start(NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "recorded sysfs root"));
	EXPECT_EQ(-EINVAL, devpm_trace_poll(NULL, 0));
	tree_rm(root);
}

TEST(now_is_monotonic_us)
{
	uint64_t a = devpm_now_us(), b;
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
	b = devpm_now_us();
	EXPECT_LE(a + 2000, b);
	EXPECT_GT(a + 1000000, b);
}

/* Parent bridge name of the first PCI device, "" if none. */
static void pci_parent(char *name, size_t len, char *cfg, size_t clen)
{
	struct devpm_dev *l;
	size_t n;

	name[0] = '\0';
	if (devpm_dev_list("pci", &l, &n) || !n)
		return;
	if (l[0].parent[0])
		snprintf(name, len, "%s", strrchr(l[0].parent, '/') + 1);
	snprintf(cfg, clen, "%s/config", l[0].path);
	free(l);
}

static int count_for(struct devpm_trace *t, const char *dev,
		     uint64_t from, uint64_t to)
{
	const struct devpm_event *ev;
	size_t n, i;
	int c = 0;

	ev = devpm_trace_events(t, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(ev[i].dev, dev) && ev[i].ts_us >= from &&
		    ev[i].ts_us <= to)
			c++;
	return c;
}

TEST(live_instance_sees_config_read)
{
	static const char *const other[] = { "devpm-no-such-device", NULL };
	const char *devs[2] = { NULL, NULL };
	char parent[128], cfg[DEVPM_PATH_MAX], buf[4096], inst[PATH_MAX];
	struct devpm_trace *t, *u;
	const char *tfs;
	uint64_t t0, t1;
	struct stat st;
	int i;

	if (geteuid())
		SKIP(return, "needs root (tracefs instance)");
	tfs = devpm_tracefs();
	if (!tfs[0])
		SKIP(return, "no tracefs: %s", devpm_error());
	pci_parent(parent, sizeof(parent), cfg, sizeof(cfg));
	if (!parent[0])
		SKIP(return, "no PCI device with a parent to trace");
	devs[0] = parent;

	t = devpm_trace_start(devs);
	ASSERT_NE(NULL, t) {
		TH_LOG("%s", devpm_error());
	}
	u = devpm_trace_start(other);
	ASSERT_NE(NULL, u);
	snprintf(inst, sizeof(inst), "%s/instances/devpm-%d-0", tfs,
		 (int)getpid());
	EXPECT_EQ(0, stat(inst, &st));
	t0 = devpm_now_us();
	/* pci_config_pm_runtime_get() resumes the parent: rpm_resume. */
	devpm_read_str(cfg, buf, sizeof(buf));
	t1 = devpm_now_us();
	for (i = 0; i < 20 && !count_for(t, parent, t0, t1); i++)
		devpm_trace_poll(t, 50);
	EXPECT_LT(0, count_for(t, parent, t0, t1)) {
		TH_LOG("no event for %s between %llu and %llu us", parent,
		       (unsigned long long)t0, (unsigned long long)t1);
	}
	/* Negative control: the filter keeps the other instance empty. */
	devpm_trace_poll(u, 100);
	EXPECT_EQ(0, count_for(u, parent, 0, UINT64_MAX));
	/* ... until the device is added to its filter. */
	ASSERT_EQ(0, devpm_trace_add_dev(u, parent)) {
		TH_LOG("%s", devpm_error());
	}
	devpm_read_str(cfg, buf, sizeof(buf));
	for (i = 0; i < 20 && !count_for(u, parent, 0, UINT64_MAX); i++)
		devpm_trace_poll(u, 50);
	EXPECT_LT(0, count_for(u, parent, 0, UINT64_MAX));
	/* Extra events: bad names are refused, absent ones said absent. */
	EXPECT_EQ(-EINVAL, devpm_trace_add_event(u, "rpm_suspend", NULL));
	EXPECT_EQ(-EINVAL, devpm_trace_add_event(u, "rpm:", NULL));
	EXPECT_EQ(-EINVAL, devpm_trace_add_event(u, "../rpm:x", NULL));
	EXPECT_EQ(-ENOENT, devpm_trace_add_event(u, "rpm:devpm_none", NULL));
	EXPECT_EQ(0, devpm_trace_add_event(u, "power:suspend_resume", NULL)) {
		TH_LOG("%s", devpm_error());
	}
	devpm_trace_clear(t);
	EXPECT_EQ(0, count_for(t, parent, 0, UINT64_MAX));
	devpm_trace_stop(u);
	devpm_trace_stop(t);
	EXPECT_NE(0, stat(inst, &st));
}

TEST(cleanup_stale_instances)
{
	char dead[PATH_MAX], live[PATH_MAX];
	const char *tfs;
	struct stat st;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root (tracefs instance)");
	tfs = devpm_tracefs();
	if (!tfs[0])
		SKIP(return, "no tracefs: %s", devpm_error());
	/* A pid that is certainly dead: a child we reaped. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	snprintf(dead, sizeof(dead), "%s/instances/devpm-%d-0", tfs, pid);
	snprintf(live, sizeof(live), "%s/instances/devpm-%d-9", tfs,
		 (int)getpid());
	ASSERT_EQ(0, mkdir(dead, 0700));
	ASSERT_EQ(0, mkdir(live, 0700));
	devpm_trace_cleanup_stale();
	EXPECT_NE(0, stat(dead, &st));
	/* Negative control: a live process's instance stays. */
	EXPECT_EQ(0, stat(live, &st));
	rmdir(live);
	rmdir(dead);
}

/* The filter file of instance dir's system/event, first line. */
static void filter_of(const char *dir, const char *ev, char *buf, size_t len)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/events/%s/filter", dir, ev);
	if (devpm_read_file(p, buf, len) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * A case (child of the owner): start, check, stop.  Returns a bit per
 * failed check; filtered says which kind of trace the case takes.
 */
static int pool_case(const char *dir, bool filtered)
{
	static const char *const devs[] = { "devpm-no-such-device", NULL };
	struct devpm_trace *t = devpm_trace_start(filtered ? devs : NULL);
	char f[256];
	struct stat st;
	int bad = 0;

	if (!t)
		return 1;
	if (stat(dir, &st))
		bad |= 2;	/* not the pool's instance */
	filter_of(dir, "rpm/rpm_suspend", f, sizeof(f));
	if (filtered != !strcmp(f, "name == \"devpm-no-such-device\""))
		bad |= 4;
	if (devpm_trace_add_event(t, "power:suspend_resume",
				  filtered ? "val == 1" : NULL) < 0)
		bad |= 8;
	filter_of(dir, "power/suspend_resume", f, sizeof(f));
	/* The last user's filter must not stay on the reused instance. */
	if (filtered != !strcmp(f, "val == 1"))
		bad |= 16;
	devpm_trace_stop(t);
	if (stat(dir, &st))
		bad |= 32;	/* a pooled instance outlives its stop */
	return bad;
}

/* A case killed before its stop: its extra event stays on. */
static int pool_dies(const char *dir)
{
	struct devpm_trace *t = devpm_trace_start(NULL);
	char f[64];

	(void)dir;
	if (!t || devpm_trace_add_event(t, "power:suspend_resume",
					"val == 1") < 0)
		return 1;
	filter_of(dir, "power/suspend_resume", f, sizeof(f));
	return strcmp(f, "val == 1") ? 2 : 0;	/* no stop */
}

/* The next one gets the instance reset: nothing on but its own. */
static int pool_after_death(const char *dir)
{
	struct devpm_trace *t = devpm_trace_start(NULL);
	char p[PATH_MAX], v[16];
	int bad = 0;

	if (!t)
		return 1;
	snprintf(p, sizeof(p), "%s/events/power/suspend_resume/enable", dir);
	if (devpm_read_file(p, v, sizeof(v)) < 0 || v[0] != '0')
		bad |= 2;
	snprintf(p, sizeof(p), "%s/events/rpm/rpm_suspend/enable", dir);
	if (devpm_read_file(p, v, sizeof(v)) < 0 || v[0] != '1')
		bad |= 4;
	devpm_trace_stop(t);
	return bad;
}

/*
 * A pool owner, as a program's main process: runs n cases, each a child
 * exiting with step(dir, k), dir its instance.  Returns 0, 1 + the first
 * case that failed (its checks' bits on stderr), or -1; *pid the owner's.
 */
static int pool_owner_run(int (*step)(const char *dir, int k), int n,
			  pid_t *pid)
{
	const char *tfs = devpm_tracefs();
	char dir[PATH_MAX];
	int status, k;
	pid_t owner = fork();

	if (owner < 0)
		return -1;
	if (!owner) {
		devpm_trace_pool_begin();
		snprintf(dir, sizeof(dir), "%s/instances/devpm-%d-p0", tfs,
			 (int)getpid());
		for (k = 0; k < n; k++) {
			pid_t c = fork();

			if (!c)
				_exit(step(dir, k));
			if (waitpid(c, &status, 0) == c && WIFEXITED(status) &&
			    !WEXITSTATUS(status))
				continue;
			fprintf(stderr, "pool case %d: failed checks %#x\n", k,
				WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			exit(1 + k);
		}
		exit(0);	/* its atexit removes the pool */
	}
	*pid = owner;
	if (waitpid(owner, &status, 0) != owner || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Filtered, unfiltered (old filters gone), filtered again; then a case
 * that dies with an extra event on, and one that must find it off.
 */
static int kept_step(const char *dir, int k)
{
	if (k == 3)
		return pool_dies(dir);
	if (k == 4)
		return pool_after_death(dir);
	return pool_case(dir, k != 1);
}

TEST(pool_instance_kept_across_cases)
{
	char dir[PATH_MAX];
	const char *tfs;
	struct stat st;
	pid_t owner;

	if (geteuid())
		SKIP(return, "needs root (tracefs instance)");
	tfs = devpm_tracefs();
	if (!tfs[0])
		SKIP(return, "no tracefs: %s", devpm_error());
	EXPECT_EQ(0, pool_owner_run(kept_step, 5, &owner));
	snprintf(dir, sizeof(dir), "%s/instances/devpm-%d-p0", tfs,
		 (int)owner);
	EXPECT_NE(0, stat(dir, &st)) {
		TH_LOG("%s left after its owner exited", dir);
		rmdir(dir);
	}
}

/*
 * A case of a pooled instance filtered on devs: the kernel filter it
 * leaves on rpm_suspend must be want; drops_x: it is wider, and the
 * trace itself drops devpm-x's rpm events.  A bit per failed check.
 */
static int filter_case(const char *dir, const char *const *devs,
		       const char *want, bool drops_x)
{
	struct devpm_trace *t = devpm_trace_start(devs);
	struct devpm_event e = { .type = DEVPM_EV_RPM_SUSPEND };
	char f[256];
	int bad = 0;

	if (!t)
		return 1;
	filter_of(dir, "rpm/rpm_suspend", f, sizeof(f));
	if (strcmp(f, want)) {
		fprintf(stderr, "# filter '%s', want '%s'\n", f, want);
		bad |= 2;
	}
	snprintf(e.event, sizeof(e.event), "rpm_suspend");
	snprintf(e.dev, sizeof(e.dev), "%s", devs[0]);
	if (!devpm_trace_keeps(t, &e))
		bad |= 4;
	snprintf(e.dev, sizeof(e.dev), "devpm-x");
	if (drops_x && devpm_trace_keeps(t, &e))
		bad |= 8;	/* another device's, let through */
	snprintf(e.event, sizeof(e.event), "suspend_resume");
	e.type = DEVPM_EV_OTHER;
	if (!devpm_trace_keeps(t, &e))
		bad |= 16;	/* not an rpm event: not filtered */
	devpm_trace_stop(t);
	return bad;
}

/*
 * Rewriting a filter waits for an RCU grace period (tens of ms under
 * TCG): a reused instance whose filter names every device of the next
 * case keeps it, and the trace drops the others' events itself.  A name
 * that only starts like one of the filter's does not count.
 */
/* {x, y}, then {y}: the first filter stays; {xy}: its own. */
static int filter_step(const char *dir, int k)
{
	static const char *const xy[] = { "devpm-x", "devpm-y", NULL };
	static const char *const y[] = { "devpm-y", NULL };
	static const char *const xy1[] = { "devpm-xy", NULL };
	static const char *const wide =
		"name == \"devpm-x\" || name == \"devpm-y\"";

	if (k == 0)
		return filter_case(dir, xy, wide, false);
	if (k == 1)
		return filter_case(dir, y, wide, true);
	return filter_case(dir, xy1, "name == \"devpm-xy\"", false);
}

TEST(pool_keeps_a_wider_filter)
{
	pid_t owner;

	if (geteuid())
		SKIP(return, "needs root (tracefs instance)");
	if (!devpm_tracefs()[0])
		SKIP(return, "no tracefs: %s", devpm_error());
	EXPECT_EQ(0, pool_owner_run(filter_step, 3, &owner));
}

static bool event_on(const char *dir, const char *ev)
{
	char p[PATH_MAX], v[16];

	snprintf(p, sizeof(p), "%s/events/%s/enable", dir, ev);
	return devpm_read_file(p, v, sizeof(v)) >= 0 && v[0] == '1';
}

/* A program of the runner: reads the kept instance, changes nothing. */
static int kept_program(const char *tfs, const char *dir)
{
	static const char *const events[] = { "rpm:rpm_resume", NULL };
	struct devpm_trace *a;
	int bad = 0;

	(void)tfs;
	devpm_trace_pool_begin();
	a = devpm_trace_attach(DEVPM_TRACE_RPM_KEPT);
	if (!a)
		return 1;
	if (devpm_trace_keep(DEVPM_TRACE_RPM_KEPT, events))
		bad |= 2;	/* only the runner keeps */
	if (devpm_trace_attach("../x") || devpm_trace_attach("none") == a)
		bad |= 4;
	devpm_trace_stop(a);
	if (!event_on(dir, "rpm/rpm_resume"))
		bad |= 8;	/* the reader turned it off */
	return bad;
}

/* An instance of this process's own (devpm-<pid>-...), not the runner's. */
static bool own_instance(const char *tfs)
{
	char dir[PATH_MAX], pre[32];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/instances", tfs);
	snprintf(pre, sizeof(pre), "devpm-%d-", (int)getpid());
	d = opendir(dir);
	while (d && (e = readdir(d)))
		found |= !strncmp(e->d_name, pre, strlen(pre));
	if (d)
		closedir(d);
	return found;
}

/* A line in the instance's buffer, as an event (tracing_mark_write). */
static int mark(const char *dir, const char *text)
{
	char p[PATH_MAX + 16];
	int fd, r;

	snprintf(p, sizeof(p), "%s/trace_marker", dir);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return r;
}

/* The events t has now are exactly the marks want ("m1 m2"). */
static bool has_marks(struct devpm_trace *t, const char *want)
{
	const struct devpm_event *ev;
	char got[64] = "";
	size_t n, i, o = 0;

	ev = devpm_trace_events(t, &n);
	for (i = 0; i < n && o < sizeof(got); i++)
		o += snprintf(got + o, sizeof(got) - o, "%s%s", i ? " " : "",
			      ev[i].raw);
	return !strcmp(got, want);
}

/*
 * A program of the runner: its error watch and a second reader are views
 * of one reader of the runner's instance; each gets every event until it
 * clears them; a stop leaves the instance on.
 */
static int views_program(const char *tfs, const char *dir)
{
	char p[PATH_MAX + 16], on[8];
	struct devpm_trace *w, *f;
	int bad = 0;

	devpm_trace_pool_begin();
	w = devpm_trace_start_rpm_errors();
	f = devpm_trace_attach(DEVPM_TRACE_RPM_KEPT);
	if (!w || !f)
		return 1;
	if (own_instance(tfs))
		bad |= 2;	/* made its own beside the runner's */
	if (mark(dir, "m1") || devpm_trace_poll(f, 1000) != 1 ||
	    !has_marks(f, "m1"))
		return bad | 4;
	devpm_trace_clear(f);
	/* f read the pipe: m1 is still new to w, and not gone with f's. */
	if (devpm_trace_poll(w, 0) != 1 || !has_marks(w, "m1"))
		bad |= 8;
	if (mark(dir, "m2") || devpm_trace_poll(w, 1000) != 1 ||
	    !has_marks(w, "m1 m2") || devpm_trace_poll(f, 0) != 1 ||
	    !has_marks(f, "m2"))
		bad |= 16;
	devpm_trace_clear(w);
	devpm_trace_clear(f);
	devpm_trace_stop(w);
	if (mark(dir, "m3") || devpm_trace_poll(f, 1000) != 1 ||
	    !has_marks(f, "m3"))
		bad |= 32;	/* w's stop took the reader */
	devpm_trace_stop(f);
	snprintf(p, sizeof(p), "%s/tracing_on", dir);
	if (!event_on(dir, "rpm/rpm_return_int") ||
	    devpm_read_file(p, on, sizeof(on)) < 0 || on[0] != '1')
		bad |= 64;	/* a reader turned it off */
	return bad;
}

/* Run fn as a program of this runner: 0, or 1 with its failed checks said. */
static int program(int (*fn)(const char *tfs, const char *dir),
		   const char *tfs, const char *dir, const char *what)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(fn(tfs, dir));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	if (WEXITSTATUS(status))
		fprintf(stderr, "# %s: checks %#x failed\n", what,
			WEXITSTATUS(status));
	return !!WEXITSTATUS(status);
}

/*
 * The runner's kept instance: on for its programs (the verdict's error
 * watch and the floor's windows read it), gone at its end.
 */
TEST(runner_keeps_an_instance_for_its_programs)
{
	static const char *const events[] = {
		"rpm:rpm_resume", "rpm:rpm_return_int", "devpm:devpm_none",
		NULL
	};
	char dir[PATH_MAX];
	const char *tfs;
	struct devpm_trace *t;
	struct stat st;
	int status, bad = 0;
	pid_t runner;

	if (geteuid())
		SKIP(return, "needs root (tracefs instance)");
	tfs = devpm_tracefs();
	if (!tfs[0])
		SKIP(return, "no tracefs: %s", devpm_error());
	runner = fork();
	ASSERT_LE(0, runner);
	if (!runner) {
		snprintf(dir, sizeof(dir), "%s/instances/devpm-%d-k%s", tfs,
			 (int)getpid(), DEVPM_TRACE_RPM_KEPT);
		/* Not the runner's pool yet: refused. */
		if (devpm_trace_keep(DEVPM_TRACE_RPM_KEPT, events))
			_exit(100);
		devpm_trace_pool_share();
		t = devpm_trace_keep(DEVPM_TRACE_RPM_KEPT, events);
		if (!t || stat(dir, &st) || !event_on(dir, "rpm/rpm_resume"))
			_exit(101);
		/* The runner itself reads no kept instance. */
		if (devpm_trace_attach(DEVPM_TRACE_RPM_KEPT))
			_exit(102);
		bad |= program(kept_program, tfs, dir, "reader");
		bad |= program(views_program, tfs, dir, "views") << 1;
		devpm_trace_stop(t);
		devpm_trace_pool_end();
		if (!stat(dir, &st))
			bad |= 4;	/* left behind */
		_exit(bad);
	}
	ASSERT_EQ(runner, waitpid(runner, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* 1: a reader, 2: the views (their checks on stderr), 4: left */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
