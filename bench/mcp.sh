#!/usr/bin/env bash
# What the MCP face costs: a `team_send` tool call to a running `team mcp` server against the
# same send run as `team send <seat> <message>` (a whole process each time), and the server's
# idle memory. Goal (issue 22): the tool call's overhead ≤ 10 ms median.
#
#   bash bench/mcp.sh                     # builds release binaries, prints the medians and RSS
#   TEAM_BIN=… FAKE_SEAT_BIN=… bash bench/mcp.sh
#
# The world: the spec's team file in a temp checkout; a private tmux server whose session holds
# the seat gpt-reviewer, the test double `fake-seat` drawing Codex's real screens (it takes every
# line: each send is delivered and confirmed, as to a real seat). The sender is the owner at a
# terminal (the runs live under `script`'s pseudo-terminal), for both paths alike. Each path
# sends RUNS messages, alternating (tool call, process, tool call, …) so a load change hits both;
# a send's time is from the request written (or the process started) to its answer read.
#
# Measured 2026-12-02, 2-core machine under load 10.8–12.8, DEBUG builds (target/debug/team and
# fake-seat; TEAM_BIN/FAKE_SEAT_BIN set), RUNS=90 — medians:
#   team_send tool call (server running)  127.63 ms
#   team send (a process each)            133.91 ms     tool call minus process  -6.28 ms
#   server RSS idle 17 280 KiB; after 90 sends 34 544 KiB (30 sends: 35 012 KiB)
# Measured 2026-12-03, the same machine idle (load 0.56), RELEASE builds (f02846e), RUNS=300:
#   team_send tool call (server running)  122.42 ms
#   team send (a process each)            125.78 ms     tool call minus process  -3.36 ms
#   server RSS idle 11 288 KiB; after 300 sends 28 180 KiB (after 90: 28 024 KiB)
# docs/mcp.md ("Performance") says what the figures mean.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
. "$here/lib.sh"
RUNS="${RUNS:-60}"

if [ "${1:-}" != "--inner" ]; then
  if [ -z "${TEAM_BIN:-}" ] || [ -z "${FAKE_SEAT_BIN:-}" ]; then
    (cd "$repo" && cargo build --release -p team --features test-fakes --bins --locked)
    TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
    FAKE_SEAT_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/fake-seat"
  fi
  export TEAM_BIN FAKE_SEAT_BIN RUNS
  need mcp.sh script tmux python3
  run_inner_in_pty "$here/mcp.sh"
  exit 0
fi

# ---- inner: runs with a controlling terminal (the owner's) -----------------------------------
exec >"$BENCH_OUT/report.txt" 2>&1
world="$(mktemp -d)"
sock="$world/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$world"' EXIT
mkdir -p "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache" "$world/bin"
spec_team "$world/beacon" beacon
cp "$TEAM_BIN" "$world/bin/team"
cp "$FAKE_SEAT_BIN" "$world/bin/fake-seat"
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" TEAM_CACHE_DIR="$world/cache"
export TEAM_TMUX_SOCKET="$sock" PATH="$world/bin:$PATH"
unset TMUX TMUX_PANE
tmux -S "$sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 -n keep sh
pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t beacon: -c "$world/beacon" "fake-seat --cli codex --delay-ms 0; exec sh")
tmux -S "$sock" set -p -t "$pane" @team-seat gpt-reviewer
for _ in $(seq 200); do
  [ -n "$(tmux -S "$sock" capture-pane -p -t "$pane" | tr -d '[:space:]')" ] && break
  sleep 0.05
done
cd "$world/beacon"
echo "bench/mcp.sh: $(team --version), $RUNS sends each way, load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$RUNS" <<'PY'
import json, os, statistics, subprocess, sys, time

runs = int(sys.argv[1])
srv = subprocess.Popen(["team", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
n = 0

def rpc(method, params):
    global n
    n += 1
    srv.stdin.write((json.dumps({"jsonrpc": "2.0", "id": n, "method": method, "params": params}) + "\n").encode())
    srv.stdin.flush()
    return json.loads(srv.stdout.readline())

rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
rpc("tools/list", {})
rss = lambda: int(next(l for l in open(f"/proc/{srv.pid}/status") if l.startswith("VmRSS")).split()[1])
idle = rss()
tool, proc = [], []
for i in range(runs):
    t = time.perf_counter()
    r = rpc("tools/call", {"name": "team_send", "arguments": {"to": ["gpt-reviewer"], "message": f"bench {i}"}})
    tool.append((time.perf_counter() - t) * 1000)
    word = r["result"]["structuredContent"]["recipients"][0]["outcome"]
    assert word == "delivered", r
    t = time.perf_counter()
    p = subprocess.run(["team", "send", "gpt-reviewer", f"bench process {i}"], capture_output=True, text=True)
    proc.append((time.perf_counter() - t) * 1000)
    assert p.returncode == 0 and "delivered" in p.stdout, p
after = rss()
srv.stdin.close()
srv.wait()
med = statistics.median
print(f"team_send tool call (server running)  median {med(tool):7.2f} ms  (min {min(tool):.2f}, max {max(tool):.2f})")
print(f"team send (a process each)            median {med(proc):7.2f} ms  (min {min(proc):.2f}, max {max(proc):.2f})")
print(f"tool call minus process               median {med(tool) - med(proc):+7.2f} ms")
print(f"server RSS: idle after initialize {idle} KiB; after {runs} sends {after} KiB")
PY
