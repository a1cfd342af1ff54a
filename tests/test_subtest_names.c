// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_subtest_names.c - per-device result lines (lib/judge/subtest.c) keep stable
 * names: a measured value or a reason never follows the device's name
 * (only a SKIP directive does), and the runner reads the message from the
 * "# " line before the result and writes it back the same way.
 */
#include "judge/subtest.h"
#include "kselftest_harness.h"
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

TEST_HARNESS_MAIN
