#!/usr/bin/env bash
# An idle Claude Code, side by side: how long from a send's start until the model request that
# carries the message's body reaches the model — `team send` to a seat with `team hooks install`'s
# hooks (the typed trigger wakes it; its UserPromptSubmit hook hands the header and body with it)
# against hcom's own `hcom send` to a Claude launched through hcom's wrapper (`hcom claude`), in
# hcom's default idle delivery (`native`: its bundled Claude mod submits the wake) and in its
# `inject` mode (its PTY wrapper types the wake). Goal (issue 20): team at or under hcom's median.
#
#   bash bench/idle-claude.sh                        # target/release/team, 20 trials per arm
#   TRIALS=30 TEAM_BIN=target/debug/team bash bench/idle-claude.sh
#   HCOM=0 bash bench/idle-claude.sh                 # team's arm only
#   KEEP=1 bash bench/idle-claude.sh                 # leaves the world's folder for reading
#   TEAM_BIN_B=/tmp/team-new bash bench/idle-claude.sh   # one more arm, `team-b`: another build
#                                                    # (before/after a change), its own checkout
#
# Needs: root (the world's private network namespace), tmux, script, node, unshare, nsenter, ip,
# python3 with venv, the real Claude Code 2.1.332 (`bash tests/real/install.sh`), a `team` built
# with `--features test-fakes --bins` (the release one: `cargo build --release -p team
# --features test-fakes --bins --locked`), and PyPI reachable once (`pip install hcom==0.7.31`
# into a venv in the world; HCOM_VERSION picks another).
#
# The world (all under one temp folder in /var/tmp; HOME, team's config/state/cache and
# HCOM_DIR are in it, never the real ones): the project's mock model server
# (tests/real/mock/model-server.js, script `drops: false`: every turn is answered with one text
# and ends — the first request of a turn is the one measured) as the first process of a private
# network namespace with only loopback up; a tmux server started inside it; three windows, each
# the real `claude --permission-mode default` offline (docs/offline-vendor-clis.md §1) with its
# own HOME and checkout:
#   team         the seat claude-keeper of the spec's team file, marked, `team hooks install`ed
#   hcom-native  `hcom claude --permission-mode default` (hcom's default delivery)
#   hcom-inject  `HCOM_CLAUDE_DELIVERY=inject hcom claude --permission-mode default`
# The driver runs inside the namespace (hcom's sender wakes its delivery thread over loopback
# TCP: a sender outside the namespace falls back to hcom's polling, ~8–9 s) on `script`'s
# terminal, the owner's (team send refuses a run with none). Each send is a process started by
# the driver, timed from just before it starts: `team send claude-keeper <body>` and
# `hcom send -b @<name> -- <body>` (hcom's external sender, `bigboss`).
#
# A trial: every seat idle at an empty prompt (waited on, never slept: each seat's transcript has
# ended every turn it began — a `turn_duration` row per prompt row — its screen shows the empty
# box and no `esc to interrupt`, and hcom's own `hcom list` says `listening`), then one send
# whose body holds a token of its own; measured: the ms to the send's exit (its outcome), and to
# the mock's log line (`at`: when the request was whole) of the first request whose JSON holds
# the token. The arms alternate, rotating which goes first, so a load change hits each alike;
# WARMUP (default 2) sends per arm first are not counted. From each seat's transcript, per trial
# (read at the end: Claude writes its rows a moment after the request): when Claude took the
# prompt (its prompt row: the typed trigger's Enter, or hcom's wake) and when the UserPromptSubmit
# hook's context holding the token was recorded, to say where the time goes. TRACE_TEAM=1 (with
# KEEP=1) runs each team send under `strace -f -ttt` into the world's trace-<i>.txt.
#
# Honesty: a send that said success (team: `delivered`; hcom: exit 0 and `Sent to:`) whose body
# never reached the model within 30 s is counted, and so is the reverse.
#
# hcom offline: it runs as is in the namespace (no relay configured, nothing else asked for); its
# default `native` delivery needs Claude Code ≥ 2.1.287 (2.1.332 here) and loads its mod with
# `--plugin-dir`. Its sender must share the receiver's network namespace (above).
#
# Measured 2026-12-03 on the 2-core machine shared with three other agents' builds and tests,
# RELEASE team (f02846e, `--features test-fakes --bins`), hcom 0.7.31 from PyPI, Claude Code
# 2.1.332; four runs, the arms alternating; ms from the send's start to the model request
# carrying the body (medians; min–max):
#   run (trials per arm, 1-min load)   team               hcom native        hcom inject
#   02:33 (20, load 4.8–6.9)           371.5 (250–996)    351.0 (197–1112)   560.9 (236–1103)
#   02:39 (40, load 4.8–8.7)           399.1 (277–808)    315.3 (160–904)    616.0 (158–1171)
#   02:45 (40, load 3.8–4.6)           297.4 (205–550)    215.0 (130–496)    924.4 (151–1271)
#   03:23 (40, load 3.0–4.0)           285.4 (188–669)    202.7 (96–551)     935.8 (129–1263)
#   all 140                            319.6              236.1              758.3
# team / hcom native 1.35 over the 140 (1.06, 1.27, 1.38, 1.41 per run; team was the faster of
# the two in 30 of the 140 rounds); team / hcom inject 0.42. The send's own answer: team
# `delivered` after a median 278 ms (the screen showed Claude took the line), hcom `Sent to:`
# after 23 ms (its message is in its database; nothing has reached the model yet). Honesty: of
# the 148 sends per arm (warm-ups included) every one said success and its body reached the model —
# no false success on either side, at an idle seat. One team send (02:45) said `delivered (taken,
# not yet confirmed)` only after its 20 s window, though its body had reached the model at 205
# ms: the mock ends the turn at once, so no look after Enter saw Claude working, and the model
# had the body inline and never read the drop (the typed leg does not take the companion's
# `handed` receipt as evidence).
# Where team's extra ~80 ms goes (run 02:45, transcript marks, ms from the send's start): Claude
# took the prompt at 166.9 (hcom native 98.3): +69 before Claude has the line; its hook's context
# 62.8 later (hcom's 49.8): +13; the request 67.7 after that (hcom's 66.9). The send's steps
# (TRACE_TEAM=1, 15 trials at load 2.9–4.8, strace's cost included): first tmux call 10.0 ms,
# first look 33.7, companion queued 55.1, trigger typed 97.3, Enter 213.1 — 9 tmux calls and 2
# profile loads before Enter; from typing to Enter is the read-back (a look right after typing
# usually lands before Claude has echoed the line; the next comes a 40 ms poll later) and the
# claude-code profile's 30 ms Enter pause. docs/inbox.md ("Measured") has the table and what
# would close the gap.
# A read-back that looked every 10 ms for its first 200 ms, before/after as two arms
# (TEAM_BIN, TEAM_BIN_B), 30 rounds: DEBUG (load 5.3–8.7) to the model 446.6 → 455.2 ms, prompt
# taken 250.2 → 212.1, answer 362.8 → 329.0; RELEASE (2026-12-03, load 0.9–2.1, HCOM=0) to the
# model 274.7 → 281.4 ms (0.98), prompt taken 156.0 → 144.8, answer 237.7 → 227.9. The model got
# the body no sooner, so the change was taken out again (docs/inbox.md).
# 2026-12-03, release, 40 rounds each, paired by round (docs/inbox.md has the tables): the hook
# placed by the send's pin (fc2c61a) against the build before: faster in 26/40 rounds (median
# 5.6 ms; load 2.0–3.7); the read-back's first look at the pause's end plus the children lists
# (TEAM_BIN_B) against the pinned build: faster in 25/40 (median 10.8 ms; load 2.9–3.4); to the
# model team-b 169.1 ms, hcom native 150.6 ms (1.12×; hcom faster in 25/40 rounds, by a median
# 10.7 ms).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
. "$here/lib.sh"
TRIALS="${TRIALS:-20}"
WARMUP="${WARMUP:-2}"
HCOM="${HCOM:-1}"
HCOM_VERSION="${HCOM_VERSION:-0.7.31}"
KEEP="${KEEP:-0}"

