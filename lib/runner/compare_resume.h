/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_resume.h - `devpm compare`'s devices whose system resume got
 * slower: per case and device, the sum of its resume-side metrics
 * (resume_noirq_us, resume_early_us, resume_us, complete_us; the S3
 * cycle's "s3_" ones apart), as async/sleep real_device_timing writes
 * them.  A device is named when its resume took more than twice as long
 * and at least 200 ms more: between clean runs of the QEMU image under
 * TCG (5 runs, 10 pairs, 88 devices) the largest growth was +150 ms (a
 * USB hub, x1.9) and the largest ratio x11 (+45 ms, the xHCI's PCI
 * device), so neither bound alone would keep noise out; 200 ms more is
 * a resume a user waits for.
 */
#ifndef DEVPM_RUNNER_COMPARE_RESUME_H
#define DEVPM_RUNNER_COMPARE_RESUME_H

#include "json.h"

#define RN_RESUME_WORSE_RATIO	2.0
#define RN_RESUME_WORSE_US	200000.0

/*
 * The devices of the new run's cases (nc, summary.json's "cases") whose
 * resume grew over both bounds against the old run's (oc): one line
 * each, "SLOWER RESUME <case> <device>: ...".  Returns how many.
 */
int rn_compare_resume(const struct rn_json *oc, const struct rn_json *nc);

#endif
