// SPDX-License-Identifier: GPL-2.0-only
/* cpu_busy.c - the CPUs' busy time from /proc/stat (cpu_busy.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpu_busy.h"

long long rn_cpu_busy_ticks(const char *stat)
{
	unsigned long long v[8];

	/* user nice system idle iowait irq softirq steal */
	if (!stat || strncmp(stat, "cpu ", 4) ||
	    sscanf(stat + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]) != 8)
		return -1;
	return (long long)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]);
}

double rn_cpu_busy_ms(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	char line[512];
	long long t = -1;
	FILE *f;

	/* Its first line is the sum over every CPU. */
	f = hz > 0 ? fopen("/proc/stat", "re") : NULL;
	if (f && fgets(line, sizeof(line), f))
		t = rn_cpu_busy_ticks(line);
	if (f)
		fclose(f);
	return t < 0 ? -1 : (double)t * 1000 / hz;
}