if [ "${1:-}" != "--inner" ]; then
  target="${CARGO_TARGET_DIR:-$repo/target}"
  TEAM_BIN="${TEAM_BIN:-$target/release/team}"
  [ -x "$TEAM_BIN" ] || {
    echo "bench/idle-claude.sh: $TEAM_BIN is not built (cargo build --release -p team --features test-fakes --bins --locked)" >&2
    exit 2
  }
  TEAM_BIN="$(cd "$(dirname "$TEAM_BIN")" && pwd)/$(basename "$TEAM_BIN")"
  CLAUDE_DIR="$repo/tests/real/node_modules/.bin"
  [ -x "$CLAUDE_DIR/claude" ] || { echo "bench/idle-claude.sh: no Claude Code in $CLAUDE_DIR: bash tests/real/install.sh" >&2; exit 2; }
  [ "$(id -u)" = 0 ] || { echo "bench/idle-claude.sh: needs root (unshare --net)" >&2; exit 2; }
  need idle-claude.sh script tmux node unshare nsenter ip python3
  if [ -n "${TEAM_BIN_B:-}" ]; then
    [ -x "$TEAM_BIN_B" ] || { echo "bench/idle-claude.sh: TEAM_BIN_B=$TEAM_BIN_B is not an executable" >&2; exit 2; }
    TEAM_BIN_B="$(cd "$(dirname "$TEAM_BIN_B")" && pwd)/$(basename "$TEAM_BIN_B")"
  fi
  export TEAM_BIN CLAUDE_DIR TRIALS WARMUP HCOM HCOM_VERSION KEEP TEAM_BIN_B
  # (as lib.sh's run_inner_in_pty, but the report is shown even when the inner run failed)
  out="$(mktemp -d)"
  rc=0
  BENCH_OUT="$out" script -qec "bash '$here/idle-claude.sh' --inner" /dev/null </dev/null >/dev/null || rc=$?
  cat "$out/report.txt" 2>/dev/null || echo "bench/idle-claude.sh: the inner run wrote no report"
  rm -rf "$out"
  exit "$rc"
