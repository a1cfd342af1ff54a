/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_set_fixture.h - the fixture of a PCI case over every device: the set
 * (lib/bus/pci/pci_set.h) opened before each case and closed after it, and the
 * case's subtests.  Included after test.h.
 */
#ifndef DEVPM_PCI_SET_FIXTURE_H
#define DEVPM_PCI_SET_FIXTURE_H

#include "bus/pci/pci_set.h"
#include "core/sysfs.h"
#include "harness/test_info.h"
#include "judge/subtest.h"
#include "pci_suite.h"

FIXTURE(pci) {
	off_t mark;
	struct devpm_pci_set s;
	struct devpm_subtest sub;
};

FIXTURE_SETUP(pci)
{
	self->mark = devpm_case_setup();
	ASSERT_EQ(0, devpm_pci_set_open(&self->s)) TH_LOG("%s", devpm_error());
}

FIXTURE_TEARDOWN(pci)
{
	devpm_pci_set_close(&self->s);
	devpm_case_teardown(self->mark);
}

#endif
