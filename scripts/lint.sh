#!/bin/bash
# Static analysis: cppcheck (Debian's 2.10) over every C file of the host
# program, the guest agent, the workloads and the tests.
#
# Level: the warning, portability and performance checks (cppcheck's errors
# are always on); style is left out, its findings are taste. Clean at this
# level: a finding fails `make lint` and so `make check`. A false positive is
# silenced where it stands, with the reason on the same line or the line
# above (`// cppcheck-suppress ID` under a comment that says why), never in
# a list here.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cppcheck > /dev/null || { echo "lint: cppcheck is not installed (make deps)" >&2; exit 2; }
jobs=$(nproc 2> /dev/null || echo 2)
# the host's layer folders (harness/LAYERS), as the Makefile includes them
mapfile -t inc < <(awk '!/^#/ && NF { print "-Iharness/" $1 }' harness/LAYERS)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
	--std=c11 -D_GNU_SOURCE -DLRUBENCH_VERSION='"lint"' \
	"${inc[@]}" -Iharness -Iworkloads -Iworkloads/lib \
	--suppress=missingIncludeSystem --inline-suppr -j "$jobs" \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
	harness workloads 2> "$out" && rc=0 || rc=$?
files=$(find harness workloads -name '*.c' | wc -l)
if ((rc != 0)) || [[ -s $out ]]; then
	cat "$out" >&2
	echo "lint: cppcheck found $(grep -c ': \(error\|warning\|portability\|performance\):' "$out" || true) problem(s) in $files files" >&2
	exit 1
fi
echo "lint: cppcheck $(cppcheck --version | awk '{ print $2 }'), warning+portability+performance: $files files clean"