fi

# ---- inner: runs with a controlling terminal (the owner's) -----------------------------------
exec >"$BENCH_OUT/report.txt" 2>&1
world="$(mktemp -d /var/tmp/idle-claude-XXXXXX)"
sock="$world/tmux.sock"
mock_pid=""
netns=""
# Every process of the world's namespace by pid (the CLIs, hcom's wrappers, tmux), TERM then KILL.
teardown() {
  set +e
  if [ -n "$netns" ]; then
    for sig in TERM TERM KILL; do
      for p in /proc/[0-9]*; do
        if [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$netns" ]; then kill -s "$sig" "${p#/proc/}" 2>/dev/null; fi
      done
      sleep 0.3
    done
  fi
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null; fi
  if [ "$KEEP" = 1 ]; then echo "the world is left at $world"; else rm -rf "$world"; fi
  rm -rf "/tmp/claude-$(id -u)/$(echo "$world" | sed 's/[^A-Za-z0-9]/-/g')"-*
}
trap teardown EXIT
mkdir -p "$world/mock/gates" "$world/home" "$world/config" "$world/state" "$world/cache" "$world/bin" "$world/hcom"
cp "$TEAM_BIN" "$world/bin/team"
export HOME="$world/home" TEAM_CONFIG_DIR="$world/config" TEAM_STATE_DIR="$world/state" TEAM_CACHE_DIR="$world/cache"
export TEAM_TMUX_SOCKET="$sock" BENCH_WORLD="$world" HCOM_DIR="$world/hcom"
unset TMUX TMUX_PANE HERDR_PANE_ID
echo "bench/idle-claude.sh: $("$world/bin/team" --version) ($TEAM_BIN), Claude Code $("$CLAUDE_DIR/claude" --version | cut -d' ' -f1); $TRIALS trials per arm after $WARMUP warm-ups; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

hcom_bin=""
if [ "$HCOM" = 1 ]; then
  if python3 -m venv "$world/venv" >"$world/venv.log" 2>&1 &&
    "$world/venv/bin/pip" install -q --disable-pip-version-check "hcom==$HCOM_VERSION" >>"$world/venv.log" 2>&1; then
    hcom_bin="$world/venv/bin/hcom"
    echo "hcom: $("$hcom_bin" --version) (pip, in the world's venv)"
  else
    echo "hcom $HCOM_VERSION could not be installed; team's arm only:"
    tail -n 5 "$world/venv.log"
  fi
fi
export HCOM_BIN="$hcom_bin"

# The mock, first process of a network namespace with only loopback up.
echo '{"rules": [], "drops": false}' >"$world/mock/script.json"
unshare --net -- /bin/sh -c 'ip link set lo up && exec node "$0" "$1" 8765' \
  "$repo/tests/real/mock/model-server.js" "$world/mock" >"$world/mock/server.log" 2>&1 &
mock_pid=$!
for _ in $(seq 400); do [ -e "$world/mock/ready" ] && break; sleep 0.05; done
[ -e "$world/mock/ready" ] || { echo "the mock never listened:"; cat "$world/mock/server.log"; exit 1; }
netns="$(readlink "/proc/$mock_pid/ns/net")"
[ "$netns" != "$(readlink /proc/self/ns/net)" ] || { echo "the mock is not in a namespace of its own"; exit 1; }

# The team checkout (the spec's file; only claude-keeper is started); with TEAM_BIN_B, a second
# one (`beacon-b`, its own session) whose seat runs that build's hooks and gets that build's sends.
team_world() { # <checkout name> <bin dir>
  spec_team "$world/$1" "$1"
  (cd "$world/$1" && "$world/$2/team" hooks install claude-keeper) || { echo "team hooks install failed ($1)"; exit 1; }
}
team_world beacon bin
if [ -n "${TEAM_BIN_B:-}" ]; then
  mkdir -p "$world/bin-b"
  cp "$TEAM_BIN_B" "$world/bin-b/team"
  echo "team-b: $("$world/bin-b/team" --version) ($TEAM_BIN_B)"
  team_world beacon-b bin-b
fi
printf 'set -g default-terminal tmux-256color\nset -g status off\n' >"$world/tmux.conf"
nsenter --net="/proc/$mock_pid/ns/net" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$world/home" LANG=C.UTF-8 \
  tmux -S "$sock" -f "$world/tmux.conf" new-session -d -s beacon -x 120 -y 40 -n keep sh
if [ -n "${TEAM_BIN_B:-}" ]; then
  nsenter --net="/proc/$mock_pid/ns/net" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$world/home" LANG=C.UTF-8 \
    tmux -S "$sock" new-session -d -s beacon-b -x 120 -y 40 -n keep sh
fi

export REPO="$repo" TRIALS WARMUP
nsenter --net="/proc/$mock_pid/ns/net" -- python3 - <<'PY'
import glob, json, os, re, statistics, subprocess, sys, time, uuid

W = os.environ["BENCH_WORLD"]
SOCK = os.environ["TEAM_TMUX_SOCKET"]
TEAM = f"{W}/bin/team"
HCOM = os.environ.get("HCOM_BIN") or ""
CLAUDE_DIR = os.environ["CLAUDE_DIR"]
TRIALS, WARMUP = int(os.environ["TRIALS"]), int(os.environ["WARMUP"])
KEY = "sk-ant-test-" + "0" * 40
BOUND = 60.0      # every wait on a condition
ARRIVE = 30.0     # a body not in a request by then never arrived
CLAUDE_ENV = {
    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8765", "ANTHROPIC_API_KEY": KEY,
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
    "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_MAX_RETRIES": "2", "LANG": "C.UTF-8", "COLORTERM": "truecolor",
}

def now_ms():
    return time.time() * 1000

def tmux(*args):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": f"{W}/home", "LANG": "C.UTF-8"}
    return subprocess.run(["tmux", "-S", SOCK, *args], capture_output=True, text=True, env=env)

def screen(pane):
    return tmux("capture-pane", "-p", "-t", pane).stdout

def wait(what, pred, bound=BOUND, every=0.02):
    t = time.time()
    while True:
        v = pred()
        if v:
            return v
        if time.time() - t > bound:
            raise SystemExit(f"never: {what}")
        time.sleep(every)

class Arm:
    def __init__(self, name, cwd, env, cmd, mark="", session="beacon", team=None):
        self.name, self.cwd, self.team = name, cwd, team
        self.home = f"{W}/seats/{name}"
        os.makedirs(f"{self.home}/.claude", exist_ok=True)
        os.makedirs(cwd, exist_ok=True)
        if not os.path.isdir(f"{cwd}/.git"):
            subprocess.run(["git", "init", "-q", cwd], check=True)
        # signed in once, the key approved, the checkout trusted (docs/offline-vendor-clis.md §1.4)
        json.dump({"hasCompletedOnboarding": True,
                   "customApiKeyResponses": {"approved": [KEY[-20:]], "rejected": []},
                   "projects": {cwd: {"hasTrustDialogAccepted": True}}}, open(f"{self.home}/.claude.json", "w"))
        env = dict(CLAUDE_ENV, HOME=self.home, **env)
        path = env.pop("PATH")
        args = ["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", f"={session}:", "-n", name, "-c", cwd]
        for k, v in env.items():
            args += ["-e", f"{k}={v}"]
        args.append(f"export PATH={path}; {cmd}; echo '[exited]'; exec sh")
        self.pane = tmux(*args).stdout.strip()
        if mark:
            tmux("set", "-p", "-t", self.pane, "@team-seat", mark)
        self.hcom_name = None

    def transcript(self):
        rows = []
        for f in glob.glob(f"{self.home}/.claude/projects/*/*.jsonl"):
            for line in open(f, errors="replace"):
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
        return rows

    def turns_ended(self):
        rows = self.transcript()
        prompts = sum(1 for r in rows if r.get("type") == "user" and isinstance(r.get("message", {}).get("content"), str))
        ended = sum(1 for r in rows if r.get("type") == "system" and r.get("subtype") == "turn_duration")
        return ended >= prompts

    def screen_idle(self):
        s = screen(self.pane)
        rows = s.splitlines()
        # the input box is the last `❯` row (earlier ones are past prompts)
        box = [r for r in rows if r.startswith("❯")]
        return "? for shortcuts" in s and "esc to interrupt" not in s and bool(box) and box[-1].strip() == "❯"

    def idle(self):
        if not (self.turns_ended() and self.screen_idle()):
            return False
        if self.hcom_name:
            out = hcom("list", "--format", "{name} {status}").stdout
            return f"{self.hcom_name} listening" in out
        return True

def hcom(*args):
    return subprocess.run([HCOM, *args], capture_output=True, text=True)

team_env = {k: os.environ[k] for k in ("TEAM_CONFIG_DIR", "TEAM_STATE_DIR", "TEAM_CACHE_DIR")}
arms = [Arm("team", f"{W}/beacon", dict(team_env, PATH=f"{W}/bin:{CLAUDE_DIR}:/usr/local/bin:/usr/bin:/bin"),
            "claude --permission-mode default", mark="claude-keeper", team=TEAM)]
if os.environ.get("TEAM_BIN_B"):
    arms.append(Arm("team-b", f"{W}/beacon-b", dict(team_env, PATH=f"{W}/bin-b:{CLAUDE_DIR}:/usr/local/bin:/usr/bin:/bin"),
                    "claude --permission-mode default", mark="claude-keeper", session="beacon-b", team=f"{W}/bin-b/team"))
if HCOM:
    hpath = f"{os.path.dirname(HCOM)}:{CLAUDE_DIR}:/usr/local/bin:/usr/bin:/bin"
    arms.append(Arm("hcom-native", f"{W}/hcn", {"PATH": hpath, "HCOM_DIR": os.environ["HCOM_DIR"]},
                    "hcom claude --permission-mode default"))
    arms.append(Arm("hcom-inject", f"{W}/hci", {"PATH": hpath, "HCOM_DIR": os.environ["HCOM_DIR"],
                                               "HCOM_CLAUDE_DELIVERY": "inject"},
                    "hcom claude --permission-mode default"))
for a in arms:
    wait(f"{a.name}'s prompt", a.screen_idle)
    if a.name.startswith("hcom"):
        def named(a=a):
            for line in hcom("list", "--format", "{name}\t{directory}\t{status}").stdout.splitlines():
                f = line.split("\t")
                if len(f) == 3 and f[1] == a.cwd and f[2] == "listening":
                    return f[0]
        a.hcom_name = wait(f"hcom's agent in {a.cwd} listening", named, every=0.2)
print("seats: " + ", ".join(f"{a.name} ({a.hcom_name or 'claude-keeper'}, pane {a.pane})" for a in arms), flush=True)

# --- the mock's request log, read incrementally -------------------------------------------------
log_at, reqs = 0, []
def requests():
    global log_at
    try:
        with open(f"{W}/mock/requests.jsonl", "rb") as f:
            f.seek(log_at)
            data = f.read()
    except OSError:
        return reqs
    end = data.rfind(b"\n") + 1
    for line in data[:end].splitlines():
        r = json.loads(line)
        reqs.append({"n": r["n"], "at": r["at"], "kind": r["kind"], "text": json.dumps(r["body"])})
    log_at += end
    return reqs

def carrying(token, after_n):
    for r in requests():
        if r["n"] > after_n and r["kind"] == "main" and token in r["text"]:
            return r

def iso_ms(ts):
    # 2026-12-03T02:26:05.515Z -> ms since the epoch
    import datetime
    return datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp() * 1000

def cli_marks(arm, t0, token):
    """From the seat's transcript (written a moment after the request, so read at the end): when
    Claude took the prompt (its prompt row) and when the UserPromptSubmit hook's context holding
    the token was recorded — ms from the send's start. (Its `api-request` row is stamped later
    than the mock's receipt: not a mark of the request leaving.)"""
    took = hooked = None
    for r in arm.transcript():
        ts = r.get("timestamp")
        if not ts or iso_ms(ts) < t0 - 5 or iso_ms(ts) > t0 + ARRIVE * 1000:
            continue
        t = iso_ms(ts) - t0
        if took is None and r.get("type") == "user" and isinstance(r.get("message", {}).get("content"), str):
            took = t
        at = r.get("attachment") or {}
        if hooked is None and at.get("type") == "hook_additional_context" and token in json.dumps(at):
            hooked = t
    return took, hooked

def trial(arm, i, counted):
    for a in arms:
        wait(f"{a.name} idle", a.idle)
    token = f"tok{uuid.uuid4().hex[:12]}"
    body = f"idle bench {arm.name} {i}: please note {token}"
    before = requests()[-1]["n"] if requests() else 0
    if arm.team:
        cmd = [arm.team, "send", "claude-keeper", body]
        cwd = arm.cwd
        if arm.name == "team" and os.environ.get("TRACE_TEAM") == "1":
            # diagnosis only (KEEP=1 to read them): the send's system calls, with times
            cmd = ["strace", "-f", "-ttt", "--seccomp-bpf", "-e", "trace=execve,openat", "-o", f"{W}/trace-{i}.txt"] + cmd
    else:
        cmd = [HCOM, "send", "-b", f"@{arm.hcom_name}", "--", body]
        cwd = W
    t0 = now_ms()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    t1 = now_ms()
    out = (p.stdout + p.stderr).strip()
    if arm.team:
        said = out.splitlines()[-1] if out else ""
        ok = p.returncode == 0 and said.startswith("claude-keeper: delivered")
    else:
        said = out.splitlines()[0] if out else ""
        ok = p.returncode == 0 and "Sent to:" in out
    try:
        r = wait(f"{token} at the model", lambda: carrying(token, before), bound=ARRIVE)
    except SystemExit:
        r = None
    rec = {"arm": arm.name, "i": i, "counted": counted, "ok": ok, "said": said, "outcome_ms": t1 - t0,
           "model_ms": (r["at"] - t0) if r else None, "t0": t0, "token": token,
           "load": open("/proc/loadavg").read().split()[0]}
    print(json.dumps(rec), flush=True)
    return rec

results = []
names = [a.name for a in arms]
for i in range(WARMUP + TRIALS):
    order = arms[i % len(arms):] + arms[:i % len(arms)]
    for a in order:
        results.append(trial(a, i, i >= WARMUP))
for a in arms:
    wait(f"{a.name} idle", a.idle)
by_name = {a.name: a for a in arms}
for r in results:
    r["took_ms"], r["hook_ms"] = cli_marks(by_name[r["arm"]], r["t0"], r["token"])

def fmt(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "n/a"
    return f"median {statistics.median(xs):7.1f} ms  (min {min(xs):.1f}, max {max(xs):.1f}; n={len(xs)})"

print()
print("send start → the model request carrying the body (the mock's log):")
med = {}
for n in names:
    rs = [r for r in results if r["arm"] == n and r["counted"]]
    med[n] = statistics.median([r["model_ms"] for r in rs if r["model_ms"] is not None] or [float("nan")])
    print(f"  {n:<12} {fmt([r['model_ms'] for r in rs])}")
print("send start → the send's exit (its outcome):")
for n in names:
    rs = [r for r in results if r["arm"] == n and r["counted"]]
    print(f"  {n:<12} {fmt([r['outcome_ms'] for r in rs])}")
print("where the time goes, from the seat's transcript (ms from the send's start): Claude took the prompt,")
print("then its UserPromptSubmit hook's context was recorded (the request follows: the first line above):")
for n in names:
    rs = [r for r in results if r["arm"] == n and r["counted"]]
    print(f"  {n:<12} prompt taken  {fmt([r['took_ms'] for r in rs])}")
    print(f"  {'':<12} hook context  {fmt([r['hook_ms'] for r in rs])}")
for n in names[1:]:
    print(f"ratio team / {n} (medians, to the model): {med['team'] / med[n]:.2f}")
if "team-b" in med and "hcom-native" in med:
    print(f"ratio team-b / hcom-native (medians, to the model): {med['team-b'] / med['hcom-native']:.2f}")
print("honesty (counted and warm-up trials):")
for n in names:
    rs = [r for r in results if r["arm"] == n]
    said_ok = sum(r["ok"] for r in rs)
    arrived = sum(r["model_ms"] is not None for r in rs)
    false_ok = sum(r["ok"] and r["model_ms"] is None for r in rs)
    false_fail = sum((not r["ok"]) and r["model_ms"] is not None for r in rs)
    words = sorted({r["said"] for r in rs})
    print(f"  {n:<12} {len(rs)} sends: success said {said_ok}, body at the model {arrived}; "
          f"success said but never arrived {false_ok}; failure said but arrived {false_fail}; answers {words}")
if os.environ.get("TRACE_TEAM") == "1":
    # The team send's own steps, from its strace (ms from the send's start; strace's cost included).
    def phases(i):
        try:
            lines = open(f"{W}/trace-{i}.txt").read().splitlines()
        except OSError:
            return {}
        t0, got, tmux_n = float(lines[0].split()[1]), {}, 0
        for l in lines:
            f = l.split(None, 2)
            if len(f) < 3:
                continue
            t, what = (float(f[1]) - t0) * 1000, f[2]
            if what.startswith("execve(\"/usr/bin/tmux\""):
                tmux_n += 1
                if '"send-keys", "-l"' in what:
                    got.setdefault("trigger typed", t)
                elif '"Enter"' in what:
                    got.setdefault("Enter", t)
                elif '"capture-pane"' in what and "Enter" not in got:
                    got.setdefault("first look", t)
                got.setdefault("first tmux", t)
                if "Enter" not in got:
                    got["tmux calls before Enter"] = tmux_n
            elif ".cwasm" in what:
                got["profile loads"] = got.get("profile loads", 0) + 1 if "Enter" not in got else got.get("profile loads", 0)
            elif "/inbox/" in what and ".tmp." in what:
                got.setdefault("companion queued", t)
        return got
    team = [r for r in results if r["arm"] == "team" and r["counted"]]
    ph = [phases(r["i"]) for r in team]
    print("team send's steps under strace (execve/openat, --seccomp-bpf), ms from its start:")
    for k in ["first tmux", "first look", "companion queued", "trigger typed", "Enter"]:
        print(f"  {k:<24} {fmt([p.get(k) for p in ph])}")
    for k in ["tmux calls before Enter", "profile loads"]:
        xs = [p[k] for p in ph if k in p]
        print(f"  {k:<24} median {statistics.median(xs) if xs else 'n/a'} (min {min(xs, default='n/a')}, max {max(xs, default='n/a')})")
loads = [float(r["load"]) for r in results]
print(f"load (1-min) during the trials: {min(loads):.2f}–{max(loads):.2f}, now {open('/proc/loadavg').read().split()[0]}")
PY
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
