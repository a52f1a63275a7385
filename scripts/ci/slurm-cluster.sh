#!/bin/bash
# A one-node Slurm cluster on this machine, for testing the Slurm scripts
# beside this one against a real controller (harness/tests/integration/slurm.t):
#
#   scripts/ci/slurm-cluster.sh start DIR    prints the line to export: SLURM_CONF=DIR/slurm.conf
#   scripts/ci/slurm-cluster.sh stop DIR
#
# Everything lives in DIR: slurm.conf (this host the one node, with the CPUs
# and memory 'slurmd -C' finds), a munge key and socket, the daemons' pid
# files, logs and state. munged, slurmctld and slurmd run as daemons of the
# user running this (root: slurmd starts jobs as their submitter) and are
# stopped by their pids; nothing is written outside DIR, no systemd unit is
# touched and /etc/slurm is not read (the tools take SLURM_CONF).
# The least demanding plugins, which work in a container: proctrack/linuxproc
# (no cgroups), task/none, no accounting (squeue and scontrol show job tell a
# job's state; finished jobs stay MinJobAge seconds).
# Ports: LRB_SLURM_PORT (default 6917) for slurmctld, the next for slurmd.
# Needs slurmctld, slurmd, slurm-client and munge (scripts/install-deps.sh).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
(($# == 2)) || usage
cmd=$1
[[ $cmd == start || $cmd == stop ]] || usage
dir=$(realpath -m -- "$2")
port=${LRB_SLURM_PORT:-6917}
if ! [[ $port =~ ^[0-9]+$ ]] || ((port < 1024 || port > 65534)); then
	echo "slurm-cluster: LRB_SLURM_PORT must be a port 1024-65534, not '$port'" >&2
	exit 2
fi

# stop_pid NAME: SIGTERM the daemon of DIR/NAME.pid, wait up to 20 s, then SIGKILL.
stop_pid() {
	local f=$dir/$1.pid pid i
	[[ -s $f ]] || return 0
	pid=$(< "$f")
	[[ $pid =~ ^[0-9]+$ ]] || { echo "slurm-cluster: $f holds '$pid', not a pid" >&2; return 1; }
	# only the daemon this cluster started: its command line names DIR
	if kill -0 "$pid" 2> /dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$dir"; then
		kill -TERM "$pid"
		for ((i = 0; i < 200; i++)); do
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2> /dev/null; then
			echo "slurm-cluster: $1 (pid $pid) ignored SIGTERM for 20 s, killing it" >&2
			kill -KILL "$pid" 2> /dev/null || true
		fi
	fi
	rm -f "$f"
}

if [[ $cmd == stop ]]; then
	[[ -d $dir ]] || { echo "slurm-cluster: no cluster directory $dir" >&2; exit 2; }
	rc=0
	# jobs still running end with slurmd (linuxproc kills their processes)
	SLURM_CONF=$dir/slurm.conf scancel --quiet --user "$(id -un)" 2> /dev/null || true
	for d in slurmd slurmctld munged; do stop_pid "$d" || rc=1; done
	exit $rc
fi

for p in munged mungekey slurmctld slurmd scontrol; do
	command -v "$p" > /dev/null || { echo "slurm-cluster: $p not found (scripts/install-deps.sh installs munge and Slurm)" >&2; exit 2; }
done
mkdir -p "$dir"
for d in slurmd slurmctld munged; do
	[[ ! -s $dir/$d.pid ]] || ! kill -0 "$(< "$dir/$d.pid")" 2> /dev/null ||
		{ echo "slurm-cluster: $d already runs for $dir (pid $(< "$dir/$d.pid")); stop it first" >&2; exit 2; }
done
# munged wants its socket's directory searchable by all (clients of every user)
chmod 711 "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/log"

# munge: its own key and socket, nothing in /etc/munge or /run/munge
[[ -s $dir/munge.key ]] || mungekey --create --keyfile="$dir/munge.key" --bits=1024
chmod 600 "$dir/munge.key"
munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
	--log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed"

host=$(hostname -s)
# CPUs, sockets, cores, threads and memory as slurmd finds them
node=$(slurmd -C | head -1)
[[ $node == NodeName=* ]] || { echo "slurm-cluster: slurmd -C printed '$node'" >&2; exit 1; }
node="NodeName=$host ${node#NodeName=* }"
user=$(id -un)
cat > "$dir/slurm.conf" << EOF
# A one-node test cluster written by scripts/ci/slurm-cluster.sh
ClusterName=lrubench
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MinJobAge=3600
KillWait=10
MpiDefault=none
MailProg=/bin/true
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
# -i: ignore state saved by an earlier cluster in DIR
slurmctld -i -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# up when the node is idle
for ((i = 0; i < 300; i++)); do
	st=$(sinfo -h -n "$host" -o %t 2> /dev/null || true)
	[[ $st == idle ]] && break
	sleep 0.1
done
if [[ $st != idle ]]; then
	echo "slurm-cluster: node $host is '${st:-unknown}' after 30 s, not idle; logs in $dir/log:" >&2
	tail -5 "$dir"/log/*.log >&2
	exit 1
fi
echo "SLURM_CONF=$SLURM_CONF"
