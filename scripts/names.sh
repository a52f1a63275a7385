#!/bin/bash
# One naming convention for the host program's public functions, the kernel's
# tools/lib one (libperf, libbpf): a function that works on an object, its
# first parameter a `struct NAME *`, is NAME__verb() (perf_evsel__open);
# anything else (a parser, a command, a utility) is a plain verb_noun().
# This check reads every header of harness/ (not the guest's) and workloads/
# and names each declaration `NAME_verb(struct NAME *...)`: the object's name
# followed by a single underscore. Usage: scripts/names.sh [--root DIR]
# (another tree: the test's); exit 1 on any.
set -euo pipefail
shopt -s nullglob
root=$(dirname "$0")/..
if [[ ${1:-} == --root ]]; then
	root=$2
	shift 2
fi
cd "$root"
bad=0
n=0
for h in harness/*/*.h workloads/*.h; do
	case $h in harness/guest/* | harness/tests/*) continue ;; esac
	n=$((n + 1))
	# comments out (gcc's preprocessor, includes not followed), one declaration per line
	while read -r fn obj; do
		echo "names: $h: $fn() takes a struct $obj *: call it ${obj}__${fn#"${obj}"_}()" >&2
		bad=$((bad + 1))
	done < <(gcc -fpreprocessed -dD -E -P "$h" 2> /dev/null | tr '\n' ' ' | tr ';{}' '\n\n\n' |
		sed -nE 's/.*[^a-z0-9_]([a-z][a-z0-9_]*)[[:space:]]*\([[:space:]]*(const[[:space:]]+)?struct[[:space:]]+([a-z][a-z0-9_]*)[[:space:]]*\*.*/\1 \3/p' |
		awk '{ if (index($1, $2 "_") == 1 && index($1, $2 "__") != 1) print }')
done
if ((bad)); then
	echo "names: $bad function(s) named against the convention (see the top of scripts/names.sh)" >&2
	exit 1
fi
echo "names: $n headers: every function on a struct is OBJ__verb()"
