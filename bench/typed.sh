#!/usr/bin/env bash
# From start to `delivered` for a seat that takes the line at once: the real `team send` into a
# fake Codex seat (and a fake Claude Code seat) in a private tmux server. Target: ≤ 300 ms median
# on this machine plus the multiplexer's own call costs, which are measured beside it
# (`tmux capture-pane`, `tmux send-keys`), so the figure can be read net of tmux.
#
#   bash bench/typed.sh                      # builds the release binary, prints the medians
#   TEAM_BIN=/path/to/team bash bench/typed.sh   # FAKE_SEAT_BIN: the test double (default: beside it)
#   RUNS=30 bash bench/typed.sh
#
# `team send` refuses a run with no terminal, so every send runs inside `script`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
runs="${RUNS:-20}"

if [ -z "${TEAM_BIN:-}" ]; then
  # (`test-fakes` builds the test double `fake-seat` beside `team`; the `team` it builds is the
  # product's own entry, which never opens the test hooks)
  (cd "$repo" && cargo build --release -p team --features test-fakes --locked)
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
fi
FAKE_SEAT_BIN="${FAKE_SEAT_BIN:-$(dirname "$TEAM_BIN")/fake-seat}"
[ -x "$FAKE_SEAT_BIN" ] || {
  echo "bench/typed.sh: no fake seat at $FAKE_SEAT_BIN: build it (cargo build --release -p team --features test-fakes) or set FAKE_SEAT_BIN" >&2
  exit 2
}
command -v tmux >/dev/null || { echo "bench/typed.sh: tmux is not installed" >&2; exit 2; }

world="$(mktemp -d)"
sock="$world/tmux.sock"
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$world"; }
trap cleanup EXIT
mkdir -p "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache"
git -C "$world/beacon" init -q
cat >"$world/beacon/.agents/team.yaml" <<'YAML'
format: 1
project: beacon
session: beacon
multiplexer: tmux
seats:
  - name: rev
    role: reviewer
    cli: codex
  - name: keeper
    role: coordinator
    cli: claude-code
YAML
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" \
  TEAM_CACHE_DIR="$world/cache" TEAM_TMUX_SOCKET="$sock"
unset TMUX TMUX_PANE HERDR_PANE_ID
tmux -S "$sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 -n keep sh
# Codex shows its read on screen at once; Claude Code 2.1 never names the file on screen, so its
# fake writes the transcript row the real CLI writes and works for 300 ms (a short real turn).
for s in "rev:codex:--delay-ms 30" "keeper:claude-code:--delay-ms 300 --transcript auto"; do
  seat="${s%%:*}"; rest="${s#*:}"; cli="${rest%%:*}"; opts="${rest#*:}"
  pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t beacon: -c "$world/beacon" \
    "'$FAKE_SEAT_BIN' --cli $cli --mode takes-line $opts")
  tmux -S "$sock" set-option -p -t "$pane" @team-seat "$seat"
done
sleep 1
cd "$world/beacon"
# Warm the precompiled-profile cache once (the first compile of a component is not the path).
script -qec "'$TEAM_BIN' send rev warm-up" /dev/null >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ms_now() { date +%s%N; }

for seat in rev keeper; do
  : >"$world/$seat.ms"
  for _ in $(seq "$runs"); do
    sleep 0.5    # let the seat finish its short turn: a send meets an idle seat
    t0=$(ms_now)
    out=$(script -qec "'$TEAM_BIN' send $seat hello" /dev/null)
    t1=$(ms_now)
    case "$out" in *"$seat: delivered"$'\r'|*"$seat: delivered") ;; *) echo "bench/typed.sh: not a confirmed delivery: $out" >&2; exit 1 ;; esac
    echo $(( (t1 - t0) / 1000000 )) >>"$world/$seat.ms"
  done
done

pane=$(tmux -S "$sock" display -p -t beacon:rev '#{pane_id}')
: >"$world/capture.ms"; : >"$world/sendkeys.ms"
for _ in $(seq "$runs"); do
  t0=$(ms_now); tmux -S "$sock" capture-pane -p -e -t "$pane" >/dev/null; t1=$(ms_now)
  echo $(( (t1 - t0) / 1000 )) >>"$world/capture.ms"
  t0=$(ms_now); tmux -S "$sock" send-keys -t "$pane" -l '' ; t1=$(ms_now)
  echo $(( (t1 - t0) / 1000 )) >>"$world/sendkeys.ms"
done

echo "team send, start to delivered, median of $runs (ms, whole process under script):"
echo "  codex seat (fake, takes the line at once):        $(median <"$world/rev.ms")"
echo "  claude-code seat (fake, takes the line at once):  $(median <"$world/keeper.ms")"
echo "tmux's own call costs, median of $runs (µs):"
echo "  capture-pane -p -e:  $(median <"$world/capture.ms")"
echo "  send-keys -l:        $(median <"$world/sendkeys.ms")"
