/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * i2c.h - I2C adapters, the controllers that suspend for them, clients,
 * EEPROM contents and SMBus transfers through i2c-dev.
 *
 * An adapter (i2c-N) has no runtime-PM callbacks of its own (the core calls
 * pm_runtime_no_callbacks() and ignores its children): what suspends is its
 * controller, the nearest ancestor with power/control (i801: the PCI
 * function), which its driver resumes around each transfer.  Clients are
 * named N-00AA.  devpm_i2c_new_device() journals the client's removal, so
 * a client of a killed run goes with the next `devpm restore`.
 */
#ifndef DEVPM_I2C_H
#define DEVPM_I2C_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "core/sysfs.h"

struct devpm_i2c_adapter {
	int nr;				/* i2c-<nr> */
	char name[128];			/* its name attribute */
	char path[DEVPM_PATH_MAX];	/* kernel path of i2c-<nr> */
	char ctrl[DEVPM_PATH_MAX];	/* controller's kernel path, "" none */
	char ctrl_name[128];		/* "0000:00:1f.3" */
};

/* Every adapter, by number.  The caller frees *list. */
int devpm_i2c_adapters(struct devpm_i2c_adapter **list, size_t *n);

/* An Intel 801-family SMBus (i2c-i801), which has SPD EEPROMs at 0x50. */
bool devpm_i2c_is_i801(const struct devpm_i2c_adapter *a);

/* "N-00AA" */
int devpm_i2c_client_name(int nr, unsigned int addr, char *buf, size_t len);

/* Kernel path of client N-00AA in buf: 0 if it exists, else -ENOENT. */
int devpm_i2c_client(int nr, unsigned int addr, char *buf, size_t len);

/*
 * Instantiate a client ("<type> 0x<addr>" to new_device) and journal
 * "0x<addr>" to delete_device.  -EEXIST when a client holds the address.
 */
int devpm_i2c_new_device(int nr, const char *type, unsigned int addr);

/*
 * The nvmem file of a client's EEPROM (at24, ee1004 register an nvmem
 * device below the client: <client>/<N-00AA><id>/nvmem); -ENOENT if none.
 */
int devpm_i2c_eeprom(const char *client, char *buf, size_t len);

/* Read len bytes at off of an nvmem file; returns the count or -errno. */
ssize_t devpm_i2c_eeprom_read(const char *nvmem, void *buf, size_t len,
			      off_t off);

/*
 * Open /dev/i2c-<nr> (i2c-dev must be loaded: -ENOENT "load i2c-dev"
 * otherwise).  Returns an fd or -errno.
 */
int devpm_i2c_dev_open(int nr);

/* I2C_FUNCS of the adapter; 0 on error. */
unsigned long devpm_i2c_funcs(int fd);

/*
 * SMBus read byte data from addr's register reg; force: bind to an address
 * a driver holds (I2C_SLAVE_FORCE).  Returns the byte or -errno.
 */
int devpm_i2c_smbus_read_byte(int fd, unsigned int addr, unsigned int reg,
			      bool force);

#endif
