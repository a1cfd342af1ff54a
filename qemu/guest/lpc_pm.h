/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lpc_pm.h - QEMU's q35 after an S3 cycle: the wake resets the machine
 * (hw/i386/pc.c: pc_machine_wakeup() -> pc_machine_reset()), the ICH9
 * LPC bridge's ACPI PM block included (PMBASE at config 0x40, ACPI_CNTL's
 * enable bit at 0x44), and SeaBIOS's S3 resume does not program them
 * again as its boot did.  The kernel's writes to PM1a_CNT then reach no
 * device: a second S3 never suspends (the write returns at once, no QMP
 * SUSPEND event), the power button is gone.  Seen: 0x40 01 06 -> 01 00,
 * 0x44 80 -> 00 after real_device_timing's S3 cycle.
 *
 * lpc_pm_restore() writes them back from the FADT's PM1a_EVT_BLK when an
 * Intel ICH9 LPC (8086:2918) at 00:1f.0 has lost them: the environment's
 * window does it as it opens, before the programs whose cycles need the
 * platform (wakeup/userspace's S3).  1 restored, 0 nothing to do, -errno.
 */
#ifndef DEVPM_QEMU_GUEST_LPC_PM_H
#define DEVPM_QEMU_GUEST_LPC_PM_H

int lpc_pm_restore(void);

#endif
