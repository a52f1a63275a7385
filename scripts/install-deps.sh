#!/bin/bash
# Install the Debian packages lrubench needs, only those missing.
# Idempotent and quick when everything is present (one dpkg-query call).
#   --slurm  also Slurm and munge, for the slurm integration test (make
#            check-full). Its cluster runs its own daemons from a directory
#            (scripts/ci/slurm-cluster.sh); where systemd runs, the system's
#            own units these packages enable are disabled again, so that a
#            developer's machine does not start a Slurm daemon it never asked for.
set -euo pipefail
slurm=
[[ ${1:-} == --slurm ]] && slurm=1

pkgs=(
	build-essential pkg-config
	qemu-system-x86 qemu-utils	# guests
	linux-source-6.1 xz-utils	# libperf (tools/lib/perf) and kernel builds
	linux-source-6.12		# kernels/minimal-6.12.ini and the kbuild612 test
	flex bison bc libelf-dev libssl-dev dwarves
	ccache patch git		# kernel builds from recipes (kernels/*.ini)
	kmod cpio e2fsprogs zstd	# depmod, initramfs, scratch disks
	libcgroup-dev			# memcgs in the guest agent (static)
	libsqlite3-dev sqlite3		# the store
	libgsl-dev			# statistics
	liblzma-dev libzstd-dev zlib1g-dev	# compressed kernel modules (.ko.xz .ko.zst .ko.gz)
	gnuplot-nox			# plots
	poppler-utils			# the PDF deck: pdfunite assembles it, pdftoppm checks it
	libcmocka-dev			# unit tests
	fio sysbench			# workloads
	libjson-c-dev			# fio's JSON output, parsed in the guest (static)
	clang libclang-rt-14-dev	# fuzzing
	libxml2-utils			# xmllint checks of reports
	python3-jsonschema		# the KCIDB export validated against its schema (kcidb.t)
	cppcheck			# make lint (scripts/lint.sh)
)
slurm_pkgs=(slurmctld slurmd slurm-client munge)
[[ -n $slurm ]] && pkgs+=("${slurm_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
	[[ $p == \#* ]] && continue
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[[ $st == installed ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
	exit 0
fi
if [[ $(id -u) != 0 ]]; then
	echo "install-deps: missing packages: ${missing[*]} (run as root or install them)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2 || true
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
if [[ -n $slurm && -d /run/systemd/system ]]; then
	for p in "${missing[@]}"; do
		case $p in slurmctld | slurmd | munge) systemctl disable --now "$p" >&2 || true ;; esac
	done
fi
