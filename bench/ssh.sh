#!/usr/bin/env bash
# A send to a seat on another machine over ssh against a local send to the same fake seat:
# `team send reviewer …` run by A's owner, carried over the reused ControlMaster connection to
# B's `team hop deliver`, which types into B's fake Codex seat; and `team send reviewer …` run
# by B's owner on B into that very seat. Goal (issue 32): the remote median ≤ 1.5 × the local
# median, same run; the first remote send (it pays the ssh handshake and brings the control
# connection up) is reported apart.
#
#   sudo bash bench/ssh.sh                      # builds the release binaries, prints the figures
#   TEAM_BIN=/path/to/team bash bench/ssh.sh    # FAKE_SEAT_BIN: the test double (default: beside it)
#   RUNS=30 bash bench/ssh.sh
#
# The world is the ssh tests' (host/tests/it/common/ssh.rs), in shell: a private network
# namespace with only loopback (`unshare --net --mount`), Debian's sshd on 127.0.0.1:2222 with
# its own host key and AuthorizedKeysFile, machine B a throwaway Unix user with its own HOME,
# tmux server and team state; A is this (root) user, whose home is bound over by a folder of the
# world inside the namespace, so the real ~/.ssh is never read or written. Needs root.
#
# B's `~/.config/team/here` names it `lab` (docs/remote.md): its own sends to reviewer are local.
#
# Measured 2026-12-06 on the 2-core development machine shared with seven helpers' builds and
# tests (load 13–15), the debug build (TEAM_BIN=target/debug/team), fake Codex seat taking its
# line after 30 ms, median of 20 interleaved runs each:
#
#   local, B's owner on B                           260.5 ms
#   over ssh, A's owner, reused control connection   337 ms   (ratio 1.29; goal ≤ 1.5)
#   the first send over ssh (handshake, master up)  1140 ms
#
# (an earlier run of 15: 218 / 279 ms, ratio 1.28, first 883 ms)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
runs="${RUNS:-20}"
port=2222

[ "$(id -u)" = 0 ] || { echo "bench/ssh.sh: needs root (it makes a user and a network namespace)" >&2; exit 2; }
for t in /usr/sbin/sshd ssh ssh-keygen useradd userdel unshare nsenter setpriv tmux script; do
  command -v "$t" >/dev/null || [ -x "$t" ] || { echo "bench/ssh.sh: $t is not installed" >&2; exit 2; }
done
if [ -z "${TEAM_BIN:-}" ]; then
  (cd "$repo" && cargo build --release -p team --features test-fakes --locked)
  TEAM_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/team"
fi
FAKE_SEAT_BIN="${FAKE_SEAT_BIN:-$(dirname "$TEAM_BIN")/fake-seat}"
[ -x "$FAKE_SEAT_BIN" ] || { echo "bench/ssh.sh: no fake seat at $FAKE_SEAT_BIN" >&2; exit 2; }

