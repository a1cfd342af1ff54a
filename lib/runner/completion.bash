# SPDX-License-Identifier: GPL-2.0-only
# bash completion for devpm(1): commands, options, and the suites and
# cases of `devpm list` (run by the devpm being completed, with the
# --sysfs-root already on the line).  Installed as
# share/bash-completion/completions/devpm.

# _devpm_list [ARGS]: `devpm list` of the devpm on the command line.
_devpm_list()
{
	local -a pre=("${COMP_WORDS[0]}")
	local i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		--sysfs-root) pre+=(--sysfs-root "${COMP_WORDS[i + 1]}") ;;
		--sysfs-root=*) pre+=("${COMP_WORDS[i]}") ;;
		esac
	done
	"${pre[@]}" list "$@" 2>/dev/null
}

# Suites: the first part of each program line ("suite/program (...)").
_devpm_suites()
{
	_devpm_list | awk '/^[^ ]/ { split($1, p, "/"); print p[1] }' |
		sort -u
}

# Cases as --test takes them: suite/program/case, program/case and case.
_devpm_cases()
{
	_devpm_list | awk '
		/^[^ ]/ { prog = $1; next }
		/^    (needs |cannot list)/ { next }
		/^    / {
			c = $1; n = split(prog, p, "/")
			print prog "/" c; print p[n] "/" c; print c
		}' | sort -u
}

# Device names `devpm why` takes: what /sys/bus/*/devices holds.
_devpm_devices()
{
	local d
	for d in /sys/bus/*/devices/*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

_devpm()
{
	local cur prev cmd i
	local cmds="run collect list audit why restore compare report help"
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# The command: the first word that is neither an option nor the
	# argument of --sysfs-root.
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sysfs-root) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	case $prev in
	--sysfs-root|--output)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--stream)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--suite)
		COMPREPLY=($(compgen -W "$(_devpm_suites)" -- "$cur"))
		return ;;
	--test)
		COMPREPLY=($(compgen -W "$(_devpm_cases)" -- "$cur"))
		return ;;
	--timeout|--env|--crash)
		return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--sysfs-root --help --version" \
				-- "$cur"))
		else
			COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		fi
		return
	fi

	case $cmd in
	run)
		COMPREPLY=($(compgen -W "--suite --test --allow-sleep
			--allow-disk --output --timeout --stream --env
			--resume-budget-ms --help" \
			-- "$cur")) ;;
	collect)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--output --env --crash --help" \
				-- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	list)
		COMPREPLY=($(compgen -W "--suite --test --write-cache --help" \
			-- "$cur")) ;;
	audit)
		COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
	why)
		COMPREPLY=($(compgen -W "$(_devpm_devices)" -- "$cur")) ;;
	compare|report)
		# compare takes run directories or KTAP files, report a
		# run directory.
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help" -- "$cur"))
		elif [ "$cmd" = compare ]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		fi ;;
	esac
}
complete -F _devpm devpm
