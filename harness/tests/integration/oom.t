#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- an OOM kill in the workload memcg: classified, the next run completes
test_oom() {
	fault_campaign oom oom
	check_fault oom failed-workload "oom: anon memcg wl oom_kill *" 1
}

test_oom
done_testing
