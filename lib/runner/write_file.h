/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * write_file.h - write a file whole, atomically, where devpm did not make
 * the directory (`devpm report`'s report.html, a suites directory's probe
 * cache).
 */
#ifndef DEVPM_RUNNER_WRITE_FILE_H
#define DEVPM_RUNNER_WRITE_FILE_H

#include <stddef.h>

/*
 * Write buf to path atomically: <path>.tmp created relative to the
 * directory's descriptor (O_CREAT|O_EXCL|O_NOFOLLOW), fsync, renameat.
 * Refused: path or its .tmp a symlink or a file another user could write
 * (a .tmp of ours left by a killed writer is replaced), and a directory
 * that fails path_trust.h's rule (sticky allowed).  0, or -errno with
 * rn_write_file_why() naming the file and the fix.
 */
int rn_write_file(const char *path, const char *buf, size_t len);
const char *rn_write_file_why(void);

#endif
