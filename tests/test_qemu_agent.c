// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_agent.c - the QEMU host agent's pure parts (qemu/agent.h):
 * JSON lookups, guest requests and their QMP commands, console crash
 * lines, stream records, the wake state machine and the summary table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "agent.h"
#include "unit.h"

#define MS 1000ULL

TEST(json_lookups)
{
	const char *j = "{\"return\": {\"status\": \"sus\\\"p\", \"running\": false,"
			" \"n\": -12}, \"id\": \"status\"}";
	char s[32];
	bool b = true;
	long n = 0;

	ASSERT_EQ(0, json_str(j, "return.status", s, sizeof(s)));
	ASSERT_STREQ("sus\"p", s);
	ASSERT_EQ(0, json_bool(j, "return.running", &b));
	ASSERT_FALSE(b);
	ASSERT_EQ(0, json_int(j, "return.n", &n));
	ASSERT_EQ(-12, n);
	ASSERT_TRUE(json_has(j, "return"));
	/* A string value equal to a key name is not that key. */
	ASSERT_EQ(0, json_str("{\"a\": \"id\", \"id\": \"x\"}", "id", s,
			      sizeof(s)));
	ASSERT_STREQ("x", s);
	ASSERT_EQ(-ENOENT, json_str(j, "missing", s, sizeof(s)));
	ASSERT_EQ(-EINVAL, json_str(j, "return.running", s, sizeof(s)));
	ASSERT_EQ(-EINVAL, json_bool(j, "return.status", &b));
	/* Truncated to the buffer, still terminated. */
	ASSERT_EQ(0, json_str("{\"k\": \"abcdef\"}", "k", s, 4));
	ASSERT_STREQ("abc", s);
}

TEST(json_lookups_respect_nesting)
{
	/*
	 * The old strstr scan found "status" inside "return" when asked for
	 * the top level, and a key inside a string value; the parser does
	 * not.  The nested lookup is the negative control.
	 */
	const char *j = "{\"return\": {\"status\": \"running\"},"
			" \"note\": \"\\\"status\\\": \\\"fake\\\"\"}";
	char s[32];

	EXPECT_EQ(-ENOENT, json_str(j, "status", s, sizeof(s)));
	EXPECT_FALSE(json_has(j, "status"));
	ASSERT_EQ(0, json_str(j, "return.status", s, sizeof(s)));
	EXPECT_STREQ("running", s);
	/* Not JSON at all: no member, however it looks. */
	EXPECT_EQ(-EINVAL, json_str("{\"event\": \"X\"", "event", s,
				    sizeof(s)));
	EXPECT_FALSE(json_has("\"event\": 1", "event"));
}

TEST(json_key_without_colon_at_end)
{
	/*
	 * Issue #12 finding 6 (fuzzer input 6b 00 22 6b 22): key "k", text
	 * "\"k\"".  The scan stepped over the NUL after a matched key
	 * with no ':' (ASan: heap-buffer-overflow).  The copy on the heap,
	 * exactly sized, makes ASan see any read past its end.
	 */
	char *text = strdup("\"k\""), s[8];
	bool b;
	long n;

	ASSERT_NE(NULL, text);
	EXPECT_FALSE(json_has(text, "k"));
	EXPECT_NE(0, json_str(text, "k", s, sizeof(s)));
	EXPECT_NE(0, json_bool(text, "k", &b));
	EXPECT_NE(0, json_int(text, "k", &n));
	free(text);
	/* Control: the same key with its colon is found. */
	EXPECT_EQ(0, json_int("{\"k\": 5}", "k", &n));
	EXPECT_EQ(5, n);
}

