#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- your own tree: a branch on top of a mainline-like history, git + ref --
# The repository is linux-source-6.12 as one commit tagged v6.12.118 and a
# branch my-series of two commits (vm.swappiness 100, a comment), as a
# developer's patch series on mainline. A recipe naming the branch (git + ref)
# builds and boots it (the guest sees swappiness 100); a recipe applying the
# range v6.12.118..my-series to the tarball resolves (its patches apply).
# ccache being warm from kbuild612, the build recompiles little.
test_owntree612() {
	local repo=$tmp/linux612 out=$tmp/owntree k=$PWD/kernels t0=$SECONDS
	mkdir -p "$out"
	local frags="fragment = $k/minimal.config
fragment = $k/minimal-6.12.config
fragment = $k/lrubench.config
fragment = $k/lrubench-6.12.config"
	(
		linux_repo "$repo" /usr/src/linux-source-6.12.tar.xz "Linux 6.12.118 (linux-source-6.12)" &&
			git tag v6.12.118 && git checkout -q -b my-series &&
			sed -i 's/^int vm_swappiness = 60;$/int vm_swappiness = 100;/' mm/vmscan.c &&
			git commit -q -am "mm/vmscan: default vm.swappiness to 100" &&
			sed -i '1a /* my-series: a second commit. */' mm/workingset.c &&
			git commit -q -am "mm/workingset: a comment"
	) > "$out/repo.log" 2>&1 || { bad owntree612 "could not make the repository: $(tail -3 "$out/repo.log")"; return; }
	local trepo=$((SECONDS - t0))
	printf '[source]\ngit = %s\nref = my-series\n[config]\nbase = minimal\n%s\n' "$repo" "$frags" > "$out/mine.ini"
	printf '[source]\ntarball = /usr/src/linux-source-6.12.tar.xz\n[patches]\nrange = v6.12.118..my-series\nrepo = %s\n[config]\nbase = minimal\n%s\n' "$repo" "$frags" > "$out/range.ini"
	local rc=0 db=$out/mine.db
	$lrb run harness/tests/plans/one.ini --kernel "$out/mine.ini" --db "$db" > "$out/run.out" 2> "$out/run.err" || rc=$?
	[[ $rc == 0 || $rc == 1 ]] || { bad owntree612 "run on git + ref failed (exit $rc): $(tail -8 "$out/run.err")"; return; }
	local head; head=$(git -C "$repo" rev-parse my-series)
	local got; got=$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM run_prov WHERE key IN ('kernel.source', 'kernel.source_id', 'guest.conf.vm/swappiness') ORDER BY key")
	[[ $(q "$db" "SELECT status FROM run") == completed && $got == *"guest.conf.vm/swappiness=100"* &&
		$got == *"kernel.source=git:$repo@my-series"* && $got == *"kernel.source_id=git:$head"* ]] ||
		{ bad owntree612 "the branch's kernel did not run as built: $got"; return; }
	local rel; rel=$(q "$db" "SELECT value FROM run_prov WHERE key='guest.kernel_release'")
	[[ $rel == 6.12.118-lrb-* ]] || { bad owntree612 "guest release $rel"; return; }
	rc=0; $lrb kernel check "$out/range.ini" > "$out/range.out" 2> "$out/range.err" || rc=$?
	[[ $rc == 0 ]] && grep -q 'patch 1/1: v6.12.118..my-series' "$out/range.err" ||
		{ bad owntree612 "range recipe: exit $rc: $(tail -4 "$out/range.out" "$out/range.err")"; return; }
	# The developer's tree is as it was: the branch checked out, nothing changed.
	[[ -z $(git -C "$repo" status --porcelain) && $(git -C "$repo" rev-parse --abbrev-ref HEAD) == my-series ]] ||
		{ bad owntree612 "the repository's work tree changed"; return; }
	ok "owntree612: git + ref of a branch on v6.12.118 built and booted ($rel, swappiness 100 from the branch), the range v6.12.118..my-series applies to the tarball; repository ${trepo} s, all $((SECONDS - t0)) s"
}

test_owntree612
done_testing
