//! Two machines joined by a real OpenSSH server (`SshWorld`), for the tests of seats on
//! another host.
//!
//! - **The network**: a private network namespace with only loopback up, held by a `sleep`
//!   the world starts (`unshare --net --mount`); the real `sshd` (Debian's `openssh-server`)
//!   listens in it on `127.0.0.1:PORT`, with its own host key, its own config and an
//!   `AuthorizedKeysFile` in the world's folder — never the system's.
//! - **Machine B**: a second Unix user made for this world (`useradd`, a name of its own, its
//!   HOME in the world's folder), with its own tmux server (`b_tmux`) and its own team state.
//!   Everything of B runs as that user inside the namespace (`b_cmd`).
//! - **Machine A**: the test's own user. `ssh` reads `~/.ssh` from the home the password
//!   database gives (not `$HOME`), so A's runs (`a_cmd`) join the namespace's private mount
//!   table, where A's home in the world's folder is bound over that home: the real one is never
//!   read or written. A's `~/.ssh/config` names B as `b` (its key, `known_hosts` holding the
//!   world's host key, the port) and as `b-stranger` (a `known_hosts` without it).
//!
//! One world at a time per test process (`ONE`), and across processes (a lock file): two
//! would fight over the machine's CPU and `/run/sshd`. The world ends its own processes by
//! pid: every process of user B, sshd, the namespace's holder; then removes user B.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The port sshd listens on inside the private namespace (no other listener there).
pub const PORT: u16 = 2222;

static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A Unix user playing a machine.
#[derive(Debug, Clone)]
pub struct Machine {
    pub user: String,
    pub uid: u32,
    pub gid: u32,
    /// The home the password database gives this user (B's: in the world's folder).
    pub home: PathBuf,
}

pub struct SshWorld {
    pub top: PathBuf,
    /// Machine B: the second user.
    pub b: Machine,
    /// A's home as A's runs see it bound over the test user's own.
    pub a_home: PathBuf,
    /// The test user's home in the password database: where `a_home` appears to A's runs.
    pub a_seen_home: PathBuf,
    holder: Child,
    sshd: Option<Child>,
    /// The HOME of B's fake seats (a fake seat runs only under a temp HOME in /tmp).
    b_seat_home: tempfile::TempDir,
    _dir: tempfile::TempDir,
    _lock: nix::fcntl::Flock<std::fs::File>,
    _one: std::sync::MutexGuard<'static, ()>,
}

/// Fails the test naming what to install, when a tool the world needs is missing.
fn need(tool: &str, package: &str) {
    let ok = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().unwrap().status.success()
        || Path::new(tool).exists();
    assert!(ok, "the ssh tests need `{tool}` ({package}; `bash .ci/run` installs it)");
}

