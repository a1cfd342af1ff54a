// SPDX-License-Identifier: GPL-2.0-only
/*
 * hang.c - makes the guest fall silent on purpose so that `make
 * qemu-check` can check the host's hang watchdog: every process but init
 * is stopped (the runner too, so it cannot time this program out), no
 * record or console line comes any more, and the host must end the run
 * within this program's timeout plus its margin, with this case FAIL
 * naming the hang.  Refuses to run anywhere but the hang-test image.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/test.h"
#include "core/host.h"

static const struct devpm_test_info info = {
	.suite = "selftest",
	.timeout_s = 5,
	.needs = { .root = true },
};

TEST(silent_guest)
{
	const char *on = getenv("DEVPM_QEMU_HANGTEST");

	if (!on || strcmp(on, "1") || !devpm_host_available())
		SKIP(return, "only in devpm's QEMU hang-test image (DEVPM_QEMU_HANGTEST=1)");
	devpm_note("stopping every process on purpose: the guest falls silent");
	/* All but init and this process; then wait for the host. */
	kill(-1, SIGSTOP);
	for (;;)
		pause();
}

DEVPM_TEST_MAIN(info)
