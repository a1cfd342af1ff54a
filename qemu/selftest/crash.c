// SPDX-License-Identifier: GPL-2.0-only
/*
 * crash.c - crashes the guest on purpose (sysrq c) so that `make
 * qemu-check` can check the host's watchdog: the run must end within a
 * bound, this case FAIL naming the panic, the earlier programs' results
 * kept.  It refuses to run anywhere but the crash-test image.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/test.h"
#include "core/host.h"

static const struct devpm_test_info info = {
	.suite = "selftest",
	.timeout_s = 30,
	.needs = { .root = true },
};

TEST(sysrq_crash)
{
	const char *on = getenv("DEVPM_QEMU_CRASHTEST");

	if (!on || strcmp(on, "1") || !devpm_host_available())
		SKIP(return, "only in devpm's QEMU crash-test image (DEVPM_QEMU_CRASHTEST=1)");
	devpm_note("crashing the guest on purpose: echo c > /proc/sysrq-trigger");
	sync();
	ASSERT_EQ(0, devpm_write_str("/proc/sysrq-trigger", "c"))
		TH_LOG("%s", devpm_error());
	/* Not reached: the panic ends the guest. */
	sleep(20);
	ASSERT_TRUE(false) TH_LOG("the guest survived sysrq c for 20 s");
}

DEVPM_TEST_MAIN(info)
