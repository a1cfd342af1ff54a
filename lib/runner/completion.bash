# SPDX-License-Identifier: GPL-2.0-only
# bash completion for devpm(1): commands, options (as "--opt value" and
# "--opt=value"), the suites and cases of `devpm list` (run by the devpm
# being completed, with the --sysfs-root already on the line), devices
# by name or /sys/devices path for `why`.  Installed as
# share/bash-completion/completions/devpm.

# The words before the one completed, split at blanks only (bash splits
# COMP_WORDS at '=' and ':' too: "--suite=pci", "0000:00:1f.2").
_devpm_words=()

# _devpm_list [ARGS]: `devpm list` of the devpm on the command line.
_devpm_list()
{
	local -a pre=("${_devpm_words[0]}")
	local i
	for ((i = 1; i < ${#_devpm_words[@]}; i++)); do
		case ${_devpm_words[i]} in
		--sysfs-root) pre+=(--sysfs-root "${_devpm_words[i + 1]}") ;;
		--sysfs-root=*) pre+=("${_devpm_words[i]}") ;;
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

# A /sys path that `devpm why` takes: directories under /sys/devices (and
# /sys itself on the way there).
_devpm_sys_paths()
{
	local cur=$1
	compopt -o filenames -o nospace 2>/dev/null
	COMPREPLY=($(compgen -d -- "$cur"))
	COMPREPLY=("${COMPREPLY[@]/%//}")
}

# _devpm_value OPT CUR: COMPREPLY for the value of OPT; 1 if OPT takes
# none this script completes.
_devpm_value()
{
	local opt=$1 cur=$2
	case $opt in
	--sysfs-root|--output)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	--stream|--env-hook)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	--suite)
		COMPREPLY=($(compgen -W "$(_devpm_suites)" -- "$cur")) ;;
	--test)
		COMPREPLY=($(compgen -W "$(_devpm_cases)" -- "$cur")) ;;
	--timeout|--env|--crash|--origin)
		COMPREPLY=() ;;
	*)
		return 1 ;;
	esac
	return 0
}

_devpm()
{
	local line=${COMP_LINE:0:COMP_POINT} cur prev pre
	COMPREPLY=()
	read -ra _devpm_words <<<"$line"
	if [[ -z $line || $line == *[[:blank:]] ]]; then
		cur=
	else
		cur=${_devpm_words[${#_devpm_words[@]} - 1]}
		unset '_devpm_words[${#_devpm_words[@]} - 1]'
	fi
	prev=${_devpm_words[${#_devpm_words[@]} - 1]}
	_devpm_complete "$cur" "$prev"
	# bash puts a reply in place of what follows cur's last '=' or ':'.
	pre=${cur%"${cur##*[=:]}"}
	[ -n "$pre" ] && COMPREPLY=("${COMPREPLY[@]#"$pre"}")
}

# _devpm_complete CUR PREV: COMPREPLY with whole words (as CUR is).
_devpm_complete()
{
	local cur=$1 prev=$2 cmd i opt
	local cmds="run collect list audit why restore compare report export help"

	# The command: the first word that is neither an option nor the
	# argument of --sysfs-root.
	cmd=
	for ((i = 1; i < ${#_devpm_words[@]}; i++)); do
		case ${_devpm_words[i]} in
		--sysfs-root) ((i++)) ;;
		-*) ;;
		*) cmd=${_devpm_words[i]}; break ;;
		esac
	done

	# --opt=value: the value, each completion with its "--opt=".
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		if _devpm_value "$opt" "${cur#*=}"; then
			COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		fi
		return
	fi
	_devpm_value "$prev" "$cur" && return

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
			--allow-disk --output --timeout --stream --env --env-hook
			--resume-budget-ms --help" -- "$cur")) ;;
	collect)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--output --env --crash --help" \
				-- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	list)
		COMPREPLY=($(compgen -W "--suite --test --json --write-cache
			--help" -- "$cur")) ;;
	audit)
		COMPREPLY=($(compgen -W "--all --json --help" -- "$cur")) ;;
	why)
		if [[ $cur == /* ]]; then
			_devpm_sys_paths "$cur"
		else
			COMPREPLY=($(compgen -W "$(_devpm_devices) --help" \
				-- "$cur"))
		fi ;;
	help)
		COMPREPLY=($(compgen -W "$cmds" -- "$cur")) ;;
	export)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--kcidb --origin --output -o
				--help" -- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		fi ;;
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
