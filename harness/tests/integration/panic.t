#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- an injected panic: classified, samples kept, the next run completes, the report marks it
test_panic() {
	fault_campaign panic panic@4000
	check_fault panic failed-kernel "*Kernel panic - not syncing: sysrq triggered crash*" 3
	local ev; ev=$(q "$tmp/panic.db" "SELECT COUNT(*) FROM event WHERE kind='kernel' AND text LIKE '%Kernel panic%'")
	((ev >= 1)) || bad panic "the panic is not an event on the run"
	$lrb report "$tmp/panic.db" > /dev/null 2>&1
	grep -q 'KERNEL WARNED x[0-9]*: .*Kernel panic' "$LRUBENCH_REPORTS"/one-*/report.md ||
		bad panic "report.md does not mark the run whose kernel complained"
}

test_panic
done_testing
