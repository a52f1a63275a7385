#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- an injected crash of the agent (PID 1): the kernel panics ("Attempted to
# kill init"), but did nothing wrong: failed-infra, samples kept, retried, the
# next run completes
test_crash() {
	fault_campaign crash crash@4000
	check_fault crash failed-infra "the agent (PID 1) died: *Attempted to kill init*" 3
}

test_crash
done_testing
