/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - the devpm subcommands.  Each takes its own argv (argv[0] is the
 * subcommand's name) and returns the exit code: 0 all pass/skip/xfail,
 * 1 any failure, 2 usage or setup error.
 */
#ifndef DEVPM_RUNNER_CLI_H
#define DEVPM_RUNNER_CLI_H

#include <stdbool.h>

int rn_cmd_run(int argc, char **argv);
int rn_cmd_collect(int argc, char **argv);
int rn_cmd_list(int argc, char **argv);
int rn_cmd_audit(int argc, char **argv);
int rn_cmd_why(int argc, char **argv);
int rn_cmd_restore(int argc, char **argv);
int rn_cmd_compare(int argc, char **argv);
int rn_cmd_report(int argc, char **argv);
int rn_cmd_export(int argc, char **argv);

/* help.c: the overview, one command's help (2 for no such command). */
void rn_help_overview(void);
int rn_help(const char *cmd);
/* Whether a command's arguments ask for its help (-h, --help). */
bool rn_help_asked(int argc, char **argv);

/* "unknown option" for getopt's '?' and ':' returns. */
int rn_bad_option(const char *cmd, int argc, char **argv, int opt);

/* --env KEY=VALUE: 0, or a usage error printed and 2. */
int rn_check_env_arg(const char *arg);

/* A decimal in [min, max]; false otherwise. */
bool rn_parse_int(const char *s, int min, int max, int *out);

#endif
