// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify.c - every PCI device is unbound, driver-without-runtime-PM or
 * runtime-PM-capable (pci_role.h), listed with its identity, driver and
 * class name on a "# " line: a listing, not a verdict on the device.  The
 * case checks one thing of each: power/ that contradicts the PM core is a
 * failure, that device's line; the case passes when none does.
 *
 * A driver that holds references while it has active children (libahci:
 * one per active port) is judged with its subtree let suspend; a kernel
 * without runtime_usage is asked through the trace (devpm_pci_role_probe).
 */
#include "harness/test.h"
#include "bus/pci/pci.h"
#include "bus/pci/pci_role.h"
#include "bus/pci/pci_set.h"
#include "bus/pci/pci_settle.h"
#include "pci_suite.h"

static const struct devpm_test_info info = {
	.suite = "pci",
	.timeout_s = 30,
	.needs = { .root = true, .files = (const char *[]){
			"/sys/bus/pci/devices", NULL } },
};

FIXTURE(pci) {
	off_t mark;
};

FIXTURE_SETUP(pci)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(pci)
{
	devpm_case_teardown(self->mark);
}

/* Let the subtree of a busy device suspend and read its role again. */
static void settle_busy(struct devpm_pci_set *s, struct devpm_pci_dev *p)
{
	p->part = true;
	devpm_pci_set_allow(s, false, false);
	if (p->part && devpm_pci_dev_unbusy(p))
		snprintf(p->role.why, sizeof(p->role.why), "%s", p->skip);
	p->part = false;
}

/*
 * One device's role, with its identity, driver and class name, as a note;
 * 1 with why set when its power/ contradicts the PM core.
 */
static int classify_one(struct devpm_pci_set *s, struct devpm_pci_dev *p,
			char *why, size_t len)
{
	char label[96];

	if (p->info_r < 0) {
		devpm_note("%s: config space: %s", p->d.name, p->info_why);
		return 0;
	}
	if (p->role.role == DEVPM_PCI_UNKNOWN && !s->t)
		snprintf(p->skip, sizeof(p->skip), "no trace: %s",
			 s->trace_why);
	else if (p->role.role == DEVPM_PCI_UNKNOWN &&
		 !devpm_pci_dev_protected(p) &&
		 devpm_pci_role_probe(&p->d, s->t, &p->role) < 0)
		snprintf(p->skip, sizeof(p->skip), "role probe: %s",
			 devpm_error());
	if (p->busy && !devpm_pci_dev_protected(p))
		settle_busy(s, p);
	devpm_pci_names(s->pci, &p->info);
	devpm_pci_dev_label(p, label, sizeof(label));
	if (p->busy) {
		devpm_note("%s %s '%s': cannot tell: %s", p->d.name, label,
			   p->info.class_name, p->skip);
		return 0;
	}
	if (!p->role.consistent) {
		snprintf(why, len, "%s %s '%s': %s", p->d.name, label,
			 p->info.class_name, p->role.why);
		return 1;
	}
	if (p->role.role == DEVPM_PCI_UNKNOWN)
		devpm_note("%s %s '%s': %s; %s", p->d.name, label,
			   p->info.class_name, p->role.why, p->skip);
	else
		devpm_note("%s %s '%s': %s: %s", p->d.name, label,
			   p->info.class_name,
			   devpm_pci_role_name(p->role.role), p->role.why);
	return 0;
}

/*
 * Named apart from its program: the kernel's KTAP parser takes a case
 * named as its program, with no device lines, for the program's missing
 * subtests (tools/testing/kunit/kunit_parser.py peek_test_name_match()).
 */
TEST_F(pci, roles_consistent)
{
	struct devpm_subtest sub;
	struct devpm_pci_set s;
	char why[768];
	bool failed = false;
	size_t i, n;
	int r;

	r = devpm_pci_set_open(&s);
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	for (i = 0; i < s.n; i++) {
		if (!classify_one(&s, &s.v[i], why, sizeof(why)))
			continue;
		/* Only a contradiction is a device's line. */
		if (!failed)
			devpm_subtest_begin(&sub, "roles_consistent");
		failed = true;
		devpm_subtest_fail(&sub, s.v[i].d.name, "%s", why);
	}
	n = s.n;
	devpm_pci_set_close(&s);
	if (failed)
		DEVPM_SUBTEST_END(&sub);
	else
		devpm_note("%zu PCI devices listed: power/ agrees with the PM core on each",
			   n);
}

DEVPM_TEST_MAIN(info)