TEST(request_parse_good)
{
	struct request r;
	char why[256];

	ASSERT_EQ(0, request_parse("ping", &r, why, sizeof(why)));
	ASSERT_EQ(REQ_PING, r.kind);

	ASSERT_EQ(0, request_parse("key --dev kbd0 a shift+b ret", &r, why,
				   sizeof(why)));
	ASSERT_EQ(REQ_KEY, r.kind);
	ASSERT_STREQ("kbd0", r.dev);
	ASSERT_EQ(3, r.nkeys);
	ASSERT_STREQ("shift+b", r.keys[1]);

	ASSERT_EQ(0, request_parse("key a", &r, why, sizeof(why)));
	ASSERT_STREQ("", r.dev);

	ASSERT_EQ(0, request_parse("link n0 off", &r, why, sizeof(why)));
	ASSERT_EQ(REQ_LINK, r.kind);
	ASSERT_STREQ("n0", r.netdev);
	ASSERT_FALSE(r.up);

	ASSERT_EQ(0, request_parse("wake", &r, why, sizeof(why)));
	ASSERT_EQ(REQ_WAKE, r.kind);
	ASSERT_EQ(WAKE_AUTO, r.wake);
	ASSERT_EQ(30000, r.timeout_ms);
	ASSERT_EQ(0, request_parse("wake freeze 2500", &r, why, sizeof(why)));
	ASSERT_EQ(WAKE_FREEZE, r.wake);
	ASSERT_EQ(2500, r.timeout_ms);
	ASSERT_EQ(0, request_parse("wake mem", &r, why, sizeof(why)));
	ASSERT_EQ(WAKE_MEM, r.wake);
	ASSERT_FALSE(r.wake_key);
	/* A key pressed when the armed sleep starts. */
	ASSERT_EQ(0, request_parse("wake freeze 15000 key --dev kbd0 a", &r,
				   why, sizeof(why)));
	ASSERT_EQ(WAKE_FREEZE, r.wake);
	ASSERT_EQ(15000, r.timeout_ms);
	ASSERT_TRUE(r.wake_key);
	ASSERT_STREQ("kbd0", r.dev);
	ASSERT_EQ(1, r.nkeys);
	ASSERT_STREQ("a", r.keys[0]);
	ASSERT_EQ(0, request_parse("wake freeze 15000 delay 1500 key a", &r,
				   why, sizeof(why)));
	ASSERT_EQ(1500, r.delay_ms);
	ASSERT_EQ(15000, r.timeout_ms);
	ASSERT_TRUE(r.wake_key);
	ASSERT_EQ(0, request_parse("wake key b", &r, why, sizeof(why)));
	ASSERT_EQ(WAKE_AUTO, r.wake);
	ASSERT_TRUE(r.wake_key);
	ASSERT_STREQ("", r.dev);
}

TEST(request_parse_bad)
{
	static const char *const bad[] = {
		"", "pong", "ping extra", "key", "key --dev", "key --dev kbd0",
		"key a\"b", "key +a", "key a+", "key a++b",
		"key a+b+c+d+e+f+g+h+i", "key --dev k{ a", "link n0",
		"link n0 maybe", "link n\"0 on", "wake sideways", "wake 5",
		"wake mem 100 200", "wake freeze key", "wake key --dev kbd0",
		"wake mem 100 200 key a", "wake key a\"b", "wake delay",
		"wake delay -1", "wake delay 5 freeze", "wake freeze delay x",
		"key a b c d e f g h i j k l m n o p q",
	};
	struct request r;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		EXPECT_EQ(-EINVAL, request_parse(bad[i], &r, why, sizeof(why)))
			TH_LOG("'%s' accepted", bad[i]);
		EXPECT_EQ(0, strncmp(why, "err ", 4))
			TH_LOG("'%s': reply '%s'", bad[i], why);
	}
}

TEST(request_qmp_commands)
{
	struct request r;
	char why[256], cmd[4096];
	const char *d1, *d2, *u1, *u2;

	ASSERT_EQ(0, request_parse("key shift+a", &r, why, sizeof(why)));
	ASSERT_EQ(0, request_qmp(&r, "disp0", 1, cmd, sizeof(cmd)));
	ASSERT_NE(NULL, strstr(cmd, "\"execute\":\"input-send-event\""));
	ASSERT_NE(NULL, strstr(cmd, "\"device\":\"disp0\",\"head\":1,"));
	/* The chord: shift down, a down, a up, shift up. */
	d1 = strstr(cmd, "\"down\":true,\"key\":{\"type\":\"qcode\",\"data\":\"shift\"");
	d2 = strstr(cmd, "\"down\":true,\"key\":{\"type\":\"qcode\",\"data\":\"a\"");
	u1 = strstr(cmd, "\"down\":false,\"key\":{\"type\":\"qcode\",\"data\":\"a\"");
	u2 = strstr(cmd, "\"down\":false,\"key\":{\"type\":\"qcode\",\"data\":\"shift\"");
	ASSERT_TRUE(d1 && d2 && u1 && u2) TH_LOG("%s", cmd);
	ASSERT_TRUE(d1 < d2 && d2 < u1 && u1 < u2) TH_LOG("%s", cmd);

	/* No console: no device, the default keyboard. */
	ASSERT_EQ(0, request_qmp(&r, "", 0, cmd, sizeof(cmd)));
	ASSERT_EQ(NULL, strstr(cmd, "\"device\""));

	ASSERT_EQ(0, request_parse("link n0 on", &r, why, sizeof(why)));
	ASSERT_EQ(0, request_qmp(&r, NULL, 0, cmd, sizeof(cmd)));
	ASSERT_STREQ("{\"execute\":\"set_link\",\"arguments\":"
		     "{\"name\":\"n0\",\"up\":true}}", cmd);
	/* Too small a buffer is refused, not cut. */
	ASSERT_EQ(-ENOSPC, request_qmp(&r, NULL, 0, cmd, 20));
	ASSERT_EQ(0, request_parse("ping", &r, why, sizeof(why)));
	ASSERT_EQ(-EINVAL, request_qmp(&r, NULL, 0, cmd, sizeof(cmd)));
}

