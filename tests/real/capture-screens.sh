#!/usr/bin/env bash
# Captures two real screens of the pinned CLIs (tests/real/install.sh installs them) the way
# tests/data/screens/README.md describes (`capture-pane -p`, `-p -e`, the pane title, a meta),
# offline: everything runs in a private network namespace with only loopback up
# (docs/offline-vendor-clis.md), each CLI with a fresh HOME of its own.
#
#   claude-code-2.1.332/exited-unable-to-connect: Claude Code started from a shell with no
#     ~/.claude.json: its first-run check cannot reach Anthropic, it prints `Unable to connect to
#     Anthropic services` and exits; the shell's prompt comes back under that text.
#   codex-0.171.0/onboarding-signin-logo: Codex started with no config and no auth: its sign-in
#     screen, under the big braille logo it keeps there in a 120x50 pane.
#   codex-0.171.0/hooks-need-review: Codex signed in to a provider, in a trusted git checkout
#     whose `.codex/hooks.json` holds the three hooks `team hooks install` writes, with
#     `[features] codex_hooks = true`: the `Hooks need review` screen it shows before its prompt.
#
# Usage: bash tests/real/capture-screens.sh <out-dir>   (root: `unshare --net` needs it)
# Writes <out-dir>/<cli>-<version>/<state>.{txt,ansi,title,meta.json}; the meta's `expect` is
# what the screen must read as, written here by hand from what the screen shows. Throwaway paths
# are replaced with `<home>` as in the other captures.
set -euo pipefail
if [ "${1:-}" != "--inside" ]; then
  out="$(mkdir -p "${1:?usage: capture-screens.sh <out-dir>}" && cd "$1" && pwd)"
  exec unshare --net -- bash "$0" --inside "$out"
