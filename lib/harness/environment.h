/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * environment.h - what a test needs of the machine around it, asked of
 * the environment's hook.
 *
 * lib/ and the suites are written for real hardware.  An emulator can
 * have devices that make a system-sleep cycle slow and judge nothing a
 * test asked about (QEMU's xHCI re-initialises at every resume: ~1.5 s a
 * cycle under TCG).  Such an environment brings a hook, one program
 * (`devpm run --env-hook PROG`, root's and writable by nobody else;
 * devpm's QEMU image has qemu/guest/env_hook.c): the runner calls it
 * around the programs whose cycles judge only their own devices
 * (test_info.h: sleep_scope), and a case asks it for what it needs
 * through devpm_env_request().  Without a hook (real hardware) nothing
 * is asked and nothing changes: every request returns 0.
 *
 * A request runs "PROG REQUEST" with the case's journal: what it changes
 * it journals as the case's (journal.h: devpm_journal_attach_for_caller)
 * and the case's restore puts back; devpm_case_restore() then asks
 * DEVPM_ENV_SETTLE, so that what came back is back before the verdict.
 * Its stdout lines are "# " notes of the case, but for "CHANGED N".
 */
#ifndef DEVPM_ENVIRONMENT_H
#define DEVPM_ENVIRONMENT_H

#include <stdbool.h>

/* The hook the runner validated, for its programs. */
#define DEVPM_ENV_HOOK_VAR	"DEVPM_ENV_HOOK"

/* This case's sleep cycles judge only its own devices: set aside the rest. */
#define DEVPM_ENV_OWN_DEVICES	"own-devices"
/* The USB devices the run began with, present for this case. */
#define DEVPM_ENV_NEED_USB	"need-usb"
/* USB host controllers bound afresh: what the kernel leaked in them goes. */
#define DEVPM_ENV_RESET_USB	"reset-usb"
/*
 * A question, not a change: the number of USB host controllers that lose
 * their state at system resume by the environment's making (an emulator's
 * controller without save/restore); 0 on real hardware (no hook).
 */
#define DEVPM_ENV_USB_LOSES_STATE "usb-loses-state"
/* After a restore: wait until what came back is whole (bounded). */
#define DEVPM_ENV_SETTLE	"settle"
/* The runner: the window of the programs that judge only their own devices. */
#define DEVPM_ENV_WINDOW	"window"

/* Is there a hook?  (Its path checked, as the runner checked it.) */
bool devpm_env_hook(void);

/*
 * Ask the hook for req.  The number of devices it changed (0: nothing to
 * do, or no hook), or -errno with devpm_error() naming what failed.
 */
int devpm_env_request(const char *req);

/* A case begins: it has asked nothing yet (test_main.c). */
void devpm_env_case_begin(void);

/*
 * After the case's restore: when it asked the hook anything, ask it to
 * settle.  0, or -errno with devpm_error().
 */
int devpm_env_case_settle(void);

#endif
