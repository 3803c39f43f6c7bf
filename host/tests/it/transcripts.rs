//! Transcript tests: every `host/tests/transcripts/<command>/*.md` file is a fresh fixture
//! world (the spec's beacon checkout, an empty registry) and a story of commands.
//!
//! - a ```` ```setup ```` block is bash run in the checkout with the world's env (write
//!   registry files, grants, another team's checkout, …), at the point it stands;
//! - a ```` ```console ```` block holds `$ <command>` lines, each followed by the output it
//!   must print, byte for byte. Each command runs under `bash -c` in the checkout with stdin
//!   on a real pseudo-terminal and stdout+stderr merged into one pipe in order — as the
//!   spec's transcripts show them — with the built `team` first on PATH.
//!
//! Helpers the commands may use (a prelude sourced through `BASH_ENV`):
//! `as_seat <seat> <cmd…>` runs the command from a real tmux pane marked `@team-seat <seat>`
//! (a pane of the seats' session `beacon` once `fake_seats` started it);
//! `in_seat <seat> <cmd…>` runs it through the seat's "shell tool" (`fake_seats --tool`): below
//! the shell of the pane its fake seat runs in, with no terminal, as the agent's CLI would;
//! `as_agent <name> <cmd…>` runs it under a process named `<name>` (an agent CLI ancestor);
//! `no_tty <cmd…>` runs it with no terminal at all;
//! `as_daemon <cmd…>` runs it, with no terminal, under a process whose argv is Codex's shared
//! `codex app-server` daemon's;
//! `fake_seats <seat>:<cli>[:<mode>]…` (in a setup block) starts fake seats in the world's
//! private tmux session `beacon`, which every run of that file then reaches (`TEAM_TMUX_SOCKET`).
//! `herdr_seat <seat> <state> [<pane>]` (in a setup block) stands up a recorded herdr 0.8.2
//! session `beacon` whose agent `<seat>` is the real Claude Code 2.1.332 in the recorded
//! `<state>` (`tests/data/herdr-0.8.2/real/claude-code-2.1.332/`) on `<pane>` (default
//! `w1:p1`); every run of that file then reaches it through `HERDR_BIN` (see below).
//!
//! The recorded herdr (herdr cannot be installed where the tests run): `$WORLD/herdr-bin/herdr`
//! answers each argv with the output herdr recorded for it, and any other argv with exit 3 and
//! a line saying no recording answers it; it appends every argv it is called with to
//! `$WORLD/herdr-calls`, one line each. `herdr_seat` files the answers from the recorded
//! state, with what a recording cannot know filled in: the seat's name for the recorded agent
//! name, `<pane>` for the recorded pane, the world's checkout for the recorded folder, and the
//! pids of a real fake Claude seat (running in a tmux pane of the world, with its sessions-
//! registry entry and socket) for the recorded shell and CLI pids — so the pane's processes,
//! the CLI's start time and its socket are read from this machine, as they are under herdr
//! (the fake Claude's pid is kept in `$WORLD/herdr-cli-<seat>`).
//! `workspace rename` and `pane report-metadata` are answered with the recordings of those
//! commands (`workspace-rename.json`; 0.7.1's `pane-report-metadata.txt`, empty).
//!
//! Every output of a command with `--json` is also validated against its schema in
//! `schema/`. `TRANSCRIPTS_OVERWRITE=1` rewrites the files with what the binary printed;
//! `TRANSCRIPTS_ONLY=<part of a path>` runs only the files whose path holds it.

use std::path::{Path, PathBuf};

use crate::common;
use crate::common::World;

