#!/usr/bin/env bash
# Re-captures grok-cli 0.0.34 (npm `@vibe-kit/grok-cli`, pinned in tests/real/package-lock.json)
# live, the way tests/data/screens/README.md describes (`capture-pane -p`, `-p -e`, the pane
# title, a meta), offline: the project's mock model server (tests/real/mock/model-server.js,
# which speaks OpenAI Chat Completions, grok-cli's wire) and the CLI run in a private network
# namespace with only loopback up, the CLI with a fresh HOME, started from an `sh` in a git
# checkout. States: its first screen (idle, empty), a draft, working (the mock holds the reply),
# idle after the reply, its confirmation dialog for a bash tool call, idle after Esc, and exited
# after one Ctrl-C at the empty composer.
#
# Usage: bash tests/real/capture-grok.sh <out-dir>   (root: `unshare --net` needs it)
#   GROK_BIN=<dir holding grok> overrides tests/real/node_modules/.bin.
# Writes <out-dir>/grok-cli-0.0.34/live-<state>.{txt,ansi,title,meta.json}; the meta's `expect`
# is what the screen must read as, written here by hand from what the screen shows. Throwaway
# paths are replaced with `<home>`.
set -euo pipefail
if [ "${1:-}" != "--inside" ]; then
  out="$(mkdir -p "${1:?usage: capture-grok.sh <out-dir>}" && cd "$1" && pwd)"
  exec unshare --net -- bash "$0" --inside "$out"
fi
out="$2"
ip link set lo up
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GROK_BIN:-$here/node_modules/.bin}"
[ -x "$bin/grok" ] || { echo "no grok in $bin: run bash tests/real/install.sh first" >&2; exit 1; }
version="$(node -e 'console.log(require(process.argv[1]).version)' "$(dirname "$(readlink -f "$bin/grok")")/../package.json")"
[ "$version" = 0.0.34 ] || { echo "grok-cli is $version, not the pinned 0.0.34" >&2; exit 1; }
top="$(mktemp -d /var/tmp/team-capture-XXXXXX)"
sock="$top/tmux.sock"
port=8765
printf 'set -g default-terminal tmux-256color\nset -g status off\n' >"$top/tmux.conf"
t() { tmux -S "$sock" "$@"; }
cleanup() {
  t kill-server 2>/dev/null || true
  [ -n "${mock:-}" ] && kill "$mock" 2>/dev/null || true
  rm -rf "$top"
}
trap cleanup EXIT

# The mock: a prompt holding `slow` is answered once the gate `go` exists; one holding `run`
# is answered with a bash tool call (grok-cli asks before it runs any).
mkdir -p "$top/mock" "$top/proj" "$top/outside"
git -C "$top/proj" init -q
cat >"$top/mock/script.json" <<EOF
{"root": "$top/proj", "drops": false,
 "rules": [{"when": "slow", "steps": [{"text": "Here is the slow answer.", "hold": "go"}]},
           {"when": "run", "steps": [{"bash": "touch $top/outside/made-by-grok.txt"}, {"text": "done"}]}]}
EOF
node "$here/mock/model-server.js" "$top/mock" "$port" >"$top/mock.log" 2>&1 &
mock=$!
for _ in $(seq 100); do [ -f "$top/mock/ready" ] && break; sleep 0.1; done
[ -f "$top/mock/ready" ] || { echo "the mock never listened" >&2; cat "$top/mock.log" >&2; exit 1; }

mkdir -p "$top/home"
t -f "$top/tmux.conf" new-session -d -s grok -x 120 -y 40 -c "$top/proj" \
  env -i HOME="$top/home" PATH="$bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TERM=tmux-256color \
  COLORTERM=truecolor PS1='$ ' GROK_API_KEY=mock-key GROK_BASE_URL="http://127.0.0.1:$port/v1" sh
p="$(t display -p -t "=grok:" '#{pane_id}')"

# Waits (up to 60 s) until the pane's plain screen holds every one of the given texts.
wait_for() {
  for _ in $(seq 600); do
    local s ok=1
    s="$(t capture-pane -p -t "$p")"
    for want in "$@"; do grep -qF -- "$want" <<<"$s" || ok=0; done
    [ $ok = 1 ] && return 0
    sleep 0.1
  done
  echo "pane $p never showed: $*" >&2
  t capture-pane -p -t "$p" >&2
  exit 1
}

