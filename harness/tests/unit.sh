#!/bin/bash
# The unit tests: every cmocka binary, even after one fails.
#   unit.sh BUILD_DIR TEST_BINARY...
# Prints each binary's output, then the time each took (slowest first, also
# written to BUILD_DIR/unit.times as "seconds binary passed failed") and last
#   unit: N passed, N failed
# counting test cases from cmocka's "[  PASSED  ] N test(s)." and
# "[  FAILED  ] N test(s)" lines; a binary that fails without saying how many
# (a sanitizer abort, a crash) counts as one failed case. Exit 1 on a failure.
set -uo pipefail
build=$1
shift
times=$build/unit.times
out=$(mktemp /tmp/lrubench-unit.XXXXXX)
trap 'rm -f "$out"' EXIT
: > "$times.tmp"
passed=0 failed=0 skipped=0 broken=()
for t in "$@"; do
	echo "== $t"
	t0=$EPOCHREALTIME
	"$t" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	p=$(awk '/^\[  PASSED  \] [0-9]+ test/ { n += $4 } END { print n + 0 }' "$out")
	f=$(awk '/^\[  FAILED  \] [0-9]+ test/ { n += $4 } END { print n + 0 }' "$out")
	s=$(awk '/^\[  SKIPPED \] [0-9]+ test/ { n += $4 } END { print n + 0 }' "$out")
	if ((rc != 0 && f == 0)); then
		f=1
		broken+=("$t: exit $rc without a cmocka failure count")
	elif ((f > 0)); then
		broken+=("$t: $f failed")
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	echo "$secs ${t##*/} $p $f" >> "$times.tmp"
	echo "-- ${t##*/}: $p passed, $f failed in $secs s"
done
sort -k1,1 -rn "$times.tmp" > "$times" && rm -f "$times.tmp"
echo
if ((${#broken[@]})); then
	echo "unit: failed:"
	printf '  %s\n' "${broken[@]}"
fi
((skipped == 0)) || echo "unit: $skipped test cases skipped by cmocka"
echo "unit: time per binary, slowest first:"
awk '{ printf "  %8.1f s  %s (%d passed, %d failed)\n", $1, $2, $3, $4; t += $1 } END { printf "  %8.1f s  in all\n", t }' "$times"
echo "unit: $passed passed, $failed failed"
((failed == 0))
