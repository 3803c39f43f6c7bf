# Shared by the bench scripts (sourced, never run): the steps every pty-bound bench repeats.
#
# `team send` refuses a run with no terminal, so a bench whose runs send re-executes itself
# under `script`: the inner run and every command it starts share one pseudo-terminal, and
# nothing of the wrapper is timed. The inner run writes its report to $BENCH_OUT/report.txt.

# need <bench name> <tool>…: stops with a sentence naming the first tool that is missing.
need() {
  local name="$1"; shift
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "bench/$name: $tool is not installed" >&2; exit 2; }
  done
}

# run_inner_in_pty <script>: runs `<script> --inner` under a pseudo-terminal and prints the
# report it wrote; the report folder is removed after.
run_inner_in_pty() {
  local script="$1" out
  out="$(mktemp -d)"
  BENCH_OUT="$out" script -qec "bash '$script' --inner" /dev/null </dev/null >/dev/null
  cat "$out/report.txt"
  rm -rf "$out"
}

# spec_team <checkout> <project>: a git checkout whose .agents/team.yaml is the spec's two seats
# (claude-keeper, who leads, and gpt-reviewer) in the tmux session named like the project.
spec_team() {
  mkdir -p "$1/.agents"
  git -C "$1" init -q
  cat >"$1/.agents/team.yaml" <<YAML
format: 1
project: $2
session: $2
multiplexer: tmux
seats:
  - name: claude-keeper
    cli: claude-code
    leads: true
  - name: gpt-reviewer
    cli: codex
YAML
}
