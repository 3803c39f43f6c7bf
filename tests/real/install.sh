#!/usr/bin/env bash
# Installs the real vendor CLIs the real-CLI test tier drives (host/tests/it/real_cli), exactly
# as pinned by tests/real/package-lock.json: Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0,
# Qwen Code 0.24.4, GitHub Copilot CLI 1.0.102, opencode 1.18.33 and grok-cli 0.0.34 (npm
# `@vibe-kit/grok-cli`, which names itself 1.0.1 in `grok --version`).
#
# `npm ci` runs into a cache folder the machine keeps between runs,
# ${TEAM_TESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/team-tests}/real-cli/<lockfile hash>/, and
# only when that folder is not already a finished install of this very lockfile;
# tests/real/node_modules is then a symbolic link to it (the tests look only there), and
# copilot-cache/ beside it holds the binary Copilot extracts (COPILOT_CACHE_HOME). About 1.9 GB.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${TEAM_TESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/team-tests}/real-cli"
hash="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
dir="$cache/$hash"

installed() {
  [ -f "$dir/.installed" ] &&
    for b in claude codex gemini qwen copilot opencode grok; do [ -x "$dir/node_modules/.bin/$b" ] || return 1; done &&
    [ -d "$dir/copilot-cache/pkg" ] && claude_is_pinned
}

# (the version read whole, then matched: `| grep -q` under pipefail fails when grep exits
# before claude has written its line)
claude_is_pinned() {
  [[ "$("$dir/node_modules/.bin/claude" --version 2>/dev/null)" == "2.1.332 "* ]]
}

if ! installed; then
  start=$(date +%s)
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  # Claude Code's postinstall puts its native binary over the bin/claude.exe stub; an npm that
  # held the script back (allowScripts) leaves the stub: run the package's own script then.
  if ! "$dir/node_modules/.bin/claude" --version >/dev/null 2>&1; then
    (cd "$dir/node_modules/@anthropic-ai/claude-code" && node install.cjs)
  fi
  claude_is_pinned || {
    echo "tests/real/install.sh: claude --version is not 2.1.332 after npm ci" >&2
    exit 1
  }
  # Copilot's loader extracts its 235 MB binary into $COPILOT_CACHE_HOME at its first run: once
  # here, into the install's own copilot-cache/, which every test's Copilot then shares. (A
  # throwaway HOME: nothing of it lands in the real one.)
  HOME="$dir/copilot-home" COPILOT_CACHE_HOME="$dir/copilot-cache" "$dir/node_modules/.bin/copilot" --version >/dev/null
  rm -rf "$dir/copilot-home"
  [ -d "$dir/copilot-cache/pkg" ] || {
    echo "tests/real/install.sh: copilot --version extracted nothing into $dir/copilot-cache" >&2
    exit 1
  }
  touch "$dir/.installed"
  echo "tests/real/install.sh: installed the pinned CLIs in $(($(date +%s) - start)) s ($(du -sh "$dir" | cut -f1)) at $dir"
fi
# This install was used now; of the others (other lockfiles: other branches, other checkouts
# of this machine, each linked to its own), the two used last stay, older ones go.
touch "$dir"
find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name "$hash" -printf '%T@ %p\n' | sort -rn | tail -n +3 |
  cut -d' ' -f2- | while read -r old; do rm -rf "$old"; done

link="$here/node_modules"
if [ "$(readlink "$link" 2>/dev/null)" != "$dir/node_modules" ]; then
  rm -rf "$link"
  ln -s "$dir/node_modules" "$link"
fi
