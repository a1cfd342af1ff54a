// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_subtest_names.c - per-device result lines (lib/judge/subtest.c) keep stable
 * names: a measured value or a reason never follows the device's name
 * (only a SKIP directive does), and the runner reads the message from the
 * "# " line before the result and writes it back the same way.  A device
 * the kernel numbers in probe order (input12) is named by its place
 * ("1-1:1.0/input"): two runs whose keyboards came in the other order
 * share every name, the kernel's name on the "# " line.
 */
#include "judge/subtest.h"
#include "judge/baseline.h"
#include "rpm/device.h"
#include "kselftest_harness.h"
#include "fake_tree.h"
#include "test_runner.h"
#include "output.h"
#include "unit.h"

/* What one case prints with the measured value given. */
static void one_case(char *buf, size_t len, double ms)
{
	char file[] = "/tmp/devpm-unit-report-XXXXXX";
	struct devpm_subtest s;
	int fd = mkstemp(file), saved;

	close(fd);
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "idle_devices_suspend");
	devpm_subtest_pass(&s, "0000:00:1f.2", "suspended %.1f ms after control=auto",
		       ms);
	devpm_subtest_fail(&s, "0000:00:02.0", "still active after %.0f ms", ms);
	devpm_subtest_skip(&s, "0000:00:03.0", "no PM capability");
	devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, buf, len);
	unlink(file);
}

/* The result lines ("ok N ..." / "not ok N ...") of text, one per line. */
static void result_lines(const char *text, char *out, size_t len)
{
	const char *l = text, *nl, *p;

	out[0] = '\0';
	for (; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		p = l + strspn(l, " ");
		if (!strncmp(p, "ok ", 3) || !strncmp(p, "not ok ", 7))
			snprintf(out + strlen(out), len - strlen(out), "%.*s\n",
				 (int)(nl - p), p);
	}
}

TEST(names_carry_no_value)
{
	char a[4096], b[4096], ra[1024], rb[1024];

	one_case(a, sizeof(a), 1.5);
	one_case(b, sizeof(b), 1234.5);
	result_lines(a, ra, sizeof(ra));
	result_lines(b, rb, sizeof(rb));
	/* Two runs that measured different values share every name. */
	EXPECT_STREQ(ra, rb);
	EXPECT_STREQ("ok 1 0000:00:1f.2\nnot ok 2 0000:00:02.0\n"
		     "ok 3 0000:00:03.0 # SKIP no PM capability\n", ra);
	/* The values are on the lines before the results. */
	ASSERT_HAS(a, "    # suspended 1.5 ms after control=auto\n    ok 1 0000:00:1f.2\n");
	ASSERT_HAS(b, "    # still active after 1234 ms\n    not ok 2 0000:00:02.0\n");
}

static const char stream_fmt[] =
	"DEVPM-STREAM 1\n"
	"RUN 20250101-120000 2025-01-01T12:00:00Z 1000000\n"
	"PROG 1000000 pci/idle 30\n"
	"CASE idle_devices_suspend\n"
	"OUT 1000100 TAP version 13\n"
	"OUT 1000200 1..1\n"
	"OUT 1000300 #  RUN           pci.idle_devices_suspend ...\n"
	"%s"
	"OUT 1000900 not ok 1 pci.idle_devices_suspend\n"
	"END 1002000 pci/idle 2 exit:1\n"
	"DONE 1005000 1\n";

TEST(runner_reads_and_writes_the_message_before_the_name)
{
	char out[4096], body[8192], text[16384], *l, *nl, *ktap;
	const struct rn_case *c;
	struct rn_run *r;
	size_t n = 0;

	one_case(out, sizeof(out), 7.25);
	body[0] = '\0';
	for (l = out; (nl = strchr(l, '\n')); l = nl + 1)
		n += snprintf(body + n, sizeof(body) - n, "OUT 10005%02zu %.*s\n",
			      n % 100, (int)(nl - l), l);
	snprintf(text, sizeof(text), stream_fmt, body);
	r = tr_stream(text, true, NULL);
	ASSERT_EQ(1, r->nprogs);
	ASSERT_EQ(1, r->progs[0].ncases);
	c = &r->progs[0].cases[0];
	ASSERT_EQ(3, c->ndevs);
	EXPECT_STREQ("0000:00:1f.2", c->devs[0].name);
	EXPECT_EQ(RN_PASS, c->devs[0].result);
	EXPECT_STREQ("suspended 7.2 ms after control=auto", c->devs[0].reason);
	EXPECT_STREQ("0000:00:02.0", c->devs[1].name);
	EXPECT_EQ(RN_FAIL, c->devs[1].result);
	EXPECT_STREQ("still active after 7 ms", c->devs[1].reason);
	EXPECT_EQ(RN_SKIP, c->devs[2].result);
	EXPECT_STREQ("no PM capability", c->devs[2].reason);
	EXPECT_STREQ("0000:00:02.0: still active after 7 ms", c->reason);

	ktap = rn_out_ktap(r);
	ASSERT_HAS(ktap, "# suspended 7.2 ms after control=auto\n"
		   "            ok 1 0000:00:1f.2\n");
	ASSERT_HAS(ktap, "not ok 2 0000:00:02.0\n");
	ASSERT_HAS(ktap, "ok 3 0000:00:03.0 # SKIP no PM capability\n");
	EXPECT_EQ(NULL, strstr(ktap, "0000:00:1f.2 #"));
	free(ktap);
	rn_run_free(r);
}

