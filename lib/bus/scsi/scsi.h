/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scsi.h - SCSI disks with their target, host and (libata) port, scsi_debug,
 * O_DIRECT pattern I/O on their block devices, and SCSI command events.
 *
 * Runtime PM of a disk lives in its scsi_device (H:C:T:L, bound to sd):
 * sd starts with control=on and autosuspend_delay_ms=-1.  Its parents, the
 * target and the host, suspend when their children have.  Under libata the
 * host's parent is the ataN port (control=on by default), then the PCI
 * controller.
 */
#ifndef DEVPM_SCSI_H
#define DEVPM_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/sysfs.h"
#include "trace/trace.h"

struct devpm_scsi_disk {
	char name[32];			/* "2:0:0:0" */
	char path[DEVPM_PATH_MAX];	/* its kernel path */
	char target[32];		/* "target2:0:0" */
	char target_path[DEVPM_PATH_MAX];
	char host[32];			/* "host2" */
	char host_path[DEVPM_PATH_MAX];
	char block[32];			/* "sdb" ("" while sd has none) */
	unsigned int host_no, channel, id;
	unsigned long long lun;
	char proc_name[32];		/* host driver: "scsi_debug", "ahci" */
	bool scsi_debug;
	char ata_port[32];		/* "ata7" under libata, else "" */
	char ata_port_path[DEVPM_PATH_MAX];
	char ctrl[32];			/* nearest PCI ancestor, "" none */
	char ctrl_path[DEVPM_PATH_MAX];
};

/* Every scsi device bound to sd, by host/channel/id/lun. */
int devpm_scsi_disks(struct devpm_scsi_disk **list, size_t *n);

/*
 * Of a list from devpm_scsi_disks(), keep those below the device at kpath
 * (a host, target, ata port or controller), in place; returns how many.
 */
size_t devpm_scsi_disks_below(struct devpm_scsi_disk *list, size_t n,
			      const char *kpath);

/*
 * The ataN ports below a libata controller: their kernel paths in
 * ports[0..max-1], each DEVPM_PATH_MAX long.  Returns the count or -errno.
 */
int devpm_ata_ports(const char *ctrl, char *ports, int max);

/*
 * An ATAPI device (SCSI type 5) below kpath, such as a port: 1 and its
 * name, 0 when there is none.  libata keeps a port with one active unless
 * it is a zero-power ODD.
 */
int devpm_scsi_atapi_below(const char *kpath, char *name, size_t len);

/*
 * Kernel path of an attribute of the disk ("timeout") or of its scsi_disk
 * class device ("scsi_disk/cache_type").
 */
int devpm_scsi_attr(const struct devpm_scsi_disk *d, const char *attr,
		    char *buf, size_t len);

/*
 * May devpm write the disk's PM knobs?  Not when it is on the path of a
 * mounted filesystem, unless --allow-disk (the journal refuses it too).
 */
bool devpm_scsi_pm_ok(const struct devpm_scsi_disk *d, char *why,
		      size_t len);

/* Journaled: the sd device's autosuspend_delay_ms, then control. */
int devpm_scsi_rpm_set(const struct devpm_scsi_disk *d, long delay_ms,
		       const char *control);

/* sd's view of the write cache: 1 write back, 0 write through, -errno. */
int devpm_scsi_write_cache(const struct devpm_scsi_disk *d);

/*
 * May devpm write test data to d?  scsi_debug: yes unless something uses
 * it; any other disk only with --allow-disk and when nothing uses it: no
 * mounted filesystem or swap on it (safety.h), no holder (dm, md, ...) on
 * it or its partitions.  why gets the reason when not.  Writes also open
 * the disk O_EXCL, so the kernel refuses one that is claimed after this.
 */
bool devpm_scsi_data_ok(const struct devpm_scsi_disk *d, char *why,
			size_t len);

/* scsi_debug driver attributes (opts, every_nth, statistics, ...). */
#define DEVPM_SDEBUG_DRIVER "/sys/bus/pseudo/drivers/scsi_debug"
/* Write one through the journal, so the run puts it back. */
int devpm_sdebug_set(const char *attr, const char *val);
#define DEVPM_SDEBUG_OPT_MEDIUM_ERR	0x2
#define DEVPM_SDEBUG_OPT_TIMEOUT	0x4
#define DEVPM_SDEBUG_OPT_RESET_NOISE	0x2000
#define DEVPM_SDEBUG_MEDIUM_ERR_LBA	0x1234	/* medium_error_start default */

/* A block device opened for O_DIRECT I/O. */
struct devpm_blk {
	int fd;
	char name[32];
	unsigned int lbs;		/* logical block size */
	unsigned long long bytes;	/* capacity */
};

/* Open /dev/<block> O_DIRECT; write: O_RDWR|O_EXCL, else O_RDONLY. */
int devpm_blk_open(const char *block, bool write, struct devpm_blk *b);
void devpm_blk_close(struct devpm_blk *b);
/* A buffer aligned for O_DIRECT (free() it). */
void *devpm_blk_alloc(size_t len);
/* Whole transfers or -errno (a short one is -EIO). */
int devpm_blk_read(struct devpm_blk *b, void *buf, size_t len, off_t off);
int devpm_blk_write(struct devpm_blk *b, const void *buf, size_t len,
		    off_t off);

/* A pattern that names its seed and offset in every 16 bytes. */
void devpm_pattern_fill(void *buf, size_t len, uint64_t seed);
/* Offset of the first byte that differs from the pattern, or -1. */
long devpm_pattern_check(const void *buf, size_t len, uint64_t seed);

/* A SCSI command event (scsi:scsi_dispatch_cmd_*). */
enum devpm_scsi_ev_kind {
	DEVPM_SCSI_START,	/* dispatched to the host driver */
	DEVPM_SCSI_DONE,
	DEVPM_SCSI_TIMEOUT,
	DEVPM_SCSI_ERROR,	/* queuecommand refused it */
};

struct devpm_scsi_cmd {
	enum devpm_scsi_ev_kind kind;
	uint64_t ts_us;
	unsigned int host_no, channel, id;
	unsigned long long lun;
	int opcode;		/* CDB byte 0, -1 unknown */
	char op[40];		/* "SYNCHRONIZE_CACHE", "READ_10" */
	long long lba;		/* -1 when the event does not say */
	char status[32];	/* done: "SAM_STAT_GOOD"; "" unknown */
};

#define DEVPM_SCSI_SYNCHRONIZE_CACHE	0x35
#define DEVPM_SCSI_SYNCHRONIZE_CACHE_16	0x91
bool devpm_scsi_op_is_write(int opcode);
bool devpm_scsi_op_is_read(int opcode);
bool devpm_scsi_op_is_sync(int opcode);

/* Parse a scsi:scsi_dispatch_cmd_* event: 0, or -EINVAL if it is not one. */
int devpm_scsi_parse(const struct devpm_event *ev, struct devpm_scsi_cmd *c);
bool devpm_scsi_cmd_is(const struct devpm_scsi_cmd *c,
		       const struct devpm_scsi_disk *d);

/* Enable the command events (start, done, timeout) for these disks. */
int devpm_scsi_trace(struct devpm_trace *t, const struct devpm_scsi_disk *d,
		     size_t n);

#endif