fn run_ok(cmd: &mut Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

impl SshWorld {
    /// Starts the world: the namespace, user B, the keys, sshd; returns once A reaches B.
    pub fn start() -> SshWorld {
        assert!(nix::unistd::geteuid().is_root(), "the ssh tests make a user and a network namespace: they need root");
        for (tool, pkg) in [
            ("/usr/sbin/sshd", "openssh-server"),
            ("ssh", "openssh-client"),
            ("ssh-keygen", "openssh-client"),
            ("useradd", "passwd"),
            ("unshare", "util-linux"),
            ("nsenter", "util-linux"),
            ("ip", "iproute2"),
            ("tmux", "tmux"),
        ] {
            need(tool, pkg);
        }
        let one = ONE.lock().unwrap_or_else(|e| e.into_inner());
        let lock = std::fs::File::create("/var/tmp/team-ssh-world.lock").unwrap();
        let lock = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusive)
            .unwrap_or_else(|_| panic!("lock /var/tmp/team-ssh-world.lock"));
        // Under /var/tmp, readable by B (B's home and team state live inside).
        let dir = tempfile::Builder::new().prefix("team-ssh-").tempdir_in("/var/tmp").unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::set_permissions(&top, std::fs::Permissions::from_mode(0o755)).unwrap();
        let a_home = top.join("a-home");
        std::fs::create_dir_all(a_home.join(".ssh")).unwrap();
        let a_seen_home = nix::unistd::User::from_uid(nix::unistd::getuid()).unwrap().unwrap().dir;
        let b = make_user(&top);
        let holder = hold_namespace(&a_home, &a_seen_home);
        let b_seat_home = tempfile::Builder::new().prefix("team-ssh-b-seat-").tempdir_in("/tmp").unwrap();
        nix::unistd::chown(b_seat_home.path(), Some(b.uid.into()), Some(b.gid.into())).unwrap();
        let mut w = SshWorld {
            top,
            b,
            a_home,
            a_seen_home,
            holder,
            sshd: None,
            b_seat_home,
            _dir: dir,
            _lock: lock,
            _one: one,
        };
        w.keys();
        std::fs::create_dir_all("/run/sshd").unwrap();
        w.start_sshd();
        w
    }

    /// `nsenter`'s arguments that join the world's namespaces (network and mounts).
    pub fn enter(&self) -> Vec<String> {
        let p = self.holder.id();
        vec![format!("--net=/proc/{p}/ns/net"), format!("--mount=/proc/{p}/ns/mnt")]
    }

    /// A command run as machine A (the test's user) inside the world: A's home bound over its
    /// own, loopback reaching B's sshd. The environment is cleared to A's own.
    pub fn a_cmd(&self, program: &str) -> Command {
        let mut c = Command::new("nsenter");
        c.args(self.enter()).arg("--").arg(program);
        c.env_clear().env("PATH", "/usr/local/bin:/usr/bin:/bin").env("HOME", &self.a_seen_home).env("LANG", "C.UTF-8");
        c
    }

    /// A command run as machine B's user inside the world, its environment B's own.
    pub fn b_cmd(&self, program: &str) -> Command {
        let mut c = Command::new("nsenter");
        c.args(self.enter())
            .arg(format!("--setuid={}", self.b.uid))
            .arg(format!("--setgid={}", self.b.gid))
            .arg("--")
            .arg(program);
        c.env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", &self.b.home)
            .env("USER", &self.b.user)
            .env("LANG", "C.UTF-8");
        c
    }

    /// B's tmux server (its socket in B's home), run as B.
    pub fn b_tmux(&self, args: &[&str]) -> Output {
        let sock = self.b.home.join("tmux.sock");
        self.b_cmd("tmux").arg("-S").arg(sock).args(args).output().expect("run tmux as B")
    }

    /// The host key and A's key; A's ssh config naming B (`b`, and `b-stranger` whose
    /// known_hosts lacks the world's host key); B's authorized key.
    fn keys(&self) {
        let keygen = |path: &Path| {
            run_ok(
                Command::new("ssh-keygen")
                    .args(["-q", "-t", "ed25519", "-N", "", "-C", "team-ssh-world", "-f"])
                    .arg(path),
                "ssh-keygen",
            );
        };
        let sshd_dir = self.top.join("sshd");
        std::fs::create_dir_all(&sshd_dir).unwrap();
        keygen(&sshd_dir.join("host_key"));
        let ssh = self.a_home.join(".ssh");
        keygen(&ssh.join("id_ed25519"));
        let host_pub = std::fs::read_to_string(sshd_dir.join("host_key.pub")).unwrap();
        let host_pub: Vec<&str> = host_pub.split_whitespace().take(2).collect();
        std::fs::write(ssh.join("known_hosts"), format!("[127.0.0.1]:{PORT} {}\n", host_pub.join(" "))).unwrap();
        std::fs::write(ssh.join("known_hosts_empty"), "").unwrap();
        let me = self.a_seen_home.join(".ssh");
        let config = format!(
            "Host b\n  HostName 127.0.0.1\n  Port {PORT}\n  User {user}\n  IdentityFile {me}/id_ed25519\n  IdentitiesOnly yes\n  UserKnownHostsFile {me}/known_hosts\n  StrictHostKeyChecking yes\n\n\
             Host b-stranger\n  HostName 127.0.0.1\n  Port {PORT}\n  User {user}\n  IdentityFile {me}/id_ed25519\n  IdentitiesOnly yes\n  UserKnownHostsFile {me}/known_hosts_empty\n  StrictHostKeyChecking yes\n",
            user = self.b.user,
            me = me.display()
        );
        std::fs::write(ssh.join("config"), config).unwrap();
        for f in ["config", "id_ed25519", "known_hosts", "known_hosts_empty"] {
            std::fs::set_permissions(ssh.join(f), std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        std::fs::copy(ssh.join("id_ed25519.pub"), sshd_dir.join("authorized_keys")).unwrap();
        self.sshd_config(None);
    }

    /// sshd's config: B's login (its sessions reach B's tmux server); with `a`, A's too (the
    /// test's user, its sessions given `a`'s environment: A's team state and tmux server).
    /// sshd takes the first `SetEnv` that applies, so each user's is in its own `Match`.
    fn sshd_config(&self, a: Option<(&str, &[(String, String)])>) {
        let sshd_dir = self.top.join("sshd");
        let (users, root, a_match) = match a {
            Some((user, env)) => {
                let set: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
                (
                    format!("{} {user}", self.b.user),
                    "prohibit-password",
                    format!("Match User {user}\n  SetEnv {}\n", set.join(" ")),
                )
            }
            None => (self.b.user.clone(), "no", String::new()),
        };
        let conf = format!(
            "Port {PORT}\nListenAddress 127.0.0.1\nHostKey {dir}/host_key\nPidFile {dir}/sshd.pid\n\
             AuthorizedKeysFile {dir}/authorized_keys\nAllowUsers {users}\nPasswordAuthentication no\n\
             KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nPermitRootLogin {root}\n\
             PrintMotd no\nPrintLastLog no\nMaxStartups 50\nMaxSessions 50\nLogLevel VERBOSE\n\
             Match User {b}\n  SetEnv TEAM_TMUX_SOCKET={sock}\n{a_match}",
            dir = sshd_dir.display(),
            b = self.b.user,
            sock = self.b.home.join("tmux.sock").display()
        );
        std::fs::write(sshd_dir.join("sshd_config"), conf).unwrap();
    }

    /// Makes A reachable from B over the world's sshd, as B reaches... A: B gets a key of its
    /// own and an ssh config naming A `a` (the test's user at the same listener, the world's
    /// host key known); sshd admits that key for A's user, whose sessions get `env` (A's team
    /// state, A's tmux server: the `World` B's answers are to reach); `team` (the test build)
    /// is installed in A's `~/.local/bin`, where a hop's finder looks. Restarts sshd; returns
    /// once B's `ssh a true` succeeds.
    pub fn serve_a(&mut self, env: &[(String, String)]) {
        let a_user = nix::unistd::User::from_uid(nix::unistd::getuid()).unwrap().unwrap().name;
        let ssh = self.b.home.join(".ssh");
        std::fs::create_dir_all(&ssh).unwrap();
        run_ok(
            Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-C", "team-ssh-b", "-f"])
                .arg(ssh.join("id_ed25519")),
            "ssh-keygen",
        );
        let host_pub = std::fs::read_to_string(self.top.join("sshd/host_key.pub")).unwrap();
        let host_pub: Vec<&str> = host_pub.split_whitespace().take(2).collect();
        std::fs::write(ssh.join("known_hosts"), format!("[127.0.0.1]:{PORT} {}\n", host_pub.join(" "))).unwrap();
        std::fs::write(
            ssh.join("config"),
            format!(
                "Host a\n  HostName 127.0.0.1\n  Port {PORT}\n  User {a_user}\n  IdentityFile {me}/id_ed25519\n  IdentitiesOnly yes\n  UserKnownHostsFile {me}/known_hosts\n  StrictHostKeyChecking yes\n",
                me = ssh.display()
            ),
        )
        .unwrap();
        for f in ["config", "id_ed25519", "known_hosts"] {
            std::fs::set_permissions(ssh.join(f), std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        self.give_b(&ssh);
        let keys = self.top.join("sshd/authorized_keys");
        let mut text = std::fs::read_to_string(&keys).unwrap();
        text.push_str(&std::fs::read_to_string(ssh.join("id_ed25519.pub")).unwrap());
        std::fs::write(&keys, text).unwrap();
        let bin = self.a_home.join(".local/bin");
        std::fs::create_dir_all(&bin).unwrap();
        super::copy_executable(super::team_bin(), &bin.join("team"));
        self.sshd_config(Some((&a_user, env)));
        self.stop_sshd();
        self.start_sshd();
        let out =
            self.b_cmd("ssh").args(["-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "a", "true"]).output().unwrap();
        assert!(
            out.status.success(),
            "B never reached A over ssh: {}\nsshd: {}",
            String::from_utf8_lossy(&out.stderr),
            self.sshd_log()
        );
    }

    /// Runs the shell line `line` as B from a new pane of B's tmux server marked as `seat`, in
    /// B's checkout (a caller's pane is believed only from inside it): waits for its exit code;
    /// its stdout and stderr merged, and the code.
    pub fn b_as_seat(&self, seat: &str, line: &str) -> (String, i32) {
        let d = self.b.home.join(format!("as-seat-{:08x}", rand_u32()));
        std::fs::create_dir_all(&d).unwrap();
        let sock = self.b.home.join("tmux.sock");
        let ch = d.file_name().unwrap().to_string_lossy().to_string();
        let script = format!(
            "tmux -S '{sock}' wait-for 'go-{ch}'\ncd '{cwd}'\n{line} > '{d}/out' 2>&1\necho $? > '{d}/rc.tmp'; mv '{d}/rc.tmp' '{d}/rc'\nexec sleep 600\n",
            sock = sock.display(),
            cwd = self.b.home.join("beacon").display(),
            d = d.display()
        );
        std::fs::write(d.join("run.sh"), script).unwrap();
        self.give_b(&d);
        let out = self.b_tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            "=beacon:",
            &format!("sh '{}'", d.join("run.sh").display()),
        ]);
        assert!(out.status.success(), "B's pane: {}", String::from_utf8_lossy(&out.stderr));
        let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
        // the seat's own pane (its fake CLI) is unmarked meanwhile: two marked panes vouch for
        // neither, and the line needs none of it
        let listed = self.b_tmux(&["list-panes", "-a", "-F", "#{pane_id} #{@team-seat}"]);
        let own: Vec<String> = String::from_utf8_lossy(&listed.stdout)
            .lines()
            .filter_map(|l| l.split_once(' ').filter(|(_, s)| *s == seat).map(|(p, _)| p.to_string()))
            .collect();
        for p in &own {
            assert!(self.b_tmux(&["set", "-p", "-u", "-t", p, "@team-seat"]).status.success());
        }
        assert!(self.b_tmux(&["set", "-p", "-t", &pane, "@team-seat", seat]).status.success());
        assert!(self.b_tmux(&["wait-for", "-S", &format!("go-{ch}")]).status.success());
        let t = Instant::now();
        while !d.join("rc").exists() {
            assert!(t.elapsed() < super::BOUND, "B's line never ended: {line}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.b_tmux(&["kill-pane", "-t", &pane]);
        for p in &own {
            assert!(self.b_tmux(&["set", "-p", "-t", p, "@team-seat", seat]).status.success());
        }
        let said = std::fs::read_to_string(d.join("out")).unwrap_or_default();
        (said, std::fs::read_to_string(d.join("rc")).unwrap().trim().parse().unwrap())
    }

    /// Starts sshd (again, after `stop_sshd`) and waits until A's `ssh b true` succeeds.
    pub fn start_sshd(&mut self) {
        assert!(self.sshd.is_none(), "sshd is already running");
        let dir = self.top.join("sshd");
        let log = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("sshd.log")).unwrap();
        let child = Command::new("nsenter")
            .args(self.enter())
            .args(["--", "/usr/sbin/sshd", "-D", "-e", "-f"])
            .arg(dir.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("run sshd");
        self.sshd = Some(child);
        let t = Instant::now();
        loop {
            let out = self.ssh_a(&["b", "true"]);
            if out.status.success() {
                return;
            }
            if let Some(Ok(Some(st))) = self.sshd.as_mut().map(|c| c.try_wait()) {
                panic!("sshd exited ({st}): {}", self.sshd_log());
            }
            assert!(
                t.elapsed() < super::BOUND,
                "A never reached B over ssh: {}\nsshd: {}",
                String::from_utf8_lossy(&out.stderr),
                self.sshd_log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops sshd as a machine going down would: the listener and every connection it
    /// serves (a reused control connection of A's ends with it); waits for the listener.
    pub fn stop_sshd(&mut self) {
        if let Some(mut c) = self.sshd.take() {
            let pid = c.id() as i32;
            for p in descendants(pid) {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), nix::sys::signal::SIGKILL);
            }
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGKILL);
            let _ = c.wait();
        }
    }

    /// Stops only sshd's listener: no new connection is taken, the sessions it already serves
    /// (a far side's `team hop deliver` running in one) go on; `start_sshd` starts it again.
    pub fn stop_listener(&mut self) {
        if let Some(mut c) = self.sshd.take() {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(c.id() as i32), nix::sys::signal::SIGKILL);
            let _ = c.wait();
        }
    }

    /// Runs A's `ssh` (BatchMode: a test never waits on a prompt).
    pub fn ssh_a(&self, args: &[&str]) -> Output {
        self.a_cmd("ssh").args(["-o", "BatchMode=yes", "-o", "ConnectTimeout=5"]).args(args).output().expect("run ssh")
    }

    pub fn sshd_log(&self) -> String {
        std::fs::read_to_string(self.top.join("sshd/sshd.log")).unwrap_or_default()
    }

    /// A `team` line run by machine A's owner in a `common::World` (its terminal, its
    /// folders): `nsenter` joins the world's namespaces and execs `team` in place, in the
    /// folder the line runs in (joining a mount namespace moves a process to its root).
    pub fn a_team_line(&self, args: &str) -> String {
        format!("nsenter {} --wd=\"$PWD\" -- team {args}", self.enter().join(" "))
    }

    /// Installs `team` (the test build's) on B, in B's `~/.local/bin`, owned by B.
    pub fn install_team_on_b(&self) {
        let bin = self.b.home.join(".local/bin");
        std::fs::create_dir_all(&bin).unwrap();
        super::copy_executable(super::team_bin(), &bin.join("team"));
        for p in [self.b.home.join(".local"), bin.clone(), bin.join("team")] {
            nix::unistd::chown(&p, Some(self.b.uid.into()), Some(self.b.gid.into())).unwrap();
        }
    }

    /// B's checkout of the team (`<B's home>/beacon`, holding `team_file`), recorded in B's
    /// own registry (`~/.config/team/teams.yaml`) as `team up` there would; owned by B.
    pub fn b_team(&self, team_file: &str) -> PathBuf {
        let repo = self.b.home.join("beacon");
        let config = self.b.home.join(".config/team");
        std::fs::create_dir_all(repo.join(".agents")).unwrap();
        std::fs::create_dir_all(&config).unwrap();
        std::fs::write(repo.join(".agents/team.yaml"), team_file).unwrap();
        let teams = config.join("teams.yaml");
        std::fs::write(&teams, format!("format: 1\nteams:\n  beacon:\n    root: {}\n", repo.display())).unwrap();
        std::fs::set_permissions(&teams, std::fs::Permissions::from_mode(0o600)).unwrap();
        self.give_b(&self.b.home);
        repo
    }

    /// Makes everything under `top` B's.
    pub fn give_b(&self, top: &Path) {
        run_ok(Command::new("chown").arg("-R").arg(format!("{}:{}", self.b.uid, self.b.gid)).arg(top), "chown to B");
    }

    /// Starts a fake seat `seat` (`fake-seat --cli <cli>`, acting `delay_ms` after its line) in
    /// B's tmux server, session `beacon`, run as B in B's checkout; waits until it has drawn.
    /// Its received bytes are logged to [`SshWorld::b_seat_log`].
    pub fn b_fake_seat(&self, seat: &str, cli: &str, delay_ms: u64) {
        self.b_fake_seat_as(seat, cli, "takes-line", delay_ms, &[]);
    }

    /// B's fake seat `seat` in `mode` (fake-seat's `--mode`), with `extra` words after its own
    /// (each single-quoted for B's shell).
    pub fn b_fake_seat_as(&self, seat: &str, cli: &str, mode: &str, delay_ms: u64, extra: &[&str]) {
        let bin = self.b.home.join(".local/bin");
        std::fs::create_dir_all(&bin).unwrap();
        super::copy_executable(super::fake_seat_bin(), &bin.join("fake-seat"));
        let seats = self.b.home.join("seats");
        std::fs::create_dir_all(&seats).unwrap();
        self.give_b(&self.b.home);
        if !self.b_tmux(&["has-session", "-t", "=beacon"]).status.success() {
            let out = self.b_tmux(&[
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "beacon",
                "-x",
                "120",
                "-y",
                "40",
                "-n",
                "keep",
                "sh",
            ]);
            assert!(out.status.success(), "B's tmux: {}", String::from_utf8_lossy(&out.stderr));
        }
        let drawn = seats.join(format!("{seat}.drawn"));
        let cmd = format!(
            "'{}' --cli {cli} --mode {mode} --log '{}' --drawn '{}' --acted '{}' --delay-ms {delay_ms}{}; exec sh",
            bin.join("fake-seat").display(),
            self.b_seat_log(seat).display(),
            drawn.display(),
            seats.join(format!("{seat}.acted")).display(),
            extra.iter().map(|w| format!(" '{w}'")).collect::<String>()
        );
        let cwd = self.b.home.join("beacon");
        let out = self.b_tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            "=beacon:",
            "-n",
            seat,
            "-c",
            cwd.to_str().unwrap(),
            "-e",
            &format!("HOME={}", self.b_seat_home.path().display()),
            &cmd,
        ]);
        assert!(out.status.success(), "B's seat: {}", String::from_utf8_lossy(&out.stderr));
        let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let out = self.b_tmux(&["resize-window", "-t", &pane, "-x", "120", "-y", "40"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(self.b_tmux(&["set", "-p", "-t", &pane, "@team-seat", seat]).status.success());
        let t = Instant::now();
        while std::fs::read_to_string(&drawn).unwrap_or_default().trim().is_empty() {
            if t.elapsed() > super::BOUND {
                let shown = self.b_tmux(&["capture-pane", "-p", "-t", &pane]);
                panic!("B's seat {seat} never drew; its pane shows:\n{}", String::from_utf8_lossy(&shown.stdout));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The bytes B's fake seat `seat` received.
    pub fn b_seat_log(&self, seat: &str) -> PathBuf {
        self.b.home.join("seats").join(format!("{seat}.log"))
    }

    /// Every history line B's team wrote, in file order.
    pub fn b_history(&self) -> Vec<serde_json::Value> {
        let mut out = vec![];
        for e in std::fs::read_dir(self.b.home.join(".config/team")).into_iter().flatten().flatten() {
            if let Ok(t) = std::fs::read_to_string(e.path().join("messages.jsonl")) {
                out.extend(t.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()));
            }
        }
        out
    }

    /// Installs `text` as an executable `~/.local/bin/<name>` of B's (a test double of
    /// another build of `team`, say), owned by B.
    pub fn install_script_on_b(&self, name: &str, text: &str) {
        let bin = self.b.home.join(".local/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let _ = std::fs::remove_file(bin.join(name));
        std::fs::write(bin.join(name), text).unwrap();
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
        self.give_b(&self.b.home.join(".local"));
    }

    /// The pids of every process of user B.
    fn b_pids(&self) -> Vec<i32> {
        let mut pids = Vec::new();
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else { continue };
            let status = std::fs::read_to_string(e.path().join("status")).unwrap_or_default();
            let uid = status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().next());
            if uid == Some(&self.b.uid.to_string()) {
                pids.push(pid);
            }
        }
        pids
    }
}

impl Drop for SshWorld {
    fn drop(&mut self) {
        self.stop_sshd();
        let _ = self.b_tmux(&["kill-server"]);
        // whatever B still runs (a far-side team, a fake seat) was started by this world
        let t = Instant::now();
        loop {
            let pids = self.b_pids();
            if pids.is_empty() || t.elapsed() > Duration::from_secs(10) {
                break;
            }
            for p in pids {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), nix::sys::signal::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.holder.kill();
        let _ = self.holder.wait();
        let _ = Command::new("userdel").arg(&self.b.user).output();
    }
}

/// Makes machine B's user: a name of its own, its home in the world's folder, a `*` password
/// (no password login, but not locked: sshd admits its key).
fn make_user(top: &Path) -> Machine {
    let home = top.join("b-home");
    let user = format!("team-b-{:08x}", rand_u32());
    let t = Instant::now();
    loop {
        // (useradd refuses while another holds /etc/passwd's lock: tried again)
        let out = Command::new("useradd")
            .args(["-M", "-p", "*", "-s", "/bin/sh", "-d"])
            .arg(&home)
            .arg(&user)
            .output()
            .expect("run useradd");
        if out.status.success() {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "useradd {user}: {}", String::from_utf8_lossy(&out.stderr));
        std::thread::sleep(Duration::from_millis(100));
    }
    let u = nix::unistd::User::from_name(&user).unwrap().expect("the user useradd made");
    std::fs::create_dir_all(&home).unwrap();
    nix::unistd::chown(&home, Some(u.uid), Some(u.gid)).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
    Machine { user, uid: u.uid.as_raw(), gid: u.gid.as_raw(), home }
}

/// Every process below `root` (by parent pid, read from `/proc`).
fn descendants(root: i32) -> Vec<i32> {
    let mut parent = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else { continue };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let ppid: Option<i32> =
            stat.rsplit(')').next().and_then(|r| r.split_whitespace().nth(1)).and_then(|p| p.parse().ok());
        if let Some(pp) = ppid {
            parent.push((pid, pp));
        }
    }
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        out.extend(parent.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    out.remove(0);
    out
}

fn rand_u32() -> u32 {
    let mut b = [0u8; 4];
    std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut b)).unwrap();
    u32::from_le_bytes(b)
}

/// The namespace's holder: a new network namespace with loopback up and a private mount table
/// in which `a_home` is bound over `seen` (A's home as the password database gives it).
fn hold_namespace(a_home: &Path, seen: &Path) -> Child {
    let ready = a_home.parent().unwrap().join("ns-ready");
    let child = Command::new("unshare")
        .args(["--net", "--mount", "--propagation", "private", "--", "/bin/sh", "-c"])
        .arg("ip link set lo up && mount --bind \"$0\" \"$1\" && : > \"$2\" && exec sleep infinity")
        .arg(a_home)
        .arg(seen)
        .arg(&ready)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run unshare (util-linux)");
    let t = Instant::now();
    while !ready.exists() {
        assert!(t.elapsed() < super::BOUND, "the namespace never came up");
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}
