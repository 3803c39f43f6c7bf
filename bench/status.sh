#!/usr/bin/env bash
# Whole-process time of `team status` for a 6-seat team on tmux: six fake seats (real Claude
# Code and Codex screens: idle, working, a permission dialog, a draft, an exited CLI, and one
# more idle) in a private tmux server, each located, read and classified by its profile, with a
# history of 300 lines to find each seat's last message in. Target: ≤ 150 ms median.
# One tmux call's cost (`tmux display-message -p`) is measured beside it.
#
#   bash bench/status.sh                      # builds the release binary, prints hyperfine's table
#   TEAM_BIN=/path/to/team bash bench/status.sh   # FAKE_SEAT_BIN: the test double (default: beside it)
#   RUNS=100 bash bench/status.sh
#
# `team status` needs no terminal (it types nothing and reads no caller), so it runs bare.
#
# Measured 2026-12-01 on the 2-core development machine (other helpers' builds running, load
# 6.9), release build of the init branch, hyperfine -N, 10 warm-ups, 50 runs — medians:
#   team status (6 seats)            53.2 ms   (min 25.8 ms)
#   tmux display-message -p x         4.0 ms   (one tmux call)
# The debug build, same world: 82.8 ms. Re-measured after merging main (ce38b94: seats located
# through the registry's pane first), release build, load 8.2–9.2: 68.3 ms (tmux call 4.0 ms).
# 2026-12-06, reads settled into whole frames (host/src/mux/frame.rs; status looks at every pane
# once first, so the six seats wait one quiet time), debug builds one after the other under load
# (four other builds running), 30 runs each, medians: before 45.0 / 57.9 / 91.7 ms, after
# 83.0 / 133.3 / 78.4 ms (tmux call 1.6–4.5 ms) — about +30 ms, two captures a pane instead of one.
# The release build with settled reads (26973dd), machine idle, 30 runs: 50.3 ms (tmux call 2.3 ms).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
runs="${RUNS:-50}"

if [ -z "${TEAM_BIN:-}" ]; then
  # (`test-fakes` builds the test double `fake-seat` beside `team`; the `team` it builds is the
  # product's own entry, which never opens the test hooks)
  (cd "$repo" && cargo build --release -p team --features test-fakes --locked)
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
fi
FAKE_SEAT_BIN="${FAKE_SEAT_BIN:-$(dirname "$TEAM_BIN")/fake-seat}"
[ -x "$FAKE_SEAT_BIN" ] || {
  echo "bench/status.sh: no fake seat at $FAKE_SEAT_BIN: build it (cargo build --release -p team --features test-fakes) or set FAKE_SEAT_BIN" >&2
  exit 2
}
command -v tmux >/dev/null || { echo "bench/status.sh: tmux is not installed" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench/status.sh: hyperfine is not installed" >&2; exit 2; }

world="$(mktemp -d)"
sock="$world/tmux.sock"
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$world"; }
trap cleanup EXIT
mkdir -p "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache"
git -C "$world/beacon" init -q
seats="keeper:claude-code:takes-line worker:claude-code:already-working rev:codex:dialog:permission
drafter:codex:draft gone:codex:exited helper:codex:takes-line"
{
  printf 'format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:\n'
  for s in $seats; do IFS=: read -r seat cli _ <<<"$s"; printf '  - name: %s\n    cli: %s\n' "$seat" "$cli"; done
} >"$world/beacon/.agents/team.yaml"
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" \
  TEAM_CACHE_DIR="$world/cache" TEAM_TMUX_SOCKET="$sock"
unset TMUX TMUX_PANE HERDR_PANE_ID
tmux -S "$sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 -n keep sh
for s in $seats; do
  IFS=: read -r seat cli mode <<<"$s"
  pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t beacon: -c "$world/beacon" \
    "'$FAKE_SEAT_BIN' --cli $cli --mode $mode --log '$world/$seat.log'; exec sh")
  tmux -S "$sock" set-option -p -t "$pane" @team-seat "$seat"
done
# A history to read: 300 lines, 50 to each seat (the history folder is the project's).
hash=$(printf %s "$(cd "$world/beacon" && pwd -P)" | sha256sum | cut -c1-8)
hist="$TEAM_CONFIG_DIR/beacon-$hash"
mkdir -p "$hist" && chmod 700 "$TEAM_CONFIG_DIR" "$hist"
for i in $(seq 50); do
  for s in $seats; do
    seat="${s%%:*}"
    printf '{"ts":"2026-12-01T09:%02d:00Z","from":"owner","to":"%s","body":"from the owner — admitted by: the owner\\n\\nmessage %s","id":"00000000-0000-4000-8000-%012d","outcome":"delivered","ms":120,"via":"typed"}\n' \
      $((i % 60)) "$seat" "$i" "$i"
  done
done >"$hist/messages.jsonl"
chmod 600 "$hist/messages.jsonl"
sleep 1
cd "$world/beacon"
# Warm the precompiled-profile cache once (the first compile of a component is not the path),
# and check every row reads as it should before timing anything.
out=$("$TEAM_BIN" status)
for want in " keeper .* idle " " worker .* working: " " rev .* dialog: permission " " drafter .* draft: " " gone .* exited " " helper .* idle "; do
  grep -q -- "$want" <<<"$out" || { echo "bench/status.sh: no row matches \"$want\":"; echo "$out"; exit 1; } >&2
done
echo "$out"
echo
hyperfine -N --warmup 10 --runs "$runs" --export-json "$world/h.json" \
  "$TEAM_BIN status" "tmux -S $sock display-message -p x"
python3 - "$world/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
for x in r:
    print(f"median {x['median'] * 1000:7.2f} ms  {x['command'].split('/')[-1]}")
PY
# read-only: not one byte reached any seat
for s in $seats; do
  seat="${s%%:*}"
  [ ! -s "$world/$seat.log" ] || { echo "bench/status.sh: $seat received bytes" >&2; exit 1; }
done