/*
 * A device's XFAIL inside a passing case: read as xfail, written back as
 * "# SKIP XFAIL", counted in the device totals; a skip's "# " line (the
 * kernel's name of a renamed device) kept before it.
 */
TEST(device_xfail_is_counted)
{
	static const char body[] =
		"OUT 1000400     # Subtest: suspend_error_rolls_back\n"
		"OUT 1000410     # input12\n"
		"OUT 1000420     ok 1 1-1:1.0/input # SKIP XFAIL prepare: a kernel bug\n"
		"OUT 1000430     # resumed\n"
		"OUT 1000440     ok 2 devpm_mock.2\n"
		"OUT 1000450     1..2\n";
	char text[4096], *ktap, *json;
	struct rn_totals t;
	struct rn_run *r;
	const struct rn_case *c;

	snprintf(text, sizeof(text),
		 "DEVPM-STREAM 1\n"
		 "RUN 20250101-120000 2025-01-01T12:00:00Z 1000000\n"
		 "PROG 1000000 async/errors 30\n"
		 "CASE suspend_error_rolls_back\n"
		 "OUT 1000100 TAP version 13\n"
		 "OUT 1000200 1..1\n"
		 "OUT 1000300 #  RUN           err.suspend_error_rolls_back ...\n"
		 "%s"
		 "OUT 1000900 ok 1 err.suspend_error_rolls_back\n"
		 "END 1002000 async/errors 0 exit:0\n"
		 "DONE 1005000 0\n", body);
	r = tr_stream(text, true, NULL);
	ASSERT_EQ(1, r->nprogs);
	c = &r->progs[0].cases[0];
	ASSERT_EQ(2, c->ndevs);
	EXPECT_EQ(RN_XFAIL, c->devs[0].result);
	EXPECT_STREQ("prepare: a kernel bug", c->devs[0].reason);
	EXPECT_STREQ("input12", c->devs[0].note);
	rn_totals(r, &t);
	EXPECT_EQ(1, t.dev.xfail);
	EXPECT_EQ(1, t.dev.pass);
	ktap = rn_out_ktap(r);
	ASSERT_HAS(ktap, "# input12\n"
		   "            ok 1 1-1:1.0/input # SKIP XFAIL prepare: a kernel bug\n");
	json = rn_out_summary(r);
	ASSERT_HAS(json, "\"device_totals\": {\"pass\": 1, \"fail\": 0, \"skip\": 0, \"xfail\": 1}");
	free(json);
	free(ktap);
	rn_run_free(r);
}

#define USB "/sys/devices/pci0000:00/0000:00:01.0/usb1"
#define HID0 USB "/1-1/1-1:1.0/0003:0627:0001.0001"
#define HID1 USB "/1-3/1-3.1/1-3.1:1.0/0003:0627:0001.0003"

TEST(stable_name_of_a_place)
{
	static const char *const cases[][2] = {
		{ HID0 "/input/input12", "1-1:1.0/input" },
		{ HID0 "/input/input12/input12::numlock",
		  "1-1:1.0/input::numlock" },
		{ HID0 "/hidraw/hidraw0", "1-1:1.0/hidraw" },
		{ HID0 "/input/input12/event3", "1-1:1.0/event" },
		{ "/sys/devices/platform/i8042/serio0/input/input0",
		  "serio0/input" },
		{ "/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/scsi_generic/sg0",
		  "0:0:0:0/sg" },
		{ "/sys/devices/LNXSYSTM:00/LNXPWRBN:00/input/input2",
		  "LNXPWRBN:00/input" },
	};
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf[0] = '\0';
		EXPECT_EQ(1, devpm_dev_stable_name(cases[i][0], buf,
						   sizeof(buf)))
			TH_LOG("%s", cases[i][0]);
		EXPECT_STREQ(cases[i][1], buf);
	}
	/* Named by place already: kept. */
	EXPECT_EQ(0, devpm_dev_stable_name(USB "/1-1", buf, sizeof(buf)));
	EXPECT_EQ(0, devpm_dev_stable_name("/sys/devices/pci0000:00/0000:00:1f.2",
					   buf, sizeof(buf)));
	EXPECT_EQ(12, devpm_dev_probe_number("input12::numlock"));
	EXPECT_EQ(-1, devpm_dev_probe_number("1-1:1.0"));
}

