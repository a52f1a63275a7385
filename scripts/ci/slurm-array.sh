#!/bin/bash
# lrubench on Slurm, one shard of a plan per array task. Submit it with
# scripts/ci/slurm-submit.sh (which also queues slurm-merge.sh after it), or
# by hand from the repository's root on a shared filesystem:
#
#   mkdir -p results
#   jid=$(sbatch --parsable --array=1-4 --export=ALL,LRB_PLAN=workloads/plans/default.ini \
#         scripts/ci/slurm-array.sh)
#   sbatch --dependency=afterany:$jid --export=ALL,LRB_ARRAY_JOB=$jid,LRB_SHARDS=4 \
#         scripts/ci/slurm-merge.sh
#
# The tasks are the shards 1..N of --array=1-N (N at most the plan's
# repetitions). Task I writes RESULTS/slurm-JOB/shard-I.db and, when lrubench
# has finished (not when the task was cancelled, killed or out of time),
# shard-I.rc with the task's exit status (below): the merge job tells the
# missing and the failed shards by it. RESULTS is $LRUBENCH_RESULTS, else results/; the task's log is
# results/slurm-JOB_I.log (Slurm creates no directory for it: the directory
# must exist when the task starts). Nodes need Debian 12 with 'make deps'
# done, and /dev/kvm usable by the job's user (else guests run under TCG,
# many times slower). Build and fetch the kernel before submitting
# (slurm-submit.sh does): tasks share build/ and kernels/cache/.
#
# Environment (sbatch --export=ALL passes the submitter's):
#   LRB_PLAN          the plan (required)
#   LRB_JOBS          guests at once within the task's CPUs (default 1)
#   LRUBENCH_BUILD    the build directory (default build)
#   LRB_SHARD_ARGS_I  more 'lrubench run' options for shard I alone, split at
#                     spaces (e.g. LRB_SHARD_ARGS_2="--fault panic --fault-run 1")
#
# Exit: 0 when every run of the shard completed (lrubench's 3 for a shard
# alone, short of blocks until merged, is not a failure here), else
# lrubench's status.
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
# sbatch runs a copy of this script from slurmd's spool: paths are the submitter's
cd "${SLURM_SUBMIT_DIR:-.}"
i=$SLURM_ARRAY_TASK_ID n=$SLURM_ARRAY_TASK_COUNT
out=${LRUBENCH_RESULTS:-results}/slurm-$SLURM_ARRAY_JOB_ID
mkdir -p "$out"
rm -f "$out/shard-$i.rc"
extra=LRB_SHARD_ARGS_$i
# shellcheck disable=SC2206 # split at spaces, as documented
args=(${!extra:-})
rc=0
"${LRUBENCH_BUILD:-build}/lrubench" run "$LRB_PLAN" -j "${LRB_JOBS:-1}" "${args[@]}" \
	--shard "$i/$n" --db "$out/shard-$i.db" || rc=$?
if ((rc == 3 && n > 1)) &&
	[[ $(sqlite3 -readonly -batch -noheader "$out/shard-$i.db" "SELECT COUNT(*) FROM run WHERE status <> 'completed'") == 0 ]]; then
	echo "slurm-array: shard $i/$n: every run completed (too few blocks alone: merge the shards)" >&2
	rc=0
fi
echo "$rc" > "$out/shard-$i.rc"
exit "$rc"
