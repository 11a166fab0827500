#!/usr/bin/env bash
# Fails when SQL appears in a Swift string literal outside the files that own the tables (see
# ARCHITECTURE.md, "Tables and their owners"). Other code calls the owners' typed functions instead.
#
# Usage: scripts/lint-sql.sh [ROOT]   (ROOT defaults to the repository; only ROOT/Sources is checked:
# tests may write SQL to build fixtures.)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"

# The owning files, as path patterns relative to ROOT: the SQLite engine and migrations, the record
# types and `Database+<Table>` extensions of SCLMStore, and each other module's `Database+<Table>` file.
owners=(
    'Sources/SCLMStore/Database.swift'
    'Sources/SCLMStore/Database+*.swift'
    'Sources/SCLMStore/Statement.swift'
    'Sources/SCLMStore/UpsertableRecord.swift'
    'Sources/SCLMStore/*Record.swift'
    'Sources/SCLMStore/Migration/*.swift'
    'Sources/SCLMAuth/Database+*.swift'
    'Sources/SCLMOSAM/Database+*.swift'
)

is_owner() {
    local file="$1" pattern
    for pattern in "${owners[@]}"; do
        # shellcheck disable=SC2053 # the pattern is a glob on purpose
        [[ "$file" == $pattern ]] && return 0
    done
    return 1
}

# SQL as sclm writes it: an upper-case keyword followed by more of a statement (so the HTTP method
# "DELETE" alone is not SQL).
keywords='(SELECT|INSERT|UPDATE|DELETE|REPLACE|UPSERT|CREATE|ALTER|DROP|PRAGMA|WHERE|VACUUM|ATTACH|BEGIN|COMMIT|ROLLBACK|SAVEPOINT)[[:space:]]+[^[:space:]"]'

found=0
while IFS= read -r -d '' path; do
    file="${path#"$root"/}"
    is_owner "$file" && continue
    # Print `line: literal` for each string literal holding SQL: whole lines inside a """ block, and the
    # "…" parts of other lines; comments are skipped.
    hits=$(awk -v keywords="$keywords" '
        function check(text) { if (text ~ keywords) { print FNR ": " text; } }
        {
            line = $0
            quotes = gsub(/"""/, "\"\"\"", line)
            if (inBlock) { check($0); if (quotes % 2 == 1) inBlock = 0; next }
            if (line ~ /^[[:space:]]*\/\//) next
            if (quotes % 2 == 1) { inBlock = 1; next }
            rest = line
            while (match(rest, /"([^"\\]|\\.)*"/)) {
                check(substr(rest, RSTART, RLENGTH))
                rest = substr(rest, RSTART + RLENGTH)
            }
        }' "$path")
    if [[ -n "$hits" ]]; then
        found=1
        while IFS= read -r hit; do echo "$file:$hit"; done <<<"$hits"
    fi
done < <(find "$root/Sources" -name '*.swift' -print0 | sort -z)

if [[ $found -ne 0 ]]; then
    echo "lint-sql: SQL outside the table owners (above); move it into the owner's Database+<Table> file and" \
        "call a typed function (ARCHITECTURE.md, \"Tables and their owners\")" >&2
    exit 1
fi
echo "lint-sql: no SQL outside the table owners"
