// SPDX-License-Identifier: GPL-2.0-only
/* main.c - STUB: the devpm command line (to be implemented). */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "devpm: not implemented yet\n");
	return 2;
}