# Waits until the screen holds none of the given texts.
wait_gone() {
  for _ in $(seq 600); do
    local s ok=1
    s="$(t capture-pane -p -t "$p")"
    for gone in "$@"; do grep -qF -- "$gone" <<<"$s" && ok=0; done
    [ $ok = 1 ] && return 0
    sleep 0.1
  done
  echo "pane $p still shows one of: $*" >&2
  t capture-pane -p -t "$p" >&2
  exit 1
}

# Saves the pane as live-<state>.* with the meta's `how` and `expect`.
save() {
  local state="live-$1" how="$2" expect="$3" dir="$out/grok-cli-0.0.34"
  mkdir -p "$dir"
  local scrub="s#$top/[a-z]*#<home>#g"
  t capture-pane -p -t "$p" | sed "$scrub" >"$dir/$state.txt"
  t capture-pane -p -e -t "$p" | sed "$scrub" >"$dir/$state.ansi"
  t display -p -t "$p" '#{pane_title}' | sed "$scrub" >"$dir/$state.title"
  local x y
  x="$(t display -p -t "$p" '#{cursor_x}')"
  y="$(t display -p -t "$p" '#{cursor_y}')"
  cat >"$dir/$state.meta.json" <<EOF
{
  "cols": 120,
  "rows": 40,
  "cursor": {
    "x": $x,
    "y": $y,
    "visible": false
  },
  "cli": "grok-cli",
  "version": "0.0.34",
  "package": "@vibe-kit/grok-cli",
  "how": "Re-captured live (tests/real/capture-grok.sh): fresh HOME, GROK_API_KEY and GROK_BASE_URL at the project's mock (Chat Completions), offline in a private network namespace, started as grok from an sh in a git checkout, 120x40. $how",
  "expect": $expect
}
EOF
  echo "wrote $dir/$state.*"
}

wait_for '$'
t send-keys -t "$p" -l grok
t send-keys -t "$p" Enter
wait_for "Ask me anything..." "auto-edit: off"
save idle-empty "Its first screen: logo, tips, the composer with its placeholder." \
  '{"state": "idle", "dialog": null, "composer": "", "placeholder": "Ask me anything...", "working_hint": null}'

t send-keys -t "$p" -l "please say hello"
wait_for "❯ please say hello"
save idle-typed "Typed, no Enter." \
  '{"state": "idle", "dialog": null, "composer": "please say hello", "working_hint": null}'
t send-keys -t "$p" C-u
wait_for "Ask me anything..."

t send-keys -t "$p" -l "please answer slowly"
sleep 0.3
t send-keys -t "$p" Enter
wait_for "esc to interrupt"
save working "Prompted; the mock holds its reply (the stream is open): the spinner row above the composer." \
  '{"state": "working", "dialog": null, "composer": "", "working_hint": "esc to interrupt"}'
touch "$top/mock/gates/go" 2>/dev/null || { mkdir -p "$top/mock/gates" && touch "$top/mock/gates/go"; }
wait_for "Here is the slow answer."
wait_gone "esc to interrupt"
save idle-after-reply "After the held reply finished." \
  '{"state": "idle", "dialog": null, "composer": "", "working_hint": null}'

t send-keys -t "$p" -l "please run the tool"
sleep 0.3
t send-keys -t "$p" Enter
wait_for "Do you want to proceed with this operation?"
save permission-bash "Prompted; the mock answered with a bash tool call (touch outside the checkout): the confirmation dialog." \
  '{"state": "dialog", "dialog": "permission", "subkind": "bash", "composer": null, "working_hint": null}'
t send-keys -t "$p" Escape
wait_gone "Do you want to proceed with this operation?"
wait_gone "esc to interrupt"
wait_for "Ask me anything..."
save idle-after-permission-esc "The dialog answered with Esc: the operation cancelled, the composer back." \
  '{"state": "idle", "dialog": null, "composer": "", "working_hint": null}'

t send-keys -t "$p" C-c
for _ in $(seq 300); do
  last="$(t capture-pane -p -t "$p" | sed '/^\s*$/d' | tail -n1)"
  [ "$last" = '$' ] && break
  sleep 0.1
done
[ "$last" = '$' ] || { echo "grok never gave the shell back after Ctrl-C" >&2; t capture-pane -p -t "$p" >&2; exit 1; }
save exited-after-ctrl-c "One Ctrl-C at the empty composer: Ink's exitOnCtrlC ends the process; the shell's prompt is back under its last frame." \
  '{"state": "exited", "dialog": null, "composer": null, "working_hint": null}'
echo "mock requests: $(wc -l <"$top/mock/requests.jsonl")"
