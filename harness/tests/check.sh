#!/bin/bash
# make check and make check-full: the steps in order, each timed.
#   check.sh TIER BUILD_DIR     (TIER: check or full, the integration tier)
# lint, fuzz-build (the fuzz targets link: a parser change that breaks them
# fails here, not in the fuzzing run), unit (cmocka under ASan/UBSan), then
# integration (harness/tests/integration/run BUILD_DIR TIER). Stops at the
# first step that fails (CHECK_KEEP_GOING=1: runs them all). Ends with the
# time of each step, of each unit binary and of each integration test file,
# slowest first, so the next person sees what to make faster, then one line:
#   check: N passed, N failed, N skipped
# (unit test cases and integration tests; a failed step that counts nothing,
# lint or fuzz-build, counts as one failure). Exit 1 when a step failed.
set -uo pipefail
tier=${1:-check}
build=${2:-build}
make=${MAKE:-make}
cd "$(dirname "$0")/../.." || exit 2
[[ $tier == check || $tier == full ]] || { echo "usage: $0 check|full BUILD_DIR" >&2; exit 2; }
mkdir -p "$build"
logs=$(mktemp -d /tmp/lrubench-check.XXXXXX)
trap 'rm -rf "$logs"' EXIT
rm -f "$build/unit.times" "$build/integration.times"

steps=(lint fuzz-build unit integration)
declare -A took status
passed=0 failed=0 skipped=0
for s in "${steps[@]}"; do
	if [[ -n ${stop:-} ]]; then
		status[$s]="not run"
		continue
	fi
	args=("$s")
	[[ $s == integration ]] && args+=("IT_TIER=$tier")
	echo "== check: $s" >&2
	t0=$EPOCHREALTIME
	"$make" --no-print-directory "${args[@]}" BUILD="$build" 2>&1 | tee "$logs/$s.log"
	rc=${PIPESTATUS[0]}
	took[$s]=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	status[$s]=ok
	((rc == 0)) || status[$s]="FAILED (exit $rc)"
	# the step's own closing line: "unit: N passed, N failed", "integration: N passed, N failed, N skipped"
	line=$(grep -E "^$s: [0-9]+ passed, [0-9]+ failed" "$logs/$s.log" | tail -1)
	if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
		p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} k=${BASH_REMATCH[4]:-0}
		((rc == 0 || f > 0)) || f=1
	else
		p=0 k=0 f=$((rc != 0))
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
	if ((rc != 0)) && [[ -z ${CHECK_KEEP_GOING:-} ]]; then
		stop=1
	fi
done

echo
echo "check: time per step (tier $tier):"
for s in "${steps[@]}"; do
	if [[ ${status[$s]} == "not run" ]]; then
		printf '  %8s    %-12s not run (an earlier step failed)\n' - "$s"
		continue
	fi
	printf '  %8.1f s  %-12s %s\n' "${took[$s]}" "$s" "${status[$s]}"
	if [[ $s == unit && -s $build/unit.times ]]; then
		awk '{ printf "  %8.1f s      %s\n", $1, $2 }' "$build/unit.times"
	fi
	if [[ $s == integration && -s $build/integration.times ]]; then
		awk '{ printf "  %8.1f s      %s\n", $1, $2 }' "$build/integration.times"
	fi
done
echo "check: $passed passed, $failed failed, $skipped skipped"
for s in "${steps[@]}"; do
	[[ ${status[$s]} == ok ]] || exit 1
done
exit 0
