// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify.c - every PCI device is unbound, driver-without-runtime-PM or
 * runtime-PM-capable (pci_role.h), printed with its identity, driver and
 * class name; power/ that contradicts the PM core is a failure.
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

/* What classify's blocks share: the set, and the device of the block. */
struct classify_ctx {
	struct devpm_pci_set *s;
	struct devpm_pci_dev *p;
};

/* One device's role, with its identity, driver and class name. */
static void classify_one(struct devpm_block *b, void *arg)
{
	struct classify_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	char label[96];

	if (p->info_r < 0)
		devpm_block_abort(b, "config space: %s", p->info_why);
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
	if (p->busy)
		devpm_block_skip(b, "%s '%s': cannot tell: %s", label,
			       p->info.class_name, p->skip);
	if (!p->role.consistent)
		devpm_block_abort(b, "%s '%s': %s", label, p->info.class_name,
				p->role.why);
	if (p->role.role == DEVPM_PCI_UNKNOWN)
		devpm_block_skip(b, "%s '%s': %s; %s", label,
			       p->info.class_name, p->role.why, p->skip);
	devpm_block_pass(b, "%s '%s': %s: %s", label, p->info.class_name,
		       devpm_pci_role_name(p->role.role), p->role.why);
}

TEST_F(pci, classify)
{
	struct devpm_subtest sub;
	struct devpm_pci_set s;
	struct classify_ctx c = { .s = &s };
	size_t i;
	int r;

	r = devpm_pci_set_open(&s);
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	devpm_subtest_begin(&sub, "classify");
	for (i = 0; i < s.n; i++) {
		c.p = &s.v[i];
		devpm_block_run(&sub, c.p->d.name, classify_one, &c);
	}
	devpm_pci_set_close(&s);
	DEVPM_SUBTEST_END(&sub);
}

DEVPM_TEST_MAIN(info)
