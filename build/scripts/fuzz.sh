#!/usr/bin/env bash
# Runs every Fuzz target of backend/ for a fixed count and prints one line per target; the full
# output of go test is shown only when a target fails. Usage: fuzz.sh COUNT (such as 150000x)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-150000x}
go=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' backend/*/*_test.go | cut -c6-); do
  pkg=$(dirname "$(grep -l "^func $target(" backend/*/*_test.go)")
  start=$(date +%s)
  if ! "$go" test -run='^$' -fuzz="^$target\$" -fuzztime="$count" "./$pkg" >"$log" 2>&1; then
    cat "$log"
    echo "fuzz: $target in $pkg FAILED"
    exit 1
  fi
  echo "fuzz: $target in $pkg: ${count%x} inputs, no failure ($(($(date +%s) - start)) s)"
done
