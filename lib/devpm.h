/* SPDX-License-Identifier: GPL-2.0-only */
/* devpm.h - libdevpm: everything a devpm test may call. */
#ifndef DEVPM_H
#define DEVPM_H

#include "sysfs.h"
#include "journal.h"
#include "safety.h"
#include "device.h"
#include "diagnose.h"
#include "trace.h"
#include "wait.h"
#include "kmsg.h"
#include "needs.h"
#include "report.h"
#include "host.h"
#include "transition.h"
#include "devnode.h"
#include "i2c.h"
#include "scsi.h"
#include "usb.h"
#include "input.h"
#include "gadget.h"
#include "rpm_order.h"
#include "usb_bus.h"
#include "pci.h"
#include "pci_role.h"
#include "subtree.h"
#include "vfio.h"
#include "baseline.h"
#include "verdict.h"
#include "cycle.h"
#include "sleep_trace.h"
#include "system_sleep.h"
#include "pm_print_times.h"
#include "mock.h"
#include "sleep.h"
#include "wakeup_source.h"
#include "wake_account.h"
#include "qemu_xhci.h"

#define DEVPM_VERSION "0.1.0"

#endif