TEST(console_lines)
{
	bool fatal = false;
	int code = -1;

	ASSERT_TRUE(console_crash_line("[   12.345678] Kernel panic - not syncing: sysrq triggered crash",
				       &fatal));
	ASSERT_TRUE(fatal);
	ASSERT_TRUE(console_crash_line("BUG: kernel NULL pointer dereference, address: 0000000000000000",
				       &fatal));
	ASSERT_FALSE(fatal);
	ASSERT_TRUE(console_crash_line("[    3.1] Oops: 0002 [#1] PREEMPT SMP NOPTI",
				       &fatal));
	ASSERT_TRUE(console_crash_line("[ 200.000001] INFO: task devpm:77 blocked for more than 120 seconds.",
				       &fatal));
	/*
	 * Negative controls: a progress line quoting a kernel message, a
	 * WARNING (the runner fails the case for it), plain text.
	 */
	ASSERT_FALSE(console_crash_line("[ 3/12] pci/runtime FAIL kernel: BUG: x",
					&fatal));
	ASSERT_FALSE(console_crash_line("[    1.0] WARNING: CPU: 0 PID: 1 at x",
					&fatal));
	ASSERT_FALSE(console_crash_line("devpm-guest: no Kernel panic here",
					&fatal));

	ASSERT_TRUE(console_kernel_line("[   88.928090] critical medium error"));
	ASSERT_FALSE(console_kernel_line("[ 8/13] scsi/errors ok 1 pass 3.9s"));
	ASSERT_FALSE(console_kernel_line("devpm-guest: kernel up in 4.19 s"));

	ASSERT_EQ(1, console_guest_exit("DEVPM-GUEST-EXIT 1", &code));
	ASSERT_EQ(1, code);
	ASSERT_EQ(0, console_guest_exit("DEVPM-GUEST-EXIT x", &code));
	ASSERT_EQ(0, console_guest_exit("devpm-guest: DEVPM-GUEST-EXIT 0",
					&code));
	ASSERT_EQ(1, code);
}

TEST(stream_records)
{
	struct record rec;

	stream_record("PROG 123456 usb/runtime 45", &rec);
	ASSERT_EQ(REC_PROG, rec.kind);
	ASSERT_STREQ("usb/runtime", rec.prog);
	ASSERT_EQ(45, rec.value);
	stream_record("PROG 123456 usb/runtime", &rec);
	ASSERT_EQ(REC_PROG, rec.kind);
	ASSERT_EQ(60, rec.value);
	stream_record("END 223456 usb/runtime 1200 exit:0", &rec);
	ASSERT_EQ(REC_END, rec.kind);
	ASSERT_STREQ("usb/runtime", rec.prog);
	stream_record("DONE 323456 1", &rec);
	ASSERT_EQ(REC_DONE, rec.kind);
	ASSERT_EQ(1, rec.value);
	/* A program line that looks like a record is not one. */
	stream_record("OUT 123 DONE 0 0", &rec);
	ASSERT_EQ(REC_OTHER, rec.kind);
	stream_record("DONE", &rec);
	ASSERT_EQ(REC_OTHER, rec.kind);
	stream_record("RUN 20260101-000000 2026-01-01T00:00:00Z 5", &rec);
	ASSERT_EQ(REC_OTHER, rec.kind);
}

/* wake ... delay: a cycle that wakes itself is not kicked meanwhile. */
TEST(wake_s2idle_delay)
{
	struct wake w = { 0 };
	uint64_t t = 1000000;

	wake_arm(&w, WAKE_FREEZE, 20000, t);
	w.delay_us = 1500 * MS;
	wake_port(&w, false, t + 100 * MS);		/* devices froze */
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 400 * MS));
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 1700 * MS));
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 1800 * MS));
	/* Negative control: without the delay the kick comes at 200 ms. */
	wake_arm(&w, WAKE_FREEZE, 20000, t);
	wake_port(&w, false, t + 100 * MS);
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 300 * MS));
}

TEST(wake_s2idle)
{
	struct wake w = { 0 };
	uint64_t t = 1000 * MS;

	/* Nothing armed: a freeze seen on the port does nothing. */
	wake_port(&w, false, t);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 5000 * MS));

	wake_arm(&w, WAKE_FREEZE, 20000, t);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 1000 * MS));
	wake_port(&w, false, t + 2000 * MS);		/* devices froze */
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 2100 * MS));
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 2200 * MS));
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 2300 * MS));
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 2400 * MS));
	/* The power button only once the guest must be asleep. */
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 4900 * MS));
	ASSERT_EQ(WAKE_POWER_BUTTON, wake_tick(&w, t + 5000 * MS));
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 5100 * MS));
	wake_port(&w, true, t + 5200 * MS);		/* resumed */
	ASSERT_FALSE(w.armed);
	/* The next cycle freezes: the old arm must not wake it. */
	wake_port(&w, false, t + 6000 * MS);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 6500 * MS));
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 10000 * MS));
}

