#!/bin/bash
# lrubench on Slurm, one shard of a plan per array task. Submit it with
# scripts/ci/slurm-submit.sh (which also queues slurm-merge.sh after it), or
# by hand from the repository's root on a shared filesystem:
#
#   jid=$(sbatch --parsable --array=1-4 --export=ALL,LRB_PLAN=workloads/plans/default.ini \
#         scripts/ci/slurm-array.sh)
#   sbatch --dependency=afterany:$jid --export=ALL,LRB_ARRAY_JOB=$jid scripts/ci/slurm-merge.sh
#
# The tasks are the shards 1..N of --array=1-N (N at most the plan's
# repetitions). Each writes results/slurm-JOB/shard-I.db (its log:
# results/slurm-JOB_I.log; Slurm creates no directory for it). Nodes need Debian 12
# with 'make deps' done, and /dev/kvm usable by the job's user (else guests run
# under TCG, many times slower). Build and fetch the kernel before submitting
# (slurm-submit.sh does): tasks share build/ and kernels/cache/.
#
#SBATCH --job-name=lrubench-shard
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=results/slurm-%A_%a.log
set -euo pipefail

: "${SLURM_ARRAY_TASK_ID:?run this as a Slurm array job (sbatch --array=1-N)}"
: "${LRB_PLAN:?set LRB_PLAN to the plan (sbatch --export=ALL,LRB_PLAN=...)}"
if [[ $SLURM_ARRAY_TASK_MIN != 1 || $SLURM_ARRAY_TASK_MAX != "$SLURM_ARRAY_TASK_COUNT" ]]; then
	echo "slurm-array: --array must be 1-N (got $SLURM_ARRAY_TASK_MIN-$SLURM_ARRAY_TASK_MAX of $SLURM_ARRAY_TASK_COUNT)" >&2
	exit 2
fi
cd "${SLURM_SUBMIT_DIR:-.}"
out=results/slurm-$SLURM_ARRAY_JOB_ID
mkdir -p "$out"
# -j: guests at once within this task's CPUs (LRB_JOBS, default 1)
exec build/lrubench run "$LRB_PLAN" -j "${LRB_JOBS:-1}" \
	--shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" --db "$out/shard-$SLURM_ARRAY_TASK_ID.db"
