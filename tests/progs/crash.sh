#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# crash.sh - the program itself dies by SIGSEGV in the middle of a case.
CASES="fine boom"
NEEDS="# NEEDS timeout_s: 20"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

fake_begin
fake_run fine
fake_ok fine
fake_run boom
kill -SEGV $$