TEST(wake_s3_and_expiry)
{
	struct wake w = { 0 };
	uint64_t t = 1000 * MS;

	wake_arm(&w, WAKE_MEM, 20000, t);
	wake_port(&w, false, t + 100 * MS);
	/* mem never answers with a console character. */
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 5000 * MS));
	wake_suspended(&w);
	ASSERT_EQ(WAKE_SYSTEM_WAKEUP, wake_tick(&w, t + 5010 * MS));
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 5020 * MS));

	/* Auto: S3 seen before the s2idle settle time: system_wakeup. */
	wake_arm(&w, WAKE_AUTO, 20000, t);
	wake_port(&w, false, t + 100 * MS);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 300 * MS));
	wake_suspended(&w);
	ASSERT_EQ(WAKE_SYSTEM_WAKEUP, wake_tick(&w, t + 400 * MS));

	/* Auto without S3: s2idle after the settle time. */
	wake_arm(&w, WAKE_AUTO, 20000, t);
	wake_port(&w, false, t + 100 * MS);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 600 * MS));
	ASSERT_EQ(WAKE_SERIAL, wake_tick(&w, t + 700 * MS));

	/* A guest that never sleeps: the arm expires once. */
	wake_arm(&w, WAKE_FREEZE, 500, t);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 400 * MS));
	ASSERT_EQ(WAKE_EXPIRED, wake_tick(&w, t + 600 * MS));
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 700 * MS));
	wake_port(&w, false, t + 800 * MS);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 5000 * MS));

	/* A SUSPEND event with nothing armed is left alone. */
	wake_suspended(&w);
	ASSERT_EQ(WAKE_NONE, wake_tick(&w, t + 6000 * MS));
}

static const char summary_json[] =
	"{\n \"totals\": {\"pass\": 9, \"fail\": 9},\n \"cases\": [\n"
	"  {\"suite\": \"usb\", \"program\": \"hid\", \"case\": \"a\", \"result\": \"pass\", \"reason\": \"\",\n"
	"   \"devices\": [{\"name\": \"1-1\", \"result\": \"fail\", \"reason\": \"dev\"}]},\n"
	"  {\"suite\": \"usb\", \"program\": \"hid\", \"case\": \"b\", \"result\": \"fail\", \"reason\": \"1-1: still active [x]\"},\n"
	"  {\"suite\": \"pci\", \"program\": \"rt\", \"case\": \"c\", \"result\": \"skip\", \"reason\": \"no dev\"},\n"
	"  {\"suite\": \"pci\", \"program\": \"rt\", \"case\": \"d\", \"result\": \"xfail\", \"reason\": \"XFAIL x\"},\n"
	"  {\"suite\": \"pci\", \"program\": \"rt\", \"case\": \"e\", \"result\": \"not_run\", \"reason\": \"not run\"}\n"
	" ],\n \"programs\": [{\"suite\": \"usb\", \"program\": \"hid\", \"result\": \"fail\"}]\n}\n";

TEST(summary_table)
{
	char dir[UNIT_PATH_MAX], path[UNIT_PATH_MAX], out[4096];
	FILE *f;
	size_t n;

	ASSERT_EQ(0, unit_mkdtemp(dir, sizeof(dir)));
	ASSERT_EQ(0, unit_put(dir, "summary.json", summary_json));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	f = tmpfile();
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, summary_print(path, f));
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	EXPECT_NE(NULL, strstr(out, "  FAIL usb/hid/b: 1-1: still active [x]\n"))
		TH_LOG("%s", out);
	/* Device results and the programs list are not cases. */
	EXPECT_NE(NULL, strstr(out, "  usb              1     1     0     0       0\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  pci              0     0     1     1       1\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  all              1     1     1     1       1\n"))
		TH_LOG("%s", out);
	/* No summary: an error, not an empty table. */
	EXPECT_EQ(-ENOENT, summary_print("/nonexistent/summary.json", stderr));
	/* Nor a file cut short: the parser refuses it whole. */
	ASSERT_EQ(0, unit_put(dir, "summary.json", "{\"cases\": [{\"suite\": \"a\""));
	EXPECT_EQ(-EINVAL, summary_print(path, stderr));
	unit_rm_rf(dir);
}

TEST_HARNESS_MAIN
