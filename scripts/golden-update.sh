#!/bin/bash
# Regenerate the golden outputs of harness/tests/integration/golden.t:
#   scripts/golden-update.sh [BUILD_DIR]                  expected/ from campaign.sql
#   scripts/golden-update.sh --campaign DB [BUILD_DIR]    campaign.sql from DB first
#
# ONLY for an intended change of output: a new report section, a reworded
# line, a fixed number. The golden test exists to catch every other change
# (a refactor must render the same campaign byte for byte), so never run this
# to make a failing golden test pass. Read the whole diff it leaves in
# harness/tests/fixtures/golden/expected/ (git diff) and commit it with the
# change that caused it, saying why the output changed.
#
# --campaign DB replaces the stored campaign itself (a new fixture: run a
# plan, e.g. harness/tests/plans/golden.ini, then give its database here);
# update the fixture's README.md (plan, commit, date) by hand after it.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=harness/tests/fixtures/golden

db=
if [[ ${1:-} == --campaign ]]; then
	(($# >= 2)) || { echo "usage: $0 [--campaign DB] [BUILD_DIR]" >&2; exit 2; }
	db=$2
	shift 2
fi
(($# <= 1)) || { echo "usage: $0 [--campaign DB] [BUILD_DIR]" >&2; exit 2; }
build=${1:-build}

if [[ -n $db ]]; then
	[[ -r $db ]] || { echo "golden-update: cannot read $db" >&2; exit 2; }
	# .dump leaves out user_version, the schema version lrubench checks when it
	# opens a database (store.c): carry it over, or the rebuilt database is refused.
	{
		sqlite3 -batch "$db" .dump
		echo "-- .dump leaves out PRAGMA user_version, the schema version lrubench checks (store.c):"
		echo "PRAGMA user_version=$(sqlite3 -batch "$db" 'PRAGMA user_version');"
	} > "$fix/campaign.sql.tmp"
	mv "$fix/campaign.sql.tmp" "$fix/campaign.sql"
	echo "golden-update: $fix/campaign.sql from $db, $(wc -c < "$fix/campaign.sql") bytes" >&2
fi

tmp=$(mktemp -d /tmp/lrubench-golden-update.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$fix/render.sh" "$build" "$tmp"
rm -rf "$fix/expected"
cp -r "$tmp/golden" "$fix/expected"
echo "golden-update: $fix/expected/ rendered by $("$build/lrubench" --version); read the diff before committing it:" >&2
git status --short -- "$fix" >&2
git diff --stat -- "$fix" >&2
