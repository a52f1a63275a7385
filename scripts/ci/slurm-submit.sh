#!/bin/bash
# Queue a sharded lrubench campaign on Slurm: the shards as an array job and
# the merge as a job that depends on it. Run from the repository's root on a
# shared filesystem:
#
#   scripts/ci/slurm-submit.sh PLAN SHARDS [HIST.db]
#
# Builds (unless LRUBENCH_BUILD names a build already made) and fetches
# Debian's kernel first, so the tasks share them instead of racing to make
# them. Slurm does the scheduling; this only submits, and prints
#   shards: array job JOB (RESULTS/slurm-JOB/), merge: job MERGEJOB
# RESULTS is $LRUBENCH_RESULTS, else results/: the shards' databases, the
# merged one and every job's log go there (slurm-JOB_I.log, slurm-merge-MERGEJOB.log).
# The jobs get the submitter's environment (LRB_JOBS, LRB_SHARD_ARGS_I:
# see slurm-array.sh).
set -euo pipefail

if (($# < 2 || $# > 3)); then
	echo "usage: $0 PLAN SHARDS [HIST.db]" >&2
	exit 2
fi
plan=$1 shards=$2 hist=${3:-}
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
	echo "slurm-submit: SHARDS must be a positive number, not '$shards'" >&2
	exit 2
fi
[[ -r $plan ]] || { echo "slurm-submit: cannot read the plan '$plan'" >&2; exit 2; }
res=${LRUBENCH_RESULTS:-results}
# sbatch --export separates variables with commas
if [[ $plan == *,* || $hist == *,* || $res == *,* ]]; then
	echo "slurm-submit: paths with ',' cannot pass through sbatch --export" >&2
	exit 2
fi
if [[ -z ${LRUBENCH_BUILD:-} ]]; then
	make all
fi
lrb=${LRUBENCH_BUILD:-build}/lrubench
"$lrb" kernel fetch > /dev/null
# the jobs' logs: Slurm opens them before the script runs, in a directory that must exist
mkdir -p "$res"
jid=$(sbatch --parsable --array="1-$shards" --output="$res/slurm-%A_%a.log" \
	--export="ALL,LRB_PLAN=$plan" scripts/ci/slurm-array.sh)
jid=${jid%%;*}
mid=$(sbatch --parsable --dependency="afterany:$jid" --output="$res/slurm-merge-%j.log" \
	--export="ALL,LRB_ARRAY_JOB=$jid,LRB_SHARDS=$shards,LRB_HISTORY=$hist" scripts/ci/slurm-merge.sh)
echo "shards: array job $jid ($res/slurm-$jid/), merge: job ${mid%%;*}"
