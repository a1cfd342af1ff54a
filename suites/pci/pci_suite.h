/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_suite.h - what the PCI suite's programs share: the set of PCI
 * devices and who takes part (lib/bus/pci/pci_set.h), letting them suspend
 * (lib/bus/pci/pci_settle.h), and a time in µs as ms for messages.
 */
#ifndef DEVPM_PCI_SUITE_H
#define DEVPM_PCI_SUITE_H

#include <stdint.h>

#include "devpm.h"

/* A time in µs as ms, for messages. */
#define us_to_ms(us) ((uint64_t)(us) / 1000.0)

#endif
