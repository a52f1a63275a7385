#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# An A/B killed mid-campaign resumes with run --resume: the resumed runs boot the
# kernels the recipes built (the variants are re-made from plan.remap), not the plan's.
test_kbuild_resume() {
	local db=$tmp/abk.db out=$tmp/kbuild-resume
	mkdir -p "$out"
	$lrb ab --baseline minimal --patched patched-example --plan harness/tests/plans/ab.ini \
		--db "$db" > /dev/null 2> "$out/ab.err" &
	local pid=$! n=0
	until grep -q 'run 2: variant' "$out/ab.err" || ((n++ > 3000)); do sleep 0.2; done
	sleep 3
	kill -KILL $pid; wait $pid 2> /dev/null
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local first; first=$(q "$db" "SELECT status FROM run WHERE ord = 0")
	local rc=0
	$lrb run --resume "$db" > "$out/resume.out" 2> "$out/resume.err" || rc=$?
	[[ $rc == 3 ]] || { bad kbuild-resume "resume exit $rc, want 3 (one block): $(tail -5 "$out/resume.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(v.name || ':' || r.status, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	local sw; sw=$(q "$db" "SELECT group_concat(v.name || '=' || p.value, ' ') FROM (SELECT * FROM run WHERE status = 'completed' ORDER BY ord) r JOIN variant v ON v.id=r.variant_id JOIN run_prov p ON p.run_id=r.id AND p.key='guest.conf.vm/swappiness'")
	local want="minimal.classic=60 minimal.mglru=60 patched-example.mglru=100 patched-example.classic=100"
	if [[ $ic == ok && $first == completed &&
		$st == "minimal.classic:completed patched-example.classic:failed-infra minimal.mglru:completed patched-example.mglru:completed patched-example.classic:completed" &&
		$sw == "$want" ]]; then
		ok "kbuild-resume: ab killed in run 2, integrity ok, resumed on the built kernels: $sw"
	else
		bad kbuild-resume "integrity '$ic', first '$first', runs '$st', swappiness '$sw' (want '$want'): $(tail -3 "$out/resume.err")"
	fi
}

test_kbuild_resume
done_testing
