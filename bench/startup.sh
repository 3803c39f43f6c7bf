#!/usr/bin/env bash
# Whole-process start-up time of `team send --list` and `team send <seat> x --dry-run` in a
# fixture world (the spec's team file in a temp checkout; config/state/cache/HOME in temp dirs),
# side by side with `node -e 0` — a scripting-language CLI's bare start. Target: ≤ 5 ms median.
#
#   bash bench/startup.sh            # builds the release binary, prints hyperfine's tables + medians
#   TEAM_BIN=/path/to/team bash bench/startup.sh   # measure a binary you built
#
# `team send` refuses a run with no terminal, so the measurements run inside `script`: hyperfine
# and every command it starts share a pseudo-terminal, and no wrapper process is timed.
#
# Measured 2026-11-29 on the 2-core development machine (other builds running, load ~3.4),
# release build of main cfb10a7, hyperfine -N, 20 warm-ups, 300 runs — medians:
#   team send --list                     1.62 ms
#   team send gpt-reviewer x --dry-run   1.66 ms
#   node -e 0                           74.15 ms
# Re-measured 2026-12-01 (load 3.6–5), vendor facts now read from the profiles' descriptions
# (bundled ones embedded at build time; the caller reads every installed profile's), the two
# binaries run alternately, three rounds — medians of the quiet rounds:
#   before (main 675b0e0)   --list 1.71–1.78 ms   dry run 1.75–1.76 ms
#   after  (core)           --list 1.82–1.83 ms   dry run 1.85–1.86 ms
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
. "$here/lib.sh"

if [ "${1:-}" != "--inner" ]; then
  if [ -z "${TEAM_BIN:-}" ]; then
    (cd "$repo" && cargo build --release -p team --locked)
    TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
  fi
  export TEAM_BIN
  need startup.sh hyperfine script
  # A pty for hyperfine and its children.
  run_inner_in_pty "$here/startup.sh"
  exit 0
fi

# ---- inner: runs with a controlling terminal -------------------------------------------------
exec >"$BENCH_OUT/report.txt" 2>&1
world="$(mktemp -d)"
trap 'rm -rf "$world"' EXIT
mkdir -p "$world/beacon/.git" "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache"
printf 'ref: refs/heads/main\n' >"$world/beacon/.git/HEAD"   # a checkout root (an empty .git is none)
cat >"$world/beacon/.agents/team.yaml" <<'YAML'
format: 1
project: beacon
coordinator: claude-keeper
operator: claude-keeper

trust:
  - ~/.config/team/lobby
  - ~/Code/beacon

workspace:
  mode: shared

seats:
  - role: coordinator
    name: claude-keeper
    nickname: agamemnon
    label: coordinator
    cli: claude-code
    vendor: anthropic
    model: Claude Opus
    version: "5.5"
    launch: claude --model claude-opus-5-5

  - role: reviewer
    name: gpt-reviewer
    label: reviewer
    cli: codex
    vendor: openai
    model: GPT Sol
    version: "6"
    launch: codex -m gpt-6-sol
YAML
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" TEAM_CACHE_DIR="$world/cache"
unset TMUX TMUX_PANE HERDR_PANE_ID HERDR_SESSION HERDR_SOCKET_PATH XDG_STATE_HOME XDG_CACHE_HOME
cd "$world/beacon"

echo "binary: $TEAM_BIN"
echo "fixture: the spec's team file; a terminal from script(1)"
echo
for args in "send --list" "send gpt-reviewer x --dry-run"; do
  # shellcheck disable=SC2086
  if ! "$TEAM_BIN" $args >"$world/probe.out" 2>&1; then
    echo "team $args exits non-zero here; its output:"
    cat "$world/probe.out"
    echo
  fi
done

hyperfine -N --warmup 20 --runs 300 --ignore-failure \
  --export-json "$BENCH_OUT/startup.json" \
  -n "team send --list" "$TEAM_BIN send --list" \
  -n "team send gpt-reviewer x --dry-run" "$TEAM_BIN send gpt-reviewer x --dry-run" \
  -n "node -e 0" "node -e 0"

echo
echo "medians:"
if command -v python3 >/dev/null; then
  python3 - "$BENCH_OUT/startup.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  {r['command']:<36} {r['median'] * 1000:7.2f} ms")
PY
else
  grep -E '"command"|"median"' "$BENCH_OUT/startup.json"
fi
