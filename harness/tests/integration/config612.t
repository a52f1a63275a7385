#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- kernel check of minimal-6.12 without building it: the 6.12 series known --
# Not built, kernel check resolves the recipe's config (linux-source-6.12
# extracted once into the kernel cache, shared with kbuild612) and checks it;
# once kbuild612 has built it, it checks the build. Either way the 6.12 zram
# compressors come from zram's own backends, and every option is there.
test_config612() {
	local out=$tmp/config612 rc=0
	mkdir -p "$out"
	$lrb kernel check minimal-6.12 > "$out/check.out" 2> "$out/check.err" || rc=$?
	[[ $rc == 0 ]] || { bad config612 "kernel check minimal-6.12 exit $rc: $(cat "$out/check.out"; tail -5 "$out/check.err")"; return; }
	local how
	if grep -q '^recipe .*not built yet; its resolved config was checked' "$out/check.out"; then
		how="not built, its resolved config checked"
	elif grep -q '^version  6\.12\.' "$out/check.out"; then
		how="the cached build checked"
	else
		bad config612 "neither a recipe line saying it is not built nor a 6.12 version: $(cat "$out/check.out")"; return
	fi
	grep -q '^zram     lzo-rle lzo lz4: since 6.12 zram compresses through its own backends' "$out/check.out" ||
		{ bad config612 "no 6.12 zram line: $(cat "$out/check.out")"; return; }
	grep -q '^ok: ' "$out/check.out" || { bad config612 "no ok line: $(cat "$out/check.out")"; return; }
	ok "config612: kernel check minimal-6.12 ($how): zram lzo-rle through the 6.12 backends, every option there"
}

test_config612
done_testing