/* One run's lines for two keyboards whose inputs the kernel numbered a, b. */
static void keyboards(struct __test_metadata *_metadata, int a, int b,
		      char *out, size_t len)
{
	char file[] = "/tmp/devpm-unit-names-XXXXXX", jdir[UNIT_PATH_MAX];
	char *root = tree_new(), p0[512], p1[512], n0[16], n1[16];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved;

	close(fd);
	ASSERT_EQ(0, tree_use(root, jdir, sizeof(jdir)));
	snprintf(p0, sizeof(p0), HID0 "/input/input%d", a);
	snprintf(p1, sizeof(p1), HID1 "/input/input%d", b);
	tree_device(root, p0, NULL, NULL, NULL, "unsupported", 0, 0);
	tree_device(root, p1, NULL, NULL, NULL, "unsupported", 0, 0);
	devpm_baseline_reset();
	unsetenv(DEVPM_BASELINE_ENV);
	ASSERT_NE(NULL, devpm_baseline()) TH_LOG("%s", devpm_error());
	snprintf(n0, sizeof(n0), "input%d", a);
	snprintf(n1, sizeof(n1), "input%d", b);
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "real_device_timing");
	devpm_subtest_pass(&s, n0, "resumed");
	devpm_subtest_skip(&s, n1, "no callback");
	devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, len);
	unlink(file);
	devpm_baseline_reset();
	tree_unuse(root);
}

/* Found through its class (made after the baseline), ranked in its directory. */
TEST(class_path_and_rank)
{
	char jdir[UNIT_PATH_MAX], path[512], name[128];
	char *root = tree_new();
	int rank = 0, n = 0;

	ASSERT_EQ(0, tree_use(root, jdir, sizeof(jdir)));
	tree_dir(root, HID0 "/input/input15");
	tree_dir(root, HID0 "/input/input17");
	tree_dir(root, HID0 "/input/input17/input17::numlock");
	tree_link(root, "/sys/class/input/input17",
		  "../../devices/pci0000:00/0000:00:01.0/usb1/1-1/1-1:1.0/0003:0627:0001.0001/input/input17");
	tree_link(root, "/sys/class/leds/input17::numlock",
		  "../../devices/pci0000:00/0000:00:01.0/usb1/1-1/1-1:1.0/0003:0627:0001.0001/input/input17/input17::numlock");
	ASSERT_EQ(0, devpm_dev_class_path("input17", path, sizeof(path)));
	EXPECT_STREQ(HID0 "/input/input17", path);
	ASSERT_EQ(1, devpm_dev_stable_name(path, name, sizeof(name)));
	EXPECT_STREQ("1-1:1.0/input", name);
	ASSERT_EQ(0, devpm_dev_probe_rank(path, &rank, &n));
	EXPECT_EQ(2, rank);
	EXPECT_EQ(2, n);
	ASSERT_EQ(0, devpm_dev_class_path("input17::numlock", path,
					  sizeof(path)));
	ASSERT_EQ(0, devpm_dev_probe_rank(path, &rank, &n));
	EXPECT_EQ(1, rank);
	EXPECT_EQ(1, n);
	EXPECT_EQ(-ENOENT, devpm_dev_class_path("input99", path, sizeof(path)));
	tree_unuse(root);
}

TEST(probe_order_does_not_change_names)
{
	char a[4096], b[4096], ra[1024], rb[1024];

	keyboards(_metadata, 12, 14, a, sizeof(a));
	keyboards(_metadata, 14, 12, b, sizeof(b));
	result_lines(a, ra, sizeof(ra));
	result_lines(b, rb, sizeof(rb));
	EXPECT_STREQ(ra, rb);
	EXPECT_STREQ("ok 1 1-1:1.0/input\n"
		     "ok 2 1-3.1:1.0/input # SKIP no callback\n", ra);
	/* The kernel's name is on the "# " line. */
	ASSERT_HAS(a, "    # input12: resumed\n    ok 1 1-1:1.0/input\n");
	ASSERT_HAS(b, "    # input14: resumed\n    ok 1 1-1:1.0/input\n");
	ASSERT_HAS(a, "    # input14\n    ok 2 1-3.1:1.0/input # SKIP");
}

TEST_HARNESS_MAIN
