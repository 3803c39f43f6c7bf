#!/usr/bin/env bash
# The typed leg against a recorded herdr 0.8.2 sequence (issue 11): `typed::deliver` with the
# production timings over the real herdr adapter and the real profiles, replaying the real
# Codex 0.171.0 and Claude Code 2.1.332 of tests/data/herdr-0.8.2/real/ (idle → draft typed →
# working), each herdr call taking the median that kind of call took against a 0.8.2 server.
# Beside it: the same send had the recent rows been read as text, as the previous adapter did
# (the recorded 270–480 ms each time herdr scrolled the idle CLI to collect them). A figure, not
# a timed assertion (host/src/legs/typed/tests_herdr_bench.rs).
#
#   bash bench/herdr-typed.sh              # release build
#   PROFILE=dev RUNS=30 bash bench/herdr-typed.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cd "$root"
flag=--release
[ "${PROFILE:-release}" = dev ] && flag=
RUNS="${RUNS:-15}" cargo test $flag -p team --lib --locked legs::typed::tests_herdr_bench -- --ignored --nocapture 2>/dev/null \
  | sed -n '/^typed leg/,/^test /p' | grep -v '^test '
