// SPDX-License-Identifier: GPL-2.0-only
/*
 * lpc_pm.c - the ICH9 LPC's ACPI PM block back after QEMU's S3 wake
 * (lpc_pm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "lpc_pm.h"

#define LPC		"/sys/bus/pci/devices/0000:00:1f.0"
#define FADT		"/sys/firmware/acpi/tables/FACP"
#define PMBASE		0x40	/* ICH9: ACPI base address, bit 0 I/O */
#define ACPI_CNTL	0x44	/* bit 7: ACPI enable */
#define FADT_PM1A_EVT	56	/* PM1a_EVT_BLK, the block's base */

static int read_at(const char *path, off_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, off);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static int write_at(const char *path, off_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pwrite(fd, buf, len, off);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

int lpc_pm_restore(void)
{
	uint16_t id[2];
	uint32_t evt, base;
	uint8_t cntl;
	int r;

	if (read_at(LPC "/config", 0, id, sizeof(id)) ||
	    id[0] != 0x8086 || id[1] != 0x2918)
		return 0;
	r = read_at(FADT, FADT_PM1A_EVT, &evt, sizeof(evt));
	if (!r)
		r = read_at(LPC "/config", PMBASE, &base, sizeof(base));
	if (!r)
		r = read_at(LPC "/config", ACPI_CNTL, &cntl, sizeof(cntl));
	if (r)
		return devpm_fail(r, "ICH9 LPC or FADT: %s", strerror(-r));
	if (!evt || ((base & ~0x7fU) == evt && (cntl & 0x80)))
		return 0;
	base = evt | 1;
	cntl |= 0x80;
	r = write_at(LPC "/config", PMBASE, &base, sizeof(base));
	if (!r)
		r = write_at(LPC "/config", ACPI_CNTL, &cntl, sizeof(cntl));
	if (r)
		return devpm_fail(r, "ICH9 LPC ACPI PM block: %s", strerror(-r));
	return 1;
}
