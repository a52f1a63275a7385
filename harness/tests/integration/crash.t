#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- an injected crash of init: classified, samples kept, the next run completes
test_crash() {
	fault_campaign crash crash@4000
	check_fault crash failed-kernel "*Attempted to kill init*" 3
}

test_crash
done_testing