fi
out="$2"
ip link set lo up
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/node_modules/.bin"
[ -x "$bin/claude" ] && [ -x "$bin/codex" ] || { echo "run bash tests/real/install.sh first" >&2; exit 1; }
top="$(mktemp -d /var/tmp/team-capture-XXXXXX)"
sock="$top/tmux.sock"
printf 'set -g default-terminal tmux-256color\nset -g status off\n' >"$top/tmux.conf"
t() { tmux -S "$sock" "$@"; }
cleanup() {
  t kill-server 2>/dev/null || true
  # Codex's app-server daemon outlives its TUI (docs/offline-vendor-clis.md §2.6): stop it by pid.
  for f in "$top"/*/.codex/app-server-daemon/*.pid; do
    [ -f "$f" ] && kill "$(sed 's/[^0-9]//g' "$f")" 2>/dev/null || true
  done
  rm -rf "$top"
}
trap cleanup EXIT

# One pane: a plain `sh` with a `$ ` prompt in <top>/proj, HOME=<top>/<name>, PATH with the CLIs.
# pane <name> <cols> <rows> [VAR=value…]: the further arguments are the pane's environment.
pane() {
  local name="$1" cols="$2" rows="$3"
  shift 3
  mkdir -p "$top/$name" "$top/proj"
  t -f "$top/tmux.conf" new-session -d -s "$name" -x "$cols" -y "$rows" -c "$top/proj" \
    env -i HOME="$top/$name" PATH="$bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TERM=tmux-256color \
    COLORTERM=truecolor PS1='$ ' "$@" sh
  t display -p -t "=$name:" '#{pane_id}'
}

# Waits (up to 60 s) until the pane's plain screen holds every one of the given texts.
wait_for() {
  local p="$1"
  shift
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

# Saves the pane as <dir>/<state>.* with the meta's `how` and `expect`.
save() {
  local p="$1" dir="$out/$2" state="$3" cli="$4" version="$5" how="$6" expect="$7"
  mkdir -p "$dir"
  local scrub="s#$top/[a-z]*#<home>#g"
  t capture-pane -p -t "$p" | sed "$scrub" >"$dir/$state.txt"
  t capture-pane -p -e -t "$p" | sed "$scrub" >"$dir/$state.ansi"
  t display -p -t "$p" '#{pane_title}' | sed "$scrub" >"$dir/$state.title"
  local x y cols rows
  x="$(t display -p -t "$p" '#{cursor_x}')"
  y="$(t display -p -t "$p" '#{cursor_y}')"
  cols="$(t display -p -t "$p" '#{pane_width}')"
  rows="$(t display -p -t "$p" '#{pane_height}')"
  cat >"$dir/$state.meta.json" <<EOF
{
  "cols": $cols,
  "rows": $rows,
  "cursor": {
    "x": $x,
    "y": $y,
    "visible": true
  },
  "cli": "$cli",
  "version": "$version",
  "how": "$how",
  "expect": $expect
}
EOF
  echo "wrote $dir/$state.*"
}

# Claude Code: no ~/.claude.json, the offline switches of docs/offline-vendor-clis.md §1.2.
p="$(pane claude 120 40 ANTHROPIC_BASE_URL=http://127.0.0.1:9 \
  ANTHROPIC_API_KEY=sk-ant-test-0000000000000000000000000000000000000000 \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1 \
  DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1)"
wait_for "$p" '$'
t send-keys -t "$p" -l "claude"
t send-keys -t "$p" Enter
wait_for "$p" "Unable to connect to Anthropic services"
# the shell's prompt back under the text: the last non-empty row is `$`
for _ in $(seq 300); do
  last="$(t capture-pane -p -t "$p" | sed '/^\s*$/d' | tail -n1)"
  [ "$last" = '$' ] && break
  sleep 0.1
done
[ "$last" = '$' ] || { echo "claude never gave the shell back" >&2; t capture-pane -p -t "$p" >&2; exit 1; }
save "$p" claude-code-2.1.332 exited-unable-to-connect claude-code 2.1.332 \
  "Fresh HOME (no ~/.claude.json), started from an sh whose prompt is \`\$ \`, offline (private network namespace, loopback only): the first-run check cannot reach Anthropic, Claude prints Unable to connect to Anthropic services and exits (status 1); the shell's prompt is back under the text. tests/real/capture-screens.sh" \
  '{
    "state": "exited",
    "dialog": null,
    "composer": null,
    "note": "the provider error is what the CLI printed before it exited; the pane is the shell now"
  }'

# Codex: a fresh CODEX_HOME with no config.toml and no auth.json: the sign-in screen.
mkdir -p "$top/codex/.codex"
p="$(pane codex 120 50 CODEX_HOME="$top/codex/.codex")"
wait_for "$p" '$'
t send-keys -t "$p" -l "codex --no-daemon"
t send-keys -t "$p" Enter
# the logo is drawn first and stays over the sign-in screen in a pane this tall (at 40 rows it
# is gone by the time the sign-in screen comes)
wait_for "$p" "Sign in with ChatGPT" "Press enter to continue" "⣿⣿⣿"
save "$p" codex-0.171.0 onboarding-signin-logo codex 0.171.0 \
  "Fresh HOME and CODEX_HOME (no config.toml, no auth.json), codex --no-daemon started from an sh in a plain folder, offline (private network namespace, loopback only), in a 120x50 pane: the sign-in screen under the braille logo Codex keeps there at this height (at 40 rows the logo is gone before the sign-in screen comes). tests/real/capture-screens.sh" \
  '{
    "state": "dialog",
    "dialog": "vendor_notice",
    "subkind": "login",
    "composer": null,
    "working_hint": null,
    "title": "Welcome to Codex, OpenAI'"'"'s command-line coding agent"
  }'

# Codex with hooks that are new to it: a provider configured (nothing is sent at startup), the
# checkout trusted, the hooks feature on and the checkout's `.codex/hooks.json` holding the
# PostToolUse, Stop and UserPromptSubmit hooks `team hooks install` writes (docs/inbox.md).
mkdir -p "$top/hooks/.codex" "$top/hooked/.codex"
git -C "$top/hooked" init -q
cat >"$top/hooks/.codex/config.toml" <<EOF
model = "gpt-5.1-codex"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:9/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"

[analytics]
enabled = false

[features]
codex_hooks = true

[projects."$top/hooked"]
trust_level = "trusted"
EOF
hook() { printf '[{%s"hooks":[{"type":"command","command":"/usr/local/bin/team hook %s"}]}]' "$1" "$2"; }
printf '{"hooks":{"PostToolUse":%s,"Stop":%s,"UserPromptSubmit":%s}}\n' \
  "$(hook '"matcher":"*",' post-tool-use)" "$(hook '' stop)" "$(hook '' user-prompt-submit)" \
  >"$top/hooked/.codex/hooks.json"
p="$(pane hooks 120 40 CODEX_HOME="$top/hooks/.codex" MOCK_API_KEY=mock-key)"
wait_for "$p" '$'
t send-keys -t "$p" -l "cd $top/hooked && codex --no-daemon"
t send-keys -t "$p" Enter
wait_for "$p" "Hooks need review" "3. Continue without trusting (hooks won't run)" "enter confirm"
save "$p" codex-0.171.0 hooks-need-review codex 0.171.0 \
  "CODEX_HOME with the mock provider, [features] codex_hooks = true and the checkout trusted; the checkout (git init) holds .codex/hooks.json with the PostToolUse (matcher *), Stop and UserPromptSubmit hooks team hooks install writes, none trusted yet; codex --no-daemon started from an sh, offline (private network namespace, loopback only), 120x40. Codex shows this before its prompt; 2 (Trust all and continue) writes [hooks.state.\\\"<checkout>/.codex/hooks.json:<event>:0:0\\\"] trusted_hash into config.toml. tests/real/capture-screens.sh" \
  '{
    "state": "dialog",
    "dialog": "trust",
    "composer": null,
    "working_hint": null,
    "title": "Hooks need review",
    "note": "never typed into: a key here trusts (or refuses) hooks nobody approved; team send leaves the message in the inbox of the seat, or says unreachable"
  }'
