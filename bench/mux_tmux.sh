#!/usr/bin/env bash
# The tmux adapter's own call costs: each of the exact tmux commands `mux::tmux::Tmux` runs for
# locate, read (one call: size + title + styled screen + 200 rows of scrollback), type and Enter,
# against a private tmux server (never yours) holding one fake Codex seat at 120x40.
# These are the "multiplexer's own call costs" a send's latency adds to `team`'s own work.
#
#   bash bench/mux_tmux.sh                         # uses target/debug/team (builds it if missing)
#   TEAM_BIN=/path/to/team bash bench/mux_tmux.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
command -v hyperfine >/dev/null || { echo "bench/mux_tmux.sh: hyperfine is not installed" >&2; exit 2; }
command -v tmux >/dev/null || { echo "bench/mux_tmux.sh: tmux is not installed" >&2; exit 2; }
if [ -z "${TEAM_BIN:-}" ]; then
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/debug/team"
  [ -x "$TEAM_BIN" ] || (cd "$repo" && cargo build -p team --locked)
fi

dir="$(mktemp -d)"
sock="$dir/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
cp "$TEAM_BIN" "$dir/team"
tmux -S "$sock" -f /dev/null new-session -d -s bench -x 120 -y 40 -n keep sh
pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t '=bench:' -n rev \
  "'$dir/team' fake-seat --cli codex --mode clears-without-working; exec sh")
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
