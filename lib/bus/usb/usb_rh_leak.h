/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usb_rh_leak.h - a root hub's usage reference the kernel leaks when an
 * xHC is re-initialised during a port resume.
 *
 * A remote wakeup begins a port resume: handle_port_status()
 * (drivers/usb/host/xhci-ring.c) calls usb_hcd_start_port_resume(), which
 * takes a runtime-PM reference on the root hub (drivers/usb/core/hcd.c).
 * When the resume then re-initialises the controller ("xHC error in
 * resume"), xhci_reset() (drivers/usb/host/xhci.c) zeroes
 * bus_state.resuming_ports: the port's resume is never finished and
 * usb_hcd_end_port_resume() never drops the reference.  The root hub stays
 * one above its baseline and never runtime-suspends again (docs/kernel-bugs.md;
 * reproduced with Debian's 6.1 and 6.12 under QEMU).
 *
 * A watch counts both functions' calls (kprobe_count.h) over a cycle; a
 * leak is the kernel's only when the root hub is above its baseline by
 * exactly the port resumes begun and not ended, and the log showed the
 * reinit.  Anything else stays a leak for the verdict rules to fail.
 */
#ifndef DEVPM_USB_RH_LEAK_H
#define DEVPM_USB_RH_LEAK_H

#include <stdbool.h>

struct devpm_kprobe_count;

struct devpm_usb_rh_watch {
	struct devpm_kprobe_count *start, *end;
};

/* Count from now; without a kprobe PMU the watch explains nothing. */
void devpm_usb_rh_watch_start(struct devpm_usb_rh_watch *w);
/* Port resumes begun and not ended since the start, -1 when not counted. */
long devpm_usb_rh_watch_open(const struct devpm_usb_rh_watch *w);
void devpm_usb_rh_watch_stop(struct devpm_usb_rh_watch *w);

/*
 * How far the root hub named hub ("usb1") stays above its baseline usage,
 * polled at most timeout_ms for it to come back: 0 when it came back or
 * is unknown; *now and *base get the counts (-1 unknown).  A leak took the whole
 * timeout_ms to prove: it goes into the case's floor (least_time.h).
 */
long devpm_usb_rh_leak(const char *hub, int timeout_ms, long *now, long *base);

/* The leak is the kernel's xhci_reset() one (see above). */
bool devpm_usb_rh_leak_explained(long leak, long open, bool reinit);

#endif
