#!/usr/bin/env bash
# The tmux adapter's own call costs: each of the exact tmux commands `mux::tmux::Tmux` runs for
# locate, read (one call: size + title + styled screen + 200 rows of scrollback), type and Enter,
# against a private tmux server (never yours) holding one fake Codex seat at 120x40.
# These are the "multiplexer's own call costs" a send's latency adds to `team`'s own work.
#
#   bash bench/mux_tmux.sh                         # uses target/debug/fake-seat (builds it if missing)
#   FAKE_SEAT_BIN=/path/to/fake-seat bash bench/mux_tmux.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
command -v hyperfine >/dev/null || { echo "bench/mux_tmux.sh: hyperfine is not installed" >&2; exit 2; }
command -v tmux >/dev/null || { echo "bench/mux_tmux.sh: tmux is not installed" >&2; exit 2; }
if [ -z "${FAKE_SEAT_BIN:-}" ]; then
  # the test double, a test-only binary (`test-fakes`)
  FAKE_SEAT_BIN="${CARGO_TARGET_DIR:-$repo/target}/debug/fake-seat"
  [ -x "$FAKE_SEAT_BIN" ] || (cd "$repo" && cargo build -p team --features test-fakes --bin fake-seat --locked)
fi

dir="$(mktemp -d)"
sock="$dir/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
cp "$FAKE_SEAT_BIN" "$dir/fake-seat"
mkdir "$dir/home"
tmux -S "$sock" -f /dev/null new-session -d -s bench -x 120 -y 40 -n keep sh
# (the double runs only under a HOME of its own world)
pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t '=bench:' -n rev -e "HOME=$dir/home" \
  "'$dir/fake-seat' --cli codex --mode clears-without-working; exec sh")
tmux -S "$sock" set -p -t "$pane" @team-seat rev
sleep 0.5

t="tmux -S $sock"
hyperfine -N --warmup 5 --runs 50 --export-json "$dir/mux.json" \
  -n locate "$t list-panes -s -t =bench: -F #{pane_id}\t#{pane_pid}\t#{@team-seat}" \
  -n read "$t display-message -p -t $pane #{pane_width}\t#{pane_height}\t#{pane_title} ; capture-pane -p -e -t $pane ; capture-pane -p -t $pane -S -200" \
  -n type "$t send-keys -l -t $pane -- x" \
  -n enter "$t send-keys -t $pane Enter" >/dev/null
python3 - "$dir/mux.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f'{r["command"]:7s} median {r["median"]*1000:6.2f} ms   (min {r["min"]*1000:.2f}, max {r["max"]*1000:.2f}, {len(r["times"])} runs)')
PY