pub(crate) const PRELUDE: &str = r#"
as_seat() {
  # Runs the command INSIDE a new pane of the world's tmux server, marked `@team-seat <seat>`:
  # a caller's pane is believed only when the process descends from the pane's shell, so
  # naming one in TMUX_PANE from outside would be a claimed identity. The run's environment
  # is carried over (not TMUX/TMUX_PANE: the pane has its own); its stdout, stderr and exit
  # code are handed back.
  local seat="$1"; shift
  local sock="$TEAM_TEST_TMUX" d ch pane rc
  # once `fake_seats` started the seats' server, the pane is one of its session `beacon`
  if [ -n "$TEAM_TMUX_SOCKET" ] && tmux -S "$TEAM_TMUX_SOCKET" has-session -t =beacon 2>/dev/null; then
    sock="$TEAM_TMUX_SOCKET"
  fi
  d=$(mktemp -d "$WORLD/as-seat.XXXXXX"); ch="${d##*/}"
  printf '%q ' "$@" > "$d/cmd"
  export -p | grep -v -E '^declare -x (TMUX|TMUX_PANE|OLDPWD|PWD|SHLVL)=' > "$d/env"
  cat > "$d/run.sh" <<RUN
tmux -S '$sock' wait-for 'go-$ch'
. '$d/env'
cd '$PWD'
bash -c "\$(cat '$d/cmd')" > '$d/out' 2> '$d/err'
echo \$? > '$d/rc'
tmux -S '$sock' wait-for -S 'done-$ch'
RUN
  pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' "bash --norc --noprofile '$d/run.sh'") || return 99
  tmux -S "$sock" set-option -p -t "$pane" @team-seat "$seat"
  tmux -S "$sock" wait-for -S "go-$ch"
  tmux -S "$sock" wait-for "done-$ch"
  cat "$d/out"; cat "$d/err" >&2
  rc=$(cat "$d/rc")
  tmux -S "$sock" kill-pane -t "$pane" 2>/dev/null
  rm -rf "$d"
  return "$rc"
}
in_seat() {
  # Runs the command through seat <seat>'s shell tool (`fake_seats --tool`): a process below
  # the seat's own pane's shell, with no terminal, as the agent in that pane runs a command.
  # The run's environment is carried over (not TMUX/TMUX_PANE: the pane's own stand); its
  # stdout, stderr and exit code are handed back.
  local seat="$1"; shift
  local d="$WORLD/tool/$seat" b n
  mkdir -p "$d"
  b="$d/$(date +%s%N)-$$"
  printf '%q ' "$@" > "$b.tmp"
  export -p | grep -v -E '^declare -x (TMUX|TMUX_PANE|OLDPWD|PWD|SHLVL)=' > "$b.env"
  echo "$PWD" > "$b.cwd"
  mv "$b.tmp" "$b.cmd"
  for n in $(seq 2400); do [ -e "$b.rc" ] && break; sleep 0.05; done
  cat "$b.out"; cat "$b.err" >&2
  return "$(cat "$b.rc")"
}
as_agent() {
  local name="$1"; shift
  mkdir -p "$WORLD/agent-bin"; cp /bin/bash "$WORLD/agent-bin/$name"
  "$WORLD/agent-bin/$name" -c '"$@"; exit $?' "$name" "$@"
}
no_tty() {
  setsid -w "$@" </dev/null
}
as_daemon() {
  # Runs the command under a process whose argv is `codex app-server --listen unix://`, as
  # Codex 0.171's shared daemon runs every session's commands (docs/offline-vendor-clis.md):
  # a copy of bash named codex, reading a script named app-server. No terminal.
  local d; d=$(mktemp -d "$WORLD/daemon.XXXXXX"); cp /bin/bash "$d/codex"
  { printf 'cd %q\n' "$PWD"; printf '%q ' "$@"; echo; } > "$d/app-server"
  (cd "$d" && ./codex app-server --listen unix:// </dev/null)
}
herdr_answer() {
  # herdr_answer <code> <file under tests/data | -> <argv…> [*]: the recorded herdr's answer to
  # `herdr <argv…>` (with a final `*`: to every argv that starts so), the file's text (stderr
  # when its name says `.stderr.`) with the world's substitutions (HERDR_SUBST, sed).
  local code="$1" file="$2"; shift 2
  local dir="$WORLD/herdr-answers" kind=exact key
  if [ "${@: -1}" = "*" ]; then kind=prefix; set -- "${@:1:$(($# - 1))}"; fi
  mkdir -p "$dir"
  key=$(printf '%s\037' "$@" | sha256sum | cut -c1-32).$kind
  echo "$code" > "$dir/$key.code"
  if [ "$file" != - ]; then
    local out="$dir/$key.out"
    case "$file" in *.stderr.*) out="$dir/$key.err" ;; esac
    sed -e "${HERDR_SUBST:-s/^//}" "$TEAM_TEST_DATA/$file" > "$out"
  fi
}
herdr_seat() {
  local seat="$1" state="$2" pane="${3:-w1:p1}"
  local sock="$WORLD/seats.sock" real=herdr-0.8.2/real/claude-code-2.1.332 home="$WORLD/home-$seat" win shell cli
  mkdir -p "$WORLD/herdr-bin" "$home" "$WORLD/run"
  cat > "$WORLD/herdr-bin/herdr" <<'REPLAY'
#!/bin/bash
dir="$WORLD/herdr-answers"
printf '%s\n' "$*" >> "$WORLD/herdr-calls"
answer() {
  [ -f "$dir/$1.code" ] || return 1
  [ -f "$dir/$1.out" ] && cat "$dir/$1.out"
  [ -f "$dir/$1.err" ] && cat "$dir/$1.err" >&2
  exit "$(cat "$dir/$1.code")"
}
answer "$(printf '%s\037' "$@" | sha256sum | cut -c1-32).exact"
for ((n = $# - 1; n > 0; n--)); do
  answer "$(printf '%s\037' "${@:1:n}" | sha256sum | cut -c1-32).prefix"
done
printf 'herdr (recorded): no recording answers: herdr %s\n' "$*" >&2
exit 3
REPLAY
  chmod +x "$WORLD/herdr-bin/herdr"
  tmux -S "$sock" -f /dev/null has-session 2>/dev/null ||
    tmux -S "$sock" -f /dev/null new-session -d -s herdr -x 120 -y 40 -n keep sh </dev/null >/dev/null 2>&1
  win=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t herdr: -c "$PWD" -e "HOME=$home" \
    -e "CLAUDE_CODE_TMPDIR=$WORLD/run" "fake-seat --cli claude-code --delay-ms 200; exec sh")
  for _ in $(seq 2400); do
    shell=$(tmux -S "$sock" display-message -p -t "$win" '#{pane_pid}')
    cli=$(cat "/proc/$shell/task/$shell/children" 2>/dev/null | awk '{print $1}')
    [ -n "$cli" ] && [ "$(cat "/proc/$cli/comm" 2>/dev/null)" = claude ] && [ -n "$(ls "$home/.claude/sessions" 2>/dev/null)" ] && break
    sleep 0.05
  done
  echo "$cli" > "$WORLD/herdr-cli-$seat"
  local p=${pane#*:p} w=${pane%%:*}
  HERDR_SUBST="s/\"name\":\"lead\"/\"name\":\"$seat\"/g; s/w1:p2/$pane/g; s/w1:t2/$w:t$p/g; s/27311/$shell/g; s/27322/$cli/g; s#<fx>/proj-claude#$PWD#g"
  # `pane list`: every pane a herdr_seat stood up so far (the caller check lists them)
  echo "$pane" >> "$WORLD/herdr-panes"
  local entries="" id
  for id in $(sort -u "$WORLD/herdr-panes"); do
    entries="$entries${entries:+,}{\"agent\":\"claude\",\"agent_status\":\"idle\",\"cwd\":\"$PWD\",\"focused\":false,\"foreground_cwd\":\"$PWD\",\"pane_id\":\"$id\",\"revision\":1,\"tab_id\":\"${id%%:*}:t${id#*:p}\",\"workspace_id\":\"${id%%:*}\"}"
  done
  # (the fields of tests/data/herdr-0.8.2/pane-list-agents.json, one entry per pane)
  mkdir -p "$WORLD/herdr-answers"
  printf '{"id":"cli:pane:list","result":{"panes":[%s]}}\n' "$entries" > "$WORLD/herdr-pane-list.json"
  echo 0 > "$WORLD/herdr-answers/$(printf '%s\037' --session beacon pane list | sha256sum | cut -c1-32).exact.code"
  cp "$WORLD/herdr-pane-list.json" "$WORLD/herdr-answers/$(printf '%s\037' --session beacon pane list | sha256sum | cut -c1-32).exact.out"
  herdr_answer 0 herdr-0.8.2/version.txt --version
  herdr_answer 0 herdr-0.8.2/status-running.txt --session beacon status
  herdr_answer 0 "$real/$state.agent-get.json" --session beacon agent get "$seat"
  herdr_answer 0 "$real/$state.agent-get.json" --session beacon agent get "$pane"
  herdr_answer 0 "$real/$state.process-info.json" --session beacon pane process-info --pane "$pane"
  herdr_answer 0 "$real/$state.visible.ansi" --session beacon pane read "$pane" --source visible --format ansi
  herdr_answer 0 "$real/$state.visible.ansi" --session beacon pane read "$pane" --source recent --lines 200 --format ansi
  herdr_answer 0 herdr-0.8.2/workspace-rename.json --session beacon workspace rename "$w" beacon
  # the display line is whatever the seat's file says: report-metadata prints nothing on success
  herdr_answer 0 herdr-0.7.1/pane-report-metadata.txt --session beacon pane report-metadata "$pane" --source team --display-agent '*'
}
herdr_missing() {
  # herdr_missing <name>…: the recorded herdr answers `agent get <name>` with agent_not_found
  local n
  for n in "$@"; do
    HERDR_SUBST="s/nosuch/$n/" herdr_answer 1 herdr-0.8.2/error-agent-get-unknown.stderr.json --session beacon agent get "$n"
  done
}
[ -x "$WORLD/herdr-bin/herdr" ] && export HERDR_BIN="$WORLD/herdr-bin/herdr"
fake_seats() {
  # Starts the world's seats: a private tmux server ($TEAM_TMUX_SOCKET) whose session
  # `beacon` holds one pane per `<seat>:<cli>[:<mode>]`, running `fake-seat` (real vendor
  # screens), marked `@team-seat <seat>`. Waits until each has drawn its screen.
  # `fake_seats --tool …`: each pane's shell also runs the seat's "shell tool" in the
  # background (`in_seat` hands it commands), as an agent's CLI runs its commands.
  local sock="$TEAM_TMUX_SOCKET" spec seat cli mode pane tool=""
  if [ "$1" = --tool ]; then
    shift
    cat > "$WORLD/seat-tool.sh" <<'TOOL'
# the seat's shell tool: runs each command file dropped in $1, below the pane's shell, with no
# terminal (setsid), in the environment the command was handed with and the pane's TMUX
# It ends with the pane's shell (its parent) or its world: a loop left behind would poll for
# ever and load every later test.
d="$1"; mkdir -p "$d"
while [ -d "$d" ] && kill -0 "$PPID" 2>/dev/null; do
  for f in "$d"/*.cmd; do
    [ -e "$f" ] || continue
    b="${f%.cmd}"; mv "$f" "$b.run"
    ( . "$b.env"; cd "$(cat "$b.cwd")" && setsid -w bash -c "$(cat "$b.run")" > "$b.out" 2> "$b.err" < /dev/null
      echo $? > "$b.rc.tmp"; mv "$b.rc.tmp" "$b.rc" )
  done
  sleep 0.05
done
TOOL
  fi
  # (the server must not keep the run's output pipe open: it outlives this block)
  tmux -S "$sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 -n keep sh </dev/null >/dev/null 2>&1
  for spec in "$@"; do
    IFS=: read -r seat cli mode <<< "$spec"
    [ -f "$WORLD/seat-tool.sh" ] && tool="bash --norc --noprofile '$WORLD/seat-tool.sh' '$WORLD/tool/$seat' </dev/null >/dev/null 2>&1 & "
    pane=$(tmux -S "$sock" new-window -d -P -F '#{pane_id}' -t beacon: -c "$PWD" \
      "${tool}fake-seat --cli $cli --mode ${mode:-takes-line} --delay-ms 200; exec sh")
    tmux -S "$sock" set-option -p -t "$pane" @team-seat "$seat"
    for _ in $(seq 2400); do
      [ -n "$(tmux -S "$sock" capture-pane -p -t "$pane" | tr -d '[:space:]')" ] && break
      sleep 0.05
    done
  done
}
"#;

#[derive(Debug)]
enum Block {
    Setup(String),
    Console(Vec<(String, String)>),
}

/// Splits a transcript file into its blocks, keeping everything else as written.
fn parse(text: &str) -> Vec<(Block, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut lines = text.split_inclusive('\n').scan(0usize, |pos, l| {
        let start = *pos;
        *pos += l.len();
        Some((start, l))
    });
    while let Some((_, l)) = lines.next() {
        let kind = match l.trim_end() {
            "```setup" => "setup",
            "```console" => "console",
            _ => continue,
        };
        let mut body = String::new();
        let mut body_start = None;
        let mut end = 0;
        for (s, l) in lines.by_ref() {
            if body_start.is_none() {
                body_start = Some(s);
            }
            if l.trim_end() == "```" {
                end = s;
                break;
            }
            body.push_str(l);
        }
        let start = body_start.unwrap_or(end);
        let block = if kind == "setup" {
            Block::Setup(body)
        } else {
            let mut cmds: Vec<(String, String)> = Vec::new();
            for l in body.split_inclusive('\n') {
                if let Some(c) = l.strip_prefix("$ ") {
                    cmds.push((c.trim_end_matches('\n').to_string(), String::new()));
                } else if let Some(last) = cmds.last_mut() {
                    last.1.push_str(l);
                }
            }
            Block::Console(cmds)
        };
        out.push((block, start..end));
    }
    out
}

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut v = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if sub.is_dir() {
            for f in std::fs::read_dir(&sub).unwrap() {
                let f = f.unwrap().path();
                if f.extension().and_then(|e| e.to_str()) == Some("md") {
                    v.push(f);
                }
            }
        }
    }
    v.sort();
    // (while writing one: `TRANSCRIPTS_ONLY=<part of its path>` runs only the files it names)
    if let Some(only) = std::env::var_os("TRANSCRIPTS_ONLY").filter(|o| !o.is_empty()) {
        let only = only.to_string_lossy().into_owned();
        v.retain(|f| f.display().to_string().contains(&only));
    }
    v
}

/// Runs one file; returns the text it should have and the problems found.
fn run_file(path: &Path) -> (String, String, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut w = World::beacon();
    let prelude = w.base().join("prelude.sh");
    std::fs::write(&prelude, PRELUDE).unwrap();
    w.extra_env.push(("BASH_ENV".into(), prelude.display().to_string()));
    if text.contains("as_seat ") {
        w.tmux_pane();
    }
    // `fake_seats` starts its server here; setting the socket chooses tmux for every run.
    w.extra_env.push((
        "TEAM_TEST_DATA".into(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data").display().to_string(),
    ));
    let seats_sock = w.base().join("seats.sock");
    if text.contains("fake_seats ") {
        w.extra_env.push(("TEAM_TMUX_SOCKET".into(), seats_sock.display().to_string()));
    }
    let mut problems = Vec::new();
    let mut actual = String::new();
    let mut last = 0;
    for (block, range) in parse(&text) {
        actual.push_str(&text[last..range.start]);
        last = range.end;
        match block {
            Block::Setup(script) => {
                let out = w.run_pty_merged(&format!("set -e\n{script}"), &w.repo.clone());
                if !out.is_empty() {
                    problems.push(format!("{}: setup printed: {out}", path.display()));
                }
                actual.push_str(&script);
            }
            Block::Console(cmds) => {
                for (cmd, expected) in cmds {
                    let got = w.run_pty_merged(&cmd, &w.repo.clone());
                    if got != expected {
                        problems
                            .push(format!("{}: $ {cmd}\n--- expected\n{expected}--- got\n{got}---", path.display()));
                    }
                    // a whole document (not one piped through grep) is validated
                    if cmd.contains("--json") && got.starts_with('{') {
                        let doc = got.rsplit_once("exit ").map(|(d, _)| d).unwrap_or(&got);
                        match serde_json::from_str::<serde_json::Value>(doc) {
                            Ok(v) => {
                                if let Err(e) = common::validate(&v) {
                                    problems.push(format!("{}: $ {cmd}\n{e}", path.display()));
                                }
                            }
                            Err(e) => problems
                                .push(format!("{}: $ {cmd}\nnot one JSON document ({e}):\n{got}", path.display())),
                        }
                    }
                    actual.push_str(&format!("$ {cmd}\n{got}"));
                }
            }
        }
    }
    actual.push_str(&text[last..]);
    let _ = std::process::Command::new("tmux").arg("-S").arg(&seats_sock).arg("kill-server").output();
    (text, actual, problems)
}

#[test]
fn transcripts() {
    let files = files();
    assert!(!files.is_empty(), "no transcript files");
    let overwrite = std::env::var_os("TRANSCRIPTS_OVERWRITE").is_some();
    let mut problems = Vec::new();
    for f in &files {
        let (text, actual, p) = run_file(f);
        if overwrite && text != actual {
            std::fs::write(f, &actual).unwrap();
        }
        problems.extend(p);
    }
    assert!(problems.is_empty(), "{} problem(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

/// With no terminal at all, `team send --list` is refused with the spec's sentence, before
/// anything else, and writes nothing.
#[test]
fn no_terminal_is_refused_before_list() {
    let w = World::beacon();
    let r = w.team_no_tty(&["send", "--list"]);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "team send: only the owner or a seat the send admission admits runs this, from a terminal outside herdr or its own pane\n"
    );
    assert_eq!(r.code, 1);
    let r = w.team_no_tty(&["send", "--list", "--json"]);
    assert_eq!(r.stderr, "");
    assert_eq!(r.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    common::validate(&doc).unwrap();
    assert_eq!(doc["error"]["id"], "send.refused");
    assert!(!w.repo.join(".agents/team.log").exists());
    // the same run with a terminal lists
    let r = w.team(&["send", "--list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.ends_with("2 seats\n"));
}
