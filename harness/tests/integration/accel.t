#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- accel: KVM is probed by booting a guest, never assumed from /dev/kvm ------
# Where the probe's guest reaches the agent, a run under --accel kvm must complete
# and say so in its provenance. Where it does not (this 2-core machine: /dev/kvm
# opens, but QEMU dies setting an MSR), lrubench must say why and fall back to
# TCG, and the KVM run is a counted skip with the probe's reason: the runner
# expects the tag kvm here, and fails a skip of any other tag.
test_accel() {
	local out line why db=$tmp/kvm.db rc=0
	out=$($lrb doctor 2>&1)
	line=$(grep -E '^accel ' <<< "$out")
	[[ -n $line ]] || { bad accel "lrubench doctor printed no accel line: $(tail -3 <<< "$out")"; return; }
	if [[ $line =~ ^accel\ +ok\ +kvm: ]]; then
		$lrb run harness/tests/plans/one.ini --reps 1 --accel kvm --db "$db" > /dev/null 2> "$tmp/kvm.err" || rc=$?
		local st; st=$(q "$db" "SELECT r.status || '|' || p.value FROM run r JOIN run_prov p ON p.run_id = r.id AND p.key = 'accel'")
		[[ $rc == 0 && $st == "completed|kvm" ]] ||
			{ bad accel "a KVM run: exit $rc, status|accel '$st': $(tail -3 "$tmp/kvm.err")"; return; }
		ok "accel: the probe found KVM usable, and a run under it completed with accel=kvm"
		return
	fi
	[[ $line =~ ^accel\ +--\ +tcg:\ (.+):\ using\ TCG$ ]] ||
		{ bad accel "no fallback to TCG with a reason: '$line'"; return; }
	why=${BASH_REMATCH[1]}
	# what the campaigns recorded (slice's, when it ran before): TCG, and why
	local seen=""
	if [[ -s $state/slice.db ]]; then
		local prov; prov=$(q "$state/slice.db" "SELECT DISTINCT a.value || '|' || (w.value <> '') FROM run_prov a JOIN run_prov w ON w.run_id = a.run_id AND w.key = 'accel.why' WHERE a.key = 'accel'")
		[[ $prov == "tcg|1" ]] || { bad accel "slice runs recorded accel|has-why '$prov', want tcg|1"; return; }
		seen=", as the slice campaign recorded"
	fi
	ok "accel: the KVM probe fell back to TCG and said why$seen"
	skip kvm "KVM is not usable here: $why"
}

test_accel
done_testing
