#!/usr/bin/env bash
# Whole-process time of `team feed --stats` (and `--stats --json`) over a full history: three
# files of 1 MB each (messages.jsonl.2, .1 and the current file, as rotation leaves them) with
# a receipts file beside them, in a fixture checkout. Target: ≤ 50 ms median.
#
#   bash bench/feed-stats.sh            # builds the release binary, prints hyperfine's table + medians
#   TEAM_BIN=/path/to/team bash bench/feed-stats.sh   # measure a binary you built
#
# The history is generated here: lines shaped as `team send` writes them (the sender header
# and a body of 8–80 words, ms, via, failed, a note on some, cli and profile), some held,
# not-submitted or dialog-stopped with the watch's retry lines after them, and a read receipt
# for most taken-not-confirmed sends.
#
# Measured 2026-12-01 on the 2-core development machine (other builds running, load 5–9),
# release build of the watch branch, hyperfine -N, 10 warm-ups, 100 runs, 3 × 1 MB (5,644
# lines) + 285 receipts, three rounds — medians:
#   team feed --stats           32.0, 32.5, 23.7 ms
#   team feed --stats --json    22.9, 27.3, 26.8 ms
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"

if [ -z "${TEAM_BIN:-}" ]; then
  (cd "$repo" && cargo build --release -p team --locked)
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
fi
command -v hyperfine >/dev/null || { echo "bench/feed-stats.sh: hyperfine is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench/feed-stats.sh: python3 is not installed" >&2; exit 2; }

world="$(mktemp -d)"
trap 'rm -rf "$world"' EXIT
mkdir -p "$world/beacon/.git" "$world/beacon/.agents" "$world/home" "$world/config" "$world/state" "$world/cache"
printf 'ref: refs/heads/main\n' >"$world/beacon/.git/HEAD"   # a checkout root (an empty .git is none)
cat >"$world/beacon/.agents/team.yaml" <<'YAML'
format: 1
project: beacon
session: beacon
seats:
  - name: claude-keeper
    cli: claude-code
  - name: gpt-reviewer
    cli: codex
  - name: cursor-dev
    cli: cursor
YAML
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" TEAM_CACHE_DIR="$world/cache"
unset TMUX TMUX_PANE HERDR_PANE_ID TEAM_NOW TEAM_ID_SEED TEAM_TIME_SCALE
cd "$world/beacon"

python3 - "$world" <<'PY'
import hashlib, json, os, random, sys
world = sys.argv[1]
root = os.path.realpath(os.path.join(world, "beacon"))
d = os.path.join(world, "config", "beacon-" + hashlib.sha256(root.encode()).hexdigest()[:8])
os.makedirs(d, mode=0o700)
rnd = random.Random(20261201)
seats = [("claude-keeper", "claude-code", "0.1.0"), ("gpt-reviewer", "codex", "0.1.0"),
         ("gpt-reviewer", "codex", "0.2.0"), ("cursor-dev", "cursor", "0.1.0")]
words = "the gate is green review the diff and run the suite before you merge".split()
files = ["messages.jsonl.2", "messages.jsonl.1", "messages.jsonl"]
receipts, n, lines = [], 0, 0
for name in files:
    with open(os.path.join(d, name), "w") as f:
        size = 0
        while size < 1024 * 1024:
            n += 1
            seat, cli, prof = rnd.choice(seats)
            mid = "00000000-0000-4000-8000-%012x" % n
            body = "from the owner — admitted by: the owner\n\n" + " ".join(rnd.choice(words) for _ in range(rnd.randint(8, 80)))
            ts = "2026-11-29T%02d:%02d:%02dZ" % ((n // 3600) % 24, (n // 60) % 60, n % 60)
            line = {"ts": ts, "from": "owner", "to": seat, "body": body, "id": mid,
                    "outcome": "delivered", "ms": rnd.randint(80, 20000), "via": "typed",
                    "failed": ["native: the CLI carries no native channel", "mcp-inbox: unavailable in this build"],
                    "cli": cli, "profile": prof}
            out = [line]
            r = rnd.random()
            if r < 0.05:  # held, delivered by the watch's first retry
                line["outcome"] = "held"; del line["via"]
                out.append(dict(line, outcome="delivered", via="typed", retry=1))
            elif r < 0.08:  # held for good: three retries
                line["outcome"] = "held"; del line["via"]
                out.extend(dict(line, retry=k) for k in (1, 2, 3))
            elif r < 0.10:
                line["outcome"] = "not-submitted"
            elif r < 0.12:
                line["outcome"] = "unreachable"; del line["via"]; line["dialog"] = "permission"
            elif r < 0.20:  # taken; most later confirmed
                line["note"] = "taken, not yet confirmed"
                if rnd.random() < 0.7:
                    receipts.append({"ts": ts, "id": mid, "to": seat, "receipt": "read", "sign": "transcript", "ms": rnd.randint(20000, 90000)})
            for l in out:
                s = json.dumps(l, ensure_ascii=False, separators=(",", ":")) + "\n"
                if size + len(s.encode()) > 1024 * 1024:
                    size = 1024 * 1024
                    break
                f.write(s); size += len(s.encode()); lines += 1
with open(os.path.join(d, "receipts.jsonl"), "w") as f:
    for r in receipts:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
print(f"history: 3 files of 1 MB, {lines} lines, {len(receipts)} receipts")
PY

echo "binary: $TEAM_BIN"
"$TEAM_BIN" feed --stats
echo
hyperfine -N --warmup 10 --runs 100 \
  --export-json "$world/feed-stats.json" \
  -n "team feed --stats" "$TEAM_BIN feed --stats" \
  -n "team feed --stats --json" "$TEAM_BIN feed --stats --json"
echo
echo "medians:"
python3 - "$world/feed-stats.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  {r['command']:<28} {r['median'] * 1000:7.2f} ms")
PY
