#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- slurm: scripts/ci/slurm-*.sh against a real Slurm (one node, this machine)
# scripts/ci/slurm-cluster.sh starts munged, slurmctld and slurmd in a directory
# of their own; the test queues slurm.ini (classic and MGLRU, 2 repetitions of
# 4 s, one vCPU) as 2 shards plus the merge with slurm-submit.sh, three times:
# whole (the merge against the unsharded campaign), with shard 2 faulted (the
# merge fails with the campaign's status) and with a task cancelled mid-run
# (the merge names the missing shard). Tasks take the node's 2 CPUs each, so
# they run one after the other.

plan=harness/tests/plans/slurm.ini
t_start=$EPOCHREALTIME
cluster=$(mktemp -d /tmp/lrubench-it-slurm-cluster.XXXXXX)
export LRUBENCH_BUILD=$build SLURM_CONF=$cluster/slurm.conf
# the cluster is stopped, whatever happens, before lib.sh's end removes $tmp
# shellcheck disable=SC2317 # called by the trap
slurm_exit() {
	local rc=$?
	scripts/ci/slurm-cluster.sh stop "$cluster" > /dev/null 2>&1 || bad cluster-stop "slurm-cluster.sh stop failed"
	rm -rf "$cluster"
	(exit "$rc")
	tap_exit
}
trap slurm_exit EXIT

struct() { # DB: each compare row's label and its n= cells (values differ between TCG runs)
	$lrb compare --all "$1" | awk '/ n=[0-9]/ { s = $1; for (i = 2; i <= NF; i++) if ($i ~ /^n=/) s = s " " $i; print s }'
}
runs_of() { q "$1" "SELECT v.name, r.rep, r.ord, r.seed, r.status FROM run r JOIN variant v ON v.id = r.variant_id ORDER BY r.ord, v.name"; }
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }

# JOB: "STATE EXIT" of a job, or of each array task "TASK:STATE EXIT;..."
job_state() {
	scontrol -o show job "$1" 2> /dev/null |
		sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1:\2 \3/p; t; s/.*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1 \2/p' |
		sort -n | paste -sd';'
}
# JOB SECONDS: wait until the job (the merge job, last of a submission) has ended
wait_job() {
	local end=$((SECONDS + $2)) st
	while ((SECONDS < end)); do
		st=$(job_state "$1")
		case ${st%% *} in
		COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE) return 0 ;;
		esac
		sleep 2
	done
	return 1
}
# NAME [env...]: queue the plan as 2 shards; sets jid (array) and mid (merge)
submit() {
	local name=$1 line
	shift
	if ! line=$(env "$@" scripts/ci/slurm-submit.sh "$plan" 2 2> "$tmp/$name.submit.err"); then
		bad "$name" "slurm-submit.sh failed: $(tail -3 "$tmp/$name.submit.err")"; return 1
	fi
	[[ $line =~ ^shards:\ array\ job\ ([0-9]+)\ .*merge:\ job\ ([0-9]+)$ ]] ||
		{ bad "$name" "slurm-submit.sh printed '$line'"; return 1; }
	jid=${BASH_REMATCH[1]} mid=${BASH_REMATCH[2]}
	dir=$LRUBENCH_RESULTS/slurm-$jid mlog=$LRUBENCH_RESULTS/slurm-merge-$mid.log
}
finish() { # NAME: wait for the merge job (7 min at most)
	local t0=$EPOCHREALTIME
	if ! wait_job "$mid" 420; then
		bad "$1" "merge job $mid not done after 7 min: array $(job_state "$jid"), merge $(job_state "$mid")"
		scancel "$jid" "$mid" 2> /dev/null
		return 1
	fi
	took=$(elapsed "$t0")
}

test_cluster() {
	local t0=$EPOCHREALTIME
	if ! scripts/ci/slurm-cluster.sh start "$cluster" > "$tmp/start.out" 2> "$tmp/start.err"; then
		bad cluster "slurm-cluster.sh start failed: $(tail -8 "$tmp/start.err")"; return 1
	fi
	local node; node=$(scontrol -o show node 2> /dev/null | grep -o 'NodeName=[^ ]*\|CPUTot=[0-9]*\|RealMemory=[0-9]*\|State=[A-Z]*' | paste -sd' ')
	local pids; pids=$(cat "$cluster"/{munged,slurmctld,slurmd}.pid 2> /dev/null | paste -sd' ')
	[[ $node == *State=IDLE* && $(wc -w <<< "$pids") == 3 ]] ||
		{ bad cluster "node '$node', daemons '$pids'"; return 1; }
	ok "cluster: one node up in $(elapsed "$t0") s: $node; munged, slurmctld, slurmd pids $pids"
}

