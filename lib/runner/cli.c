// SPDX-License-Identifier: GPL-2.0-only
/* cli.c - argument checks shared by the subcommands (cli.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

bool rn_parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

int rn_bad_option(const char *cmd, int argc, char **argv, int opt)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] :
		"?";

	if (opt == ':')
		return rn_usage_error("%s: option '%s' needs a value; see 'devpm %s --help'",
				      cmd, arg, cmd);
	return rn_usage_error("%s: unknown option '%s'; see 'devpm %s --help'",
			      cmd, arg, cmd);
}

int rn_check_env_arg(const char *arg)
{
	const char *eq = strchr(arg, '='), *p;

	if (!eq || eq == arg)
		return rn_usage_error("--env '%s': give KEY=VALUE", arg);
	for (p = arg; p < eq; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-",
			    *p))
			return rn_usage_error("--env '%s': KEY may hold only letters, digits and _.-",
					      arg);
	if (!strncmp(arg, "run_id=", 7) || !strncmp(arg, "incomplete=", 11))
		return rn_usage_error("--env '%s': KEY is reserved", arg);
	return 0;
}