world="$(mktemp -d /var/tmp/team-bench-ssh.XXXXXX)"
chmod 755 "$world"
seat_home="$(mktemp -d /tmp/team-bench-ssh-seat.XXXXXX)"
b="team-bench-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')"
holder=""; sshd_pid=""
cleanup() {
  [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null || true
  for p in $(ps -o pid= -u "$b" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done   # B's, each by its pid
  [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
  userdel "$b" 2>/dev/null || true
  rm -rf "$world" "$seat_home"
}
trap cleanup EXIT

bh="$world/b-home"; ah="$world/a-home"; seen="$(getent passwd "$(id -un)" | cut -d: -f6)"
mkdir -p "$bh/.local/bin" "$bh/beacon/.agents" "$bh/.config/team" "$bh/seats" "$ah/.ssh" "$world/sshd" "$world/a/beacon/.agents" "$world/a/state" "$world/a/config"
useradd -M -p '*' -s /bin/sh -d "$bh" "$b"
cp "$TEAM_BIN" "$bh/.local/bin/team"; cp "$FAKE_SEAT_BIN" "$bh/.local/bin/fake-seat"
team_file='project: beacon
multiplexer: tmux
hosts:
  lab: b
seats:
  - name: keeper
    cli: claude-code
    leads: true
  - name: reviewer
    cli: codex
    host: lab
'
printf '%s' "$team_file" >"$bh/beacon/.agents/team.yaml"
printf '%s' "$team_file" >"$world/a/beacon/.agents/team.yaml"
git -C "$world/a/beacon" init -q; git -C "$bh/beacon" init -q
printf 'format: 1\nteams:\n  beacon:\n    root: %s\n' "$bh/beacon" >"$bh/.config/team/teams.yaml"
chmod 600 "$bh/.config/team/teams.yaml"
echo lab >"$bh/.config/team/here"   # B is `lab`: its own sends to reviewer are local
chown -R "$b:$b" "$bh" "$seat_home"

ssh-keygen -q -t ed25519 -N '' -f "$world/sshd/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$ah/.ssh/id_ed25519"
cp "$ah/.ssh/id_ed25519.pub" "$world/sshd/authorized_keys"
echo "[127.0.0.1]:$port $(cut -d' ' -f1-2 "$world/sshd/host_key.pub")" >"$ah/.ssh/known_hosts"
cat >"$ah/.ssh/config" <<EOF
Host b
  HostName 127.0.0.1
  Port $port
  User $b
  IdentityFile $seen/.ssh/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $seen/.ssh/known_hosts
  StrictHostKeyChecking yes
EOF
chmod 600 "$ah/.ssh/"*
cat >"$world/sshd/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $world/sshd/host_key
PidFile $world/sshd/sshd.pid
AuthorizedKeysFile $world/sshd/authorized_keys
AllowUsers $b
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin no
SetEnv TEAM_TMUX_SOCKET=$bh/tmux.sock
EOF

unshare --net --mount --propagation private -- /bin/sh -c \
  'ip link set lo up && mount --bind "$0" "$1" && : > "$2" && exec sleep infinity' "$ah" "$seen" "$world/ns-ready" &
holder=$!
for _ in $(seq 200); do [ -e "$world/ns-ready" ] && break; sleep 0.05; done
ns=(nsenter "--net=/proc/$holder/ns/net" "--mount=/proc/$holder/ns/mnt")
mkdir -p /run/sshd
"${ns[@]}" -- /usr/sbin/sshd -D -e -f "$world/sshd/sshd_config" 2>"$world/sshd/log" &
sshd_pid=$!
for _ in $(seq 200); do
  "${ns[@]}" -- ssh -o BatchMode=yes -o ConnectTimeout=5 b true 2>/dev/null && break
  sleep 0.05
done

as_b() { "${ns[@]}" --setuid="$(id -u "$b")" --setgid="$(id -g "$b")" -- env -i PATH=/usr/bin:/bin HOME="$bh" USER="$b" LANG=C.UTF-8 TEAM_TMUX_SOCKET="$bh/tmux.sock" "$@"; }
as_b tmux -S "$bh/tmux.sock" -f /dev/null new-session -d -s beacon -x 120 -y 40 -n keep sh
pane=$(as_b tmux -S "$bh/tmux.sock" new-window -d -P -F '#{pane_id}' -t beacon: -c "$bh/beacon" -e "HOME=$seat_home" \
  "'$bh/.local/bin/fake-seat' --cli codex --mode takes-line --delay-ms 30 --log '$bh/seats/reviewer.log'")
as_b tmux -S "$bh/tmux.sock" set-option -p -t "$pane" @team-seat reviewer
sleep 1

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ns_now() { date +%s%N; }
a_send() { # A's owner at a terminal (script), in A's checkout, inside the world's namespace
  (cd "$world/a/beacon" && "${ns[@]}" --wd="$world/a/beacon" -- env -i PATH=/usr/bin:/bin HOME="$seen" LANG=C.UTF-8 \
    TEAM_CONFIG_DIR="$world/a/config" TEAM_STATE_DIR="$world/a/state" script -qec "'$TEAM_BIN' send reviewer '$1'" /dev/null)
}
b_send() { # B's owner at a terminal on B, in B's checkout: the local send to the same seat
  as_b sh -c "cd '$bh/beacon' && script -qec \"'$bh/.local/bin/team' send reviewer '$1'\" /dev/null"
}
check() { case "$2" in *"reviewer: delivered"*) ;; *) echo "bench/ssh.sh: $1 was no delivery: $2" >&2; exit 1 ;; esac; }

# warm B's profile cache with one local send (the first compile of a component is not the path)
check "the warm-up" "$(b_send warm-up)"
sleep 0.5
t0=$(ns_now); out=$(a_send first); t1=$(ns_now); check "the first remote send" "$out"
first=$(( (t1 - t0) / 1000000 ))
: >"$world/local.ms"; : >"$world/remote.ms"
for i in $(seq "$runs"); do   # interleaved: both see the same load
  sleep 0.5; t0=$(ns_now); out=$(b_send "local $i"); t1=$(ns_now); check "local send $i" "$out"
  echo $(( (t1 - t0) / 1000000 )) >>"$world/local.ms"
  sleep 0.5; t0=$(ns_now); out=$(a_send "remote $i"); t1=$(ns_now); check "remote send $i" "$out"
  echo $(( (t1 - t0) / 1000000 )) >>"$world/remote.ms"
done
l=$(median <"$world/local.ms"); r=$(median <"$world/remote.ms")
ratio=$(awk -v r="$r" -v l="$l" 'BEGIN { printf "%.2f", r / l }')
echo "team send to a fake Codex seat on B, start to delivered, median of $runs (ms, whole process under script):"
echo "  local, B's owner on B:                         $l"
echo "  over ssh, A's owner, reused control connection: $r   (ratio $ratio; goal ≤ 1.5)"
echo "  the first send over ssh (handshake, master up): $first"
awk -v x="$ratio" 'BEGIN { exit !(x <= 1.5) }' || { echo "bench/ssh.sh: over the goal" >&2; exit 1; }
