#!/usr/bin/env bash
# `team send --list` and `team status` on teams of 10, 100, 1,000 and 10,000 seats: the median
# time of each and its mean CPU time, user + system (hyperfine: on a loaded machine the CPU
# time is the steadier figure), and its peak RSS (/usr/bin/time, the median of 3 runs). Goal (issue
# 17): 10,000 seats under 100 MB and 1 s, time and memory linear in the seats.
#
#   bash bench/big-team.sh                        # builds the release binary, prints a table
#   TEAM_BIN=/path/to/team bash bench/big-team.sh
#   SIZES="10 100 1000" RUNS=10 bash bench/big-team.sh
#
# Each seat has a nickname and a role (10,000 seats: a 700 KB team file). The world: a private
# tmux server whose session `beacon` holds one unmarked pane, so `team status` asks tmux where
# every seat is (one listing of the session's panes since issue 17; one call a seat before)
# and finds none: each row is `not found`, no profile runs. `--list` needs the owner at a
# terminal: without one the script runs itself again under `script`.
#
# Every command is first run once with LIMIT_MB of address space (ulimit -v, default 4096) and
# TIMEOUT_S seconds (default 120): a run past either is reported so and not timed (the build
# before issue 17 held 1.4 GB at 1,000 seats and was killed at 22 GB at 10,000).
#
# Measured 2026-12-02 on the 2-core development machine shared with other helpers' builds
# (load 7–11), release builds, hyperfine -N, 2 warm-ups, 10 runs — median wall time (mean CPU
# time), peak RSS:
#
#   seats   before (6417c07)                                 after (branch limits)
#           --list                   status                   --list                 status
#   10      13 ms (cpu 8), 9 MB      49 ms (cpu 41), 8 MB     13 ms (cpu 7), 9 MB    10 ms (cpu 6), 9 MB
#   100     59 ms (cpu 32), 25 MB    505 ms (cpu 304), 24 MB  16 ms (cpu 10), 10 MB  15 ms (cpu 11), 9 MB
#   1000    4554 ms (2167), 1555 MB  8874 ms (4812), 1554 MB  46 ms (cpu 36), 12 MB  52 ms (cpu 41), 12 MB
#   10000   past 4096 MB             past 4096 MB             584 ms (312), 37 MB    537 ms (323), 39 MB
#
# (A 1 MiB teams.yaml roster, 47,658 lines, by hand: `--list` before ran into the 4 GiB limit
# after 26 s; after, 1.1 s wall, 0.49 s CPU, 72 MB.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
runs="${RUNS:-10}"
sizes="${SIZES:-10 100 1000 10000}"
limit_mb="${LIMIT_MB:-4096}"
timeout_s="${TIMEOUT_S:-120}"

# the owner at a terminal: run again under a pseudo-terminal when there is none
if ! { [ -t 0 ] || [ -t 1 ] || [ -t 2 ] || { exec 3<>/dev/tty; } 2>/dev/null; }; then
  command -v script >/dev/null || { echo "bench/big-team.sh: no terminal, and no \`script\` to make one" >&2; exit 2; }
  quoted=$(printf '%q ' "$0" "$@")
  exec script -qec "bash $quoted" /dev/null
fi

if [ -z "${TEAM_BIN:-}" ]; then
  (cd "$repo" && cargo build --release -p team --locked)
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
fi
for tool in tmux hyperfine /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench/big-team.sh: $tool is not installed" >&2; exit 2; }
done

world="$(mktemp -d)"
sock="$world/tmux.sock"
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$world"; }
trap cleanup EXIT
mkdir -p "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache"
git -C "$world/beacon" init -q
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" \
  TEAM_CACHE_DIR="$world/cache" TEAM_TMUX_SOCKET="$sock"
unset TMUX TMUX_PANE HERDR_PANE_ID
tmux -S "$sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 sh
cd "$world/beacon"

team_file() {
  awk -v n="$1" 'BEGIN {
    print "format: 1\nproject: beacon\nsession: beacon\nmultiplexer: tmux\nseats:"
    for (i = 0; i < n; i++) printf "  - name: seat-%05d\n    nickname: nick-%05d\n    role: worker\n    cli: codex\n", i, i
  }' >.agents/team.yaml
}

# One guarded run: prints the peak RSS in MB, or why there is none.
probe() {
  local n="$1"; shift
  local out="$world/out" rss="$world/rss"
  if ! (ulimit -v $((limit_mb * 1024)); exec timeout "$timeout_s" /usr/bin/time -f %M -o "$rss" "$TEAM_BIN" "$@") >"$out" 2>/dev/null; then
    if grep -q "Command terminated by signal\|Command exited with non-zero status 124" "$rss" 2>/dev/null || [ ! -s "$rss" ]; then
      echo "past ${limit_mb} MB or ${timeout_s} s"
    else
      echo "failed"
    fi
    return 1
  fi
  grep -q "^$n seats" "$out" || { echo "wrong rows: $(tail -n 1 "$out")"; return 1; }
  echo $(( $(tail -n 1 "$rss") / 1024 ))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-7s %-30s %-30s\n' seats "--list (median, cpu, peak RSS)" "status (median, cpu, peak RSS)"
for n in $sizes; do
  team_file "$n"
  row=$(printf '%-7s' "$n")
  for cmd in "send --list" "status"; do
    # shellcheck disable=SC2086
    if ! first=$(probe "$n" $cmd); then
      row+=$(printf ' %-30s' "$first")
      continue
    fi
    # shellcheck disable=SC2086
    rss=$( { echo "$first"; probe "$n" $cmd || true; probe "$n" $cmd || true; } | grep -E "^[0-9]+$" | median)
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$world/h.json" "$TEAM_BIN $cmd" >/dev/null 2>&1
    ms=$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%.0f ms (cpu %.0f)" % (r["median"] * 1000, (r["user"] + r["system"]) * 1000))' "$world/h.json")
    row+=$(printf ' %-30s' "${ms}, ${rss} MB")
  done
  echo "$row"
done
