// SPDX-License-Identifier: GPL-2.0-only
/*
 * env_hook.c - devpm-env-hook, the environment hook of devpm's QEMU image
 * (lib/harness/environment.h; the runner's side is lib/runner/env_hook.h).
 * /init passes it to `devpm run --env-hook`; on real hardware there is
 * none, and nothing is set aside.
 *
 *	devpm-env-hook window		the runner's window: set aside, print
 *					READY, wait for stdin's end, bring
 *					back, print DONE or FAILED
 *	devpm-env-hook own-devices	a case's: set aside (the case's
 *	devpm-env-hook need-usb		journal puts it back), bring the
 *	devpm-env-hook reset-usb	xHCI back for the case, bind it
 *	devpm-env-hook settle		afresh; wait until what is bound
 *					has its devices back
 *	devpm-env-hook usb-loses-state	a question: N = how many of the
 *					USB host controllers lose their
 *					state at resume (QEMU's xHCI)
 *
 * The drivers to set aside are the profile's (PROFILE_SET_ASIDE, written
 * to /etc/devpm/set-aside by qemu/image.sh; `make qemu SET_ASIDE=none`
 * keeps everything bound).  A case's request prints "CHANGED N", notes,
 * and "ERROR why" with exit 1 on failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "state/journal.h"
#include "lpc_pm.h"
#include "set_aside.h"
#include "xhci.h"

#define CONFIG		"/etc/devpm/set-aside"
#define MAX_DRIVERS	8

static char names[MAX_DRIVERS][32];
static const char *drivers[MAX_DRIVERS + 1];

/* The profile's drivers; none without the file. */
static void read_config(void)
{
	FILE *f = fopen(CONFIG, "re");
	size_t n = 0;

	while (f && n < MAX_DRIVERS && fscanf(f, "%31s", names[n]) == 1)
		drivers[n] = names[n], n++;
	drivers[n] = NULL;
	if (f)
		fclose(f);
}

static bool set_aside_driver(const char *drv)
{
	size_t i;

	for (i = 0; drivers[i]; i++)
		if (!strcmp(drivers[i], drv))
			return true;
	return false;
}

static int fail(const char *what)
{
	printf("ERROR %s: %s\n", what, devpm_error());
	return 1;
}

/* The runner's window, one process from its begin to its end. */
static int window(void)
{
	struct set_aside q;
	char list[1024] = "", why[512];
	size_t i;
	int r;

	if (devpm_journal_attach())
		return printf("FAILED journal: %s\n", devpm_error()), 1;
	/* An S3 cycle before the window took the ACPI PM block: back. */
	r = lpc_pm_restore();
	if (r)
		printf("NOTE %s\n", r > 0 ?
		       "the ICH9 LPC's ACPI PM block written back after QEMU's S3 wake reset it (qemu/guest/lpc_pm.h)" :
		       devpm_error());
	r = set_aside_begin(&q, drivers);
	if (q.kept[0])
		printf("NOTE kept bound: %s\n", q.kept);
	if (r < 0) {
		printf("FAILED %s\n", devpm_error());
		return 1;
	}
	for (i = 0; i < q.n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s (%s)", i ? ", " : "", q.dev[i], q.drv[i]);
	printf("READY %s\n", list);
	fflush(stdout);
	while (getchar() != EOF)
		;
	r = set_aside_end(&q, SET_ASIDE_SETTLE_MS, why, sizeof(why));
	if (r < 0)
		printf("FAILED restore: %s\n", devpm_error());
	else if (r)
		printf("FAILED %s\n", why);
	else
		printf("DONE every controller, usb and scsi device back\n");
	devpm_journal_close();
	return r ? 1 : 0;
}

static int case_request(const char *req)
{
	struct set_aside q;
	char why[512];
	int r;

	if (!strcmp(req, "usb-loses-state")) {
		r = xhci_qemu_count();
		if (r)
			printf("QEMU: its xHCI has no save/restore: the kernel re-initialises it at every resume and resets its devices\n");
		printf("CHANGED %d\n", r);
		return 0;
	}
	if (!strcmp(req, "settle")) {
		r = set_aside_settle(drivers, SET_ASIDE_SETTLE_MS, why,
				     sizeof(why));
		if (r)
			printf("ERROR %s\n", why);
		return r ? 1 : 0;
	}
	/* What it changes is the case's, put back by the case's restore. */
	if (devpm_journal_attach_for_caller())
		return fail("journal");
	if (!strcmp(req, "own-devices")) {
		r = set_aside_begin(&q, drivers);
		if (q.kept[0])
			printf("kept bound: %s\n", q.kept);
		if (r > 0)
			printf("QEMU: %d controller(s) set aside for this case's cycles\n",
			       r);
	} else if (!strcmp(req, "need-usb")) {
		r = set_aside_driver("xhci_hcd") ?
		    xhci_bind_case(SET_ASIDE_SETTLE_MS) : 0;
	} else if (!strcmp(req, "reset-usb")) {
		r = xhci_reset();
	} else {
		printf("ERROR unknown request '%s'\n", req);
		return 2;
	}
	if (r < 0)
		return fail(req);
	printf("CHANGED %d\n", r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s window|own-devices|need-usb|reset-usb|settle|usb-loses-state\n",
			argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_config();
	if (!strcmp(argv[1], "window"))
		return window();
	return case_request(argv[1]);
}
