// SPDX-License-Identifier: GPL-2.0-only
/*
 * devices.c - the QEMU device survey (docs/qemu-devices.md): which of the
 * devices QEMU offers have a driver that runtime-suspends them.  Booted by
 * `make qemu-survey` only (qemu/run.sh --survey, qemu/profiles/survey:
 * the default machine with the candidates added), never in the default
 * run.
 *
 * Once the devices the program's modules brought stop coming (the USB
 * buses they add enumerate for seconds), every device with runtime PM
 * (runtime_status not "unsupported") is allowed to suspend:
 * control=auto, and a negative autosuspend delay (sd's -1) made 100 ms,
 * journaled and put back at the end.  After a wait with back-off (bounded), one "# SURVEY" line per
 * device: bus, driver, for PCI its PM capability and PME from D3hot, the
 * status at baseline and now, for PCI the power_state, and when it is
 * not suspended the diagnosis (lib/rpm/diagnose.h): who holds it.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/test.h"
#include "bus/pci/pci.h"
#include "core/poll.h"
#include "judge/baseline.h"
#include "rpm/diagnose.h"

#define WAIT_MS		5000
#define SETTLE_MS	8000	/* for the devices the modules bring */

static const struct devpm_test_info info = {
	.suite = "survey",
	.timeout_s = 120,
	.needs = {
		.root = true,
		.modules = (const char *const[]){
			"snd_hda_intel", "snd_hda_codec_generic", "ehci_pci",
			"uhci_hcd", "ohci_pci", "cdc_ether", "rndis_host",
			"ftdi_sio", "usb_storage", "snd_intel8x0", "8139cp",
			"i6300esb", NULL
		},
	},
};

FIXTURE(survey) {
	off_t mark;
};

FIXTURE_SETUP(survey)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(survey)
{
	devpm_case_teardown(self->mark);
}

struct all {
	struct devpm_dev *d;
	size_t n;
};

/* The device set no longer grows: two listings in a row the same size. */
static bool settled(void *arg)
{
	size_t *last = arg;
	struct devpm_baseline now = { 0 };
	bool same;

	if (devpm_baseline_take(&now))
		return false;
	same = now.n == last[0] && last[0] == last[1];
	last[1] = last[0];
	last[0] = now.n;
	devpm_baseline_free(&now);
	return same;
}

/* Every device allowed is suspended (or not worth waiting for). */
static bool all_suspended(void *arg)
{
	struct all *a = arg;
	char st[16];
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!devpm_dev_status(&a->d[i], st, sizeof(st)) &&
		    strcmp(st, "suspended") && strcmp(st, "unsupported"))
			return false;
	return true;
}

static void pci_caps(struct devpm_pci *pci, const struct devpm_dev *d,
		     char *buf, size_t len)
{
	struct devpm_pci_info pi;
	char k[DEVPM_PATH_MAX], ps[16] = "?";

	if (!pci || devpm_pci_info(pci, d->name, &pi) < 0) {
		snprintf(buf, len, " pm_cap=?");
		return;
	}
	if (devpm_fmt(k, sizeof(k), "%s/power_state", d->path) >= 0)
		devpm_read_str(k, ps, sizeof(ps));
	snprintf(buf, len, " %04x:%04x pm_cap=%s%s power_state=%s",
		 pi.vendor, pi.device, pi.pm_cap ? "yes" : "no",
		 pi.pm_cap ? (pi.d3hot_pme ? " (PME from D3hot)" :
			      " (no PME from D3hot)") : "", ps);
}

TEST_F(survey, devices)
{
	struct devpm_baseline fresh = { 0 }, *b = &fresh;
	struct devpm_pci *pci = devpm_pci_open();
	struct all a = { 0 };
	struct devpm_diag g;
	char line[512], pc[160];
	size_t i, last[2] = { 0, 1 };

	devpm_poll_until(settled, last, SETTLE_MS);
	ASSERT_EQ(0, devpm_baseline_take(b)) TH_LOG("%s", devpm_error());
	a.d = calloc(b->n + 1, sizeof(*a.d));
	ASSERT_NE(NULL, a.d);
	for (i = 0; i < b->n; i++) {
		struct devpm_dev *d = &a.d[a.n];

		if (!b->v[i].status[0] ||
		    !strcmp(b->v[i].status, "unsupported") ||
		    devpm_dev_open(d, b->v[i].path) < 0)
			continue;
		a.n++;
		if (d->rpm.have_autosuspend && d->rpm.autosuspend_delay_ms < 0)
			devpm_dev_knob_write(d, "autosuspend_delay_ms", "100");
		if (d->rpm.have_control && strcmp(d->rpm.control, "auto"))
			devpm_dev_knob_write(d, "control", "auto");
	}
	devpm_poll_until(all_suspended, &a, WAIT_MS);
	for (i = 0; i < a.n; i++) {
		struct devpm_dev *d = &a.d[i];
		const struct devpm_base_dev *bd = devpm_baseline_find(b, d->path);

		devpm_dev_snapshot(d);
		pc[0] = '\0';
		if (!strcmp(d->bus, "pci"))
			pci_caps(pci, d, pc, sizeof(pc));
		line[0] = '\0';
		if (strcmp(d->rpm.status, "suspended")) {
			devpm_diagnose(d, &g);
			devpm_diag_line(&g, line, sizeof(line));
		}
		devpm_note("SURVEY %s bus=%s driver=%s%s before=%s/%s now=%s usage=%ld delay=%ld%s%s",
			   d->name, d->bus[0] ? d->bus : "-",
			   d->driver[0] ? d->driver : "-", pc,
			   bd ? bd->status : "?", bd ? bd->control : "?",
			   d->rpm.status, d->rpm.have_usage ? d->rpm.usage : -1,
			   d->rpm.have_autosuspend ? d->rpm.autosuspend_delay_ms :
			   -99, line[0] ? ": " : "", line);
	}
	devpm_pci_close(pci);
	free(a.d);
	devpm_baseline_free(b);
}

DEVPM_TEST_MAIN(info)
