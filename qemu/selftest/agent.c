// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent.c - self-test of the QEMU host agent (qemu/agent.c) from inside the
 * guest: every request kind, each with a request that must be refused,
 * key routing to the right keyboard (and not the other), and an s2idle
 * (and, booted from the bzImage, an S3) cycle woken by the agent.  Only in
 * the image `make qemu-check` boots; SKIPs anywhere without the agent.
 */
#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/test.h"
#include "bus/input/input.h"
#include "core/host.h"

static const struct devpm_test_info info = {
	.suite = "selftest",
	.timeout_s = 60,
	.needs = { .root = true },
};

/*
 * Keyboards of the default profile: kbd0 on xhci port 1, kbd1 behind
 * the hub on port 3.
 */
#define KBD0_USB "/sys/bus/usb/devices/1-1"
#define KBD1_USB "/sys/bus/usb/devices/1-3.1"

FIXTURE(agent) {
	off_t mark;
};

FIXTURE_SETUP(agent)
{
	if (!devpm_host_available())
		SKIP(return, "no host agent (virtio port org.devpm.agent): not devpm's QEMU image");
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(agent)
{
	devpm_case_teardown(self->mark);
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

TEST_F(agent, ping)
{
	char reply[256];

	ASSERT_EQ(0, devpm_host_request("ping", reply, sizeof(reply), 5000))
		TH_LOG("ping: %s", devpm_error());
	ASSERT_STREQ("ok pong", reply);
	/* Negative control: a request the agent does not know. */
	ASSERT_EQ(-EREMOTEIO, devpm_host_request("no-such-request", reply,
						 sizeof(reply), 5000));
	ASSERT_EQ(0, strncmp(reply, "err unknown request", 19))
		TH_LOG("reply '%s'", reply);
}

TEST_F(agent, link)
{
	char reply[256];

	ASSERT_EQ(0, devpm_host_request("link n0 off", reply, sizeof(reply),
					5000)) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_host_request("link n0 on", reply, sizeof(reply),
					5000)) TH_LOG("%s", devpm_error());
	ASSERT_EQ(-EREMOTEIO, devpm_host_request("link nonet off", reply,
						 sizeof(reply), 5000));
	ASSERT_EQ(-EREMOTEIO, devpm_host_request("link n0 sideways", reply,
						 sizeof(reply), 5000));
}

/* The keyboard's evdev node below a USB device; NULL with a TH_LOG. */
static struct devpm_input *open_kbd(const char *usb)
{
	char path[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX];
	struct devpm_input_node ev[4];
	struct devpm_input *in = NULL;
	ssize_t n;
	int i, k;

	if (devpm_real_path(path, sizeof(path), usb) < 0)
		return NULL;
	n = readlink(path, real, sizeof(real) - 1);
	if (n < 0)
		return NULL;
	real[n] = '\0';
	/* ../../../devices/... -> /sys/devices/... */
	snprintf(path, sizeof(path), "/sys/devices/%s",
		 strstr(real, "devices/") + 8);
	k = devpm_input_find(path, ev, 4);
	for (i = 0; i < k && i < 4; i++) {
		if (devpm_input_open(ev[i].name, &in))
			continue;
		if (devpm_input_is_keyboard(in))
			return in;
		devpm_input_close(in);
		in = NULL;
	}
	return NULL;
}

/*
 * The code of the first key event on in within timeout_ms, or 0; reads
 * the press and its release so that nothing is left for the next look.
 */
static int key_seen(struct devpm_input *in, int timeout_ms)
{
	struct devpm_key k[4];
	int n = devpm_input_read_keys(in, k, 4, 2, timeout_ms);

	return n > 0 ? k[0].code : 0;
}

TEST_F(agent, key_routing)
{
	struct devpm_input *k0 = open_kbd(KBD0_USB), *k1 = open_kbd(KBD1_USB);
	char reply[256];

	if (!k0 || !k1)
		SKIP(return, "keyboards kbd0 (usb 1-1) / kbd1 (usb 1-3.1) not found: not the default profile");
	ASSERT_EQ(0, devpm_host_request("key --dev kbd0 a", reply,
					sizeof(reply), 5000))
		TH_LOG("%s", devpm_error());
	EXPECT_EQ(KEY_A, key_seen(k0, 3000)) TH_LOG("kbd0 did not get KEY_A");
	/* Negative control: the other keyboard got nothing. */
	EXPECT_EQ(0, key_seen(k1, 300)) TH_LOG("kbd1 got kbd0's key");

	ASSERT_EQ(0, devpm_host_request("key --dev kbd1 b", reply,
					sizeof(reply), 5000))
		TH_LOG("%s", devpm_error());
	EXPECT_EQ(KEY_B, key_seen(k1, 3000)) TH_LOG("kbd1 did not get KEY_B");
	EXPECT_EQ(0, key_seen(k0, 300)) TH_LOG("kbd0 got kbd1's key");

	EXPECT_EQ(-EREMOTEIO, devpm_host_request("key --dev nokbd a", reply,
						 sizeof(reply), 5000));
	EXPECT_EQ(-EREMOTEIO, devpm_host_request("key not/a/qcode", reply,
						 sizeof(reply), 5000));
	devpm_input_close(k0);
	devpm_input_close(k1);
}

static long suspend_successes(void)
{
	long v = -1;

	devpm_read_long("/sys/power/suspend_stats/success", &v);
	return v;
}

/* Arm a wake, enter state, and check the cycle completed within 10 s. */
static void sleep_cycle(struct __test_metadata *_metadata, const char *arm,
			const char *state, const char *metric)
{
	long before = suspend_successes(), after;
	char reply[256];
	uint64_t t0;
	int r;

	ASSERT_EQ(0, devpm_host_request(arm, reply, sizeof(reply), 5000))
		TH_LOG("%s", devpm_error());
	t0 = mono_us();
	r = devpm_write_str("/sys/power/state", state);
	ASSERT_EQ(0, r) TH_LOG("write %s to /sys/power/state: %s", state,
			       devpm_error());
	after = suspend_successes();
	devpm_metric("-", metric, (mono_us() - t0) / 1000.0);
	/* The guest really slept: the kernel counted a successful cycle. */
	ASSERT_EQ(before + 1, after)
		TH_LOG("suspend_stats/success %ld -> %ld", before, after);
	ASSERT_LT(mono_us() - t0, 10000000ULL)
		TH_LOG("the agent's wake took %llu ms, limit 10000 ms",
		       (unsigned long long)(mono_us() - t0) / 1000);
}

TEST_F(agent, wake_freeze)
{
	if (!devpm_allow_sleep())
		SKIP(return, "needs --allow-sleep");
	/* The agent's character on ttyS0 must be a wakeup event. */
	ASSERT_EQ(0, devpm_knob_write("/sys/class/tty/ttyS0/power/wakeup",
				      "enabled")) TH_LOG("%s", devpm_error());
	sleep_cycle(_metadata, "wake freeze 20000", "freeze", "s2idle_cycle_ms");
}

TEST_F(agent, wake_mem)
{
	if (!devpm_allow_sleep())
		SKIP(return, "needs --allow-sleep");
	ASSERT_EQ(0, devpm_knob_write("/sys/power/mem_sleep", "deep"))
		TH_LOG("%s", devpm_error());
	sleep_cycle(_metadata, "wake mem 20000", "mem", "s3_cycle_ms");
}

DEVPM_TEST_MAIN(info)
