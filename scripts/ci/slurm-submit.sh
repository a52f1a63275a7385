#!/bin/bash
# Queue a sharded lrubench campaign on Slurm: the shards as an array job and
# the merge as a job that depends on it. Run from the repository's root on a
# shared filesystem:
#
#   scripts/ci/slurm-submit.sh PLAN SHARDS [HIST.db]
#
# Builds and fetches Debian's kernel first, so the tasks share them instead of
# racing to make them. Slurm does the scheduling; this only submits.
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
# sbatch --export separates variables with commas
if [[ $plan == *,* || $hist == *,* ]]; then
	echo "slurm-submit: paths with ',' cannot pass through sbatch --export" >&2
	exit 2
fi
make all
build/lrubench kernel fetch > /dev/null
mkdir -p results
jid=$(sbatch --parsable --array="1-$shards" --export="ALL,LRB_PLAN=$plan" scripts/ci/slurm-array.sh)
jid=${jid%%;*}
mid=$(sbatch --parsable --dependency="afterany:$jid" \
	--export="ALL,LRB_ARRAY_JOB=$jid,LRB_SHARDS=$shards,LRB_HISTORY=$hist" scripts/ci/slurm-merge.sh)
echo "shards: array job $jid (results/slurm-$jid/), merge: job ${mid%%;*}"
