#!/usr/bin/env bash
# Runs one build step and says what it is doing and how long it took, so a long build is never
# silent. Usage: step.sh "what the step does" COMMAND [ARGS...]
set -euo pipefail
what=$1
shift
echo "==> $what"
start=$(date +%s)
"$@"
echo "    done in $(($(date +%s) - start)) s"
