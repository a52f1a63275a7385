#!/bin/bash
# QEMU from Debian's bookworm-backports (10.0 when written), unpacked into DIR,
# not installed: the system's QEMU (7.2) stays what every other guest runs on.
# It is for guests of more than one vCPU on the instruction-counted clock
# (clock = instructions): QEMU before 8.1 hangs at "x86: Booting SMP
# configuration" with -icount and -smp 2 (README, "The guest's clock").
# lrubench runs DIR/root/usr/bin/qemu-system-x86_64 with -L for its firmware
# (DIR/root/usr/share/qemu, DIR/root/usr/share/seabios). Its libraries are
# bookworm's, already installed with the system's QEMU.
# Idempotent: nothing is fetched when DIR holds a QEMU that runs. A host that
# cannot reach the archive gets a warning and no DIR; lrubench then refuses
# such plans with this script's name.
#   scripts/fetch-qemu-backports.sh DIR
set -euo pipefail
dir=$(realpath -m "${1:?usage: fetch-qemu-backports.sh DIR}") # apt takes Dir:: paths from /
bin=$dir/root/usr/bin/qemu-system-x86_64
if [[ -x $bin ]] && "$bin" --version > /dev/null 2>&1; then
	exit 0
fi
apt_dir=$dir/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
echo "deb http://deb.debian.org/debian bookworm-backports main" > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root -q)
pkgs=(qemu-system-x86 qemu-system-common qemu-system-data seabios)
echo "fetch-qemu-backports: ${pkgs[*]} from bookworm-backports into $dir" >&2
if ! apt-get "${apt_opts[@]}" update > "$apt_dir/update.log" 2>&1 ||
	! (cd "$apt_dir/debs" && rm -f ./*.deb &&
		apt-get "${apt_opts[@]}" download "${pkgs[@]/%//bookworm-backports}") > "$apt_dir/download.log" 2>&1; then
	echo "fetch-qemu-backports: warning: could not fetch from bookworm-backports (see $apt_dir/*.log);" \
		"plans with clock = instructions and cpus > 1 will be refused" >&2
	exit 0
fi
rm -rf "$dir/root.new"
mkdir -p "$dir/root.new"
for deb in "$apt_dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir/root.new"
done
missing=$(ldd "$dir/root.new/usr/bin/qemu-system-x86_64" | awk '/not found/ {print $1}' | tr '\n' ' ')
if [[ -n $missing ]]; then
	echo "fetch-qemu-backports: its libraries are missing here: $missing(install them from bookworm)" >&2
	exit 1
fi
rm -rf "$dir/root"
mv "$dir/root.new" "$dir/root"
"$bin" --version | head -1 >&2