test_whole() {
	local rc=0 took
	$lrb run $plan --db "$tmp/full.db" > /dev/null 2> "$tmp/full.err" || rc=$?
	verdict_rc $rc || { bad whole "unsharded run failed (exit $rc): $(tail -3 "$tmp/full.err")"; return; }
	submit whole || return
	finish whole || return
	local tasks merge; tasks=$(job_state "$jid") merge=$(job_state "$mid")
	[[ $tasks == "1:COMPLETED 0:0;2:COMPLETED 0:0" && $merge =~ ^(COMPLETED\ 0:0|FAILED\ 1:0)$ ]] ||
		{ bad whole "array $tasks, merge $merge: $(tail -5 "$mlog")"; return; }
	local want got
	want=$(runs_of "$tmp/full.db"); got=$(runs_of "$dir/merged.db")
	[[ $got == "$want" && $(q "$dir/merged.db" "SELECT COUNT(*) FROM run WHERE status = 'completed'") == 4 ]] ||
		{ bad whole "merged runs differ from the unsharded campaign's: '$got' vs '$want'"; return; }
	[[ $(q "$dir/merged.db" "PRAGMA integrity_check") == ok ]] || { bad whole "merged.db fails integrity_check"; return; }
	struct "$tmp/full.db" > "$tmp/full.struct"; struct "$dir/merged.db" > "$tmp/merged.struct"
	if ! [[ -s $tmp/full.struct ]] || ! diff "$tmp/full.struct" "$tmp/merged.struct" > "$tmp/struct.diff"; then
		bad whole "compare rows or n differ: $(head -5 "$tmp/struct.diff")"; return
	fi
	local md; md=$(grep -m1 '/report\.md$' "$mlog")
	[[ -n $md && -s $md && -s ${md%/report.md}/index.html ]] ||
		{ bad whole "no report written by the merge job: $(tail -5 "$mlog")"; return; }
	ok "whole: array $jid ($tasks) and merge $mid ($merge) in $took s; merged = unsharded (runs, seeds, status, $(wc -l < "$tmp/full.struct") compare rows with n); report $md"
}

test_fault() {
	local took
	# --fault-run counts places in the whole campaign: shard 2/2 holds places 3 and 4
	submit fault LRB_SHARD_ARGS_2="--fault panic@2000 --fault-run 3" || return
	finish fault || return
	local tasks merge st; tasks=$(job_state "$jid") merge=$(job_state "$mid")
	st=$(q "$dir/merged.db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	if [[ $tasks == "1:COMPLETED 0:0;2:FAILED 3:0" && $merge == "FAILED 3:0" && $st == *failed-kernel* ]] &&
		grep -q "shard 2/2 failed: task ${jid}_2 exited 3" "$mlog" && grep -q 'the campaign is incomplete' "$mlog"; then
		ok "fault: shard 2 panicked: array $tasks, merge $merge (the campaign's status) in $took s; runs: $st"
	else
		bad fault "array $tasks, merge $merge, runs '$st': $(tail -5 "$mlog")"
	fi
}

test_cancel() {
	local took
	submit cancel || return
	# the first task to run, cancelled once its first guest is up (a run 'running')
	local end=$((SECONDS + 300)) task='' st
	while ((SECONDS < end)) && [[ -z $task ]]; do
		for i in 1 2; do
			# read-only, and only once lrubench made it: sqlite3 would create it
			[[ -s $dir/shard-$i.db ]] || continue
			st=$(sqlite3 -readonly -batch -noheader "$dir/shard-$i.db" "SELECT COUNT(*) FROM run WHERE status = 'running'" 2> /dev/null)
			[[ ${st:-0} -gt 0 ]] && task=$i && break
		done
		sleep 1
	done
	[[ -n $task ]] || { bad cancel "no task started a run in 5 min: $(job_state "$jid")"; scancel "$jid" "$mid"; return; }
	local ni; ni=$(pgrep -f "shard-$task.db" | head -1 | xargs -r ps -o ni= -p | tr -d ' ')
	scancel "${jid}_$task"
	finish cancel || return
	local tasks merge left; tasks=$(job_state "$jid") merge=$(job_state "$mid")
	left=$(pgrep -f "$dir/shard-$task.db" | paste -sd' ')
	if [[ $tasks == *"$task:CANCELLED"* && $merge == "FAILED 3:0" && -z $left ]] &&
		grep -q "shard $task/2 is missing: task ${jid}_$task did not finish" "$mlog" &&
		grep -q "1 of 2 shards missing: $task" "$mlog"; then
		ok "cancel: task ${jid}_$task cancelled mid-run (lrubench at nice $ni), no process left; array $tasks, merge $merge in $took s: $(grep -m1 'is missing' "$mlog")"
	else
		bad cancel "array $tasks, merge $merge, left '$left': $(tail -5 "$mlog")"
	fi
}

if test_cluster; then
	test_whole
	test_fault
	test_cancel
fi
diag "slurm.t wall time: $(elapsed "$t_start") s"
done_testing
