//! The far side of a hop: `team` on another machine, run through the user's own OpenSSH
//! client (`ssh`, found on the fixed search as every program `team` runs), non-interactive and
//! over a reused control connection.
//!
//! Invariant: the argv is built here and only here — the options first, then `--`, then the
//! checked [`Destination`] (it can never read as an option), then one remote command line whose
//! every word is single-quoted for the far side's shell; `BatchMode=yes` so no prompt (a
//! password, an unknown host key) can wait on a terminal; the connect bounded
//! ([`CONNECT_TIMEOUT`]) and the whole run bounded (`child`). How ssh says it could not reach
//! the far side is read from its exit (255) and its stderr into [`Unreachable`], the one
//! place those words are parsed (OpenSSH's, docs/remote.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::vocab::host::Destination;

/// How long ssh may take to connect.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a control connection stays up after its last use.
pub const PERSIST: Duration = Duration::from_secs(300);
/// The longest path a Unix socket takes (`sun_path`, 108 bytes with its NUL).
const CONTROL_PATH_MAX: usize = 107;
/// The exit the far side's finder gives when no `team` is installed there.
const NO_TEAM_EXIT: i32 = 127;
/// What the far side's finder says on stderr when no `team` is installed there.
const NO_TEAM: &str = "team-hop: no team installed";

/// The shell line the far side runs: `team` looked for on the fixed search (as `program`
/// does here), run with the words after it; none found is [`NO_TEAM_EXIT`].
const FINDER: &str = "for d in /usr/local/bin /usr/bin /bin \"$HOME/.local/bin\" \"$HOME/.cargo/bin\" \"$HOME/bin\"; do if [ -x \"$d/team\" ]; then exec \"$d/team\" \"$@\"; fi; done; echo 'team-hop: no team installed' >&2; exit 127";

/// One hop: where to, and where the control connections live.
#[derive(Debug, Clone)]
pub struct Hop<'a> {
    pub dest: &'a Destination,
    /// The folder of the control sockets (`<state>/ssh`, 0700).
    pub control: PathBuf,
}

/// Why the far side could not be reached; nothing was handed to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreachable {
    /// No `ssh` on this machine.
    NoSsh,
    /// The connection did not come up (refused, timed out, no such host): ssh's own words.
    CannotConnect(String),
    /// The far side's host key is not in known_hosts (BatchMode does not ask).
    HostKeyUnknown,
    /// The far side's host key is not the one known_hosts holds.
    HostKeyChanged,
    /// The far side did not accept any of this user's keys.
    Denied,
    /// No `team` is installed on the far side.
    NoTeam,
    /// ssh ended for another reason: its last words.
    Other(String),
    /// The run did not end within its bound.
    TimedOut,
}

impl Unreachable {
    /// The reason, in the words `unreachable (<reason>; nothing was sent)` carries.
    pub fn reason(&self, dest: &Destination) -> String {
        match self {
            Unreachable::NoSsh => "no ssh on this machine".into(),
            Unreachable::CannotConnect(why) => format!("ssh could not connect to {dest}: {why}"),
            Unreachable::HostKeyUnknown => format!("the host key of {dest} is not known to ssh"),
            Unreachable::HostKeyChanged => format!("the host key of {dest} is not the one ssh knows"),
            Unreachable::Denied => format!("{dest} accepted none of your ssh keys"),
            Unreachable::NoTeam => format!("no team is installed on {dest}"),
            // a connection cut under ssh ends 255 with nothing said
            Unreachable::Other(why) if why.is_empty() => format!("the connection to {dest} ended (ssh said nothing)"),
            Unreachable::Other(why) => format!("ssh to {dest} failed: {why}"),
            Unreachable::TimedOut => format!("{dest} did not answer in time"),
        }
    }

    /// What the owner can do about it.
    pub fn repair(&self, dest: &Destination) -> String {
        match self {
            Unreachable::NoSsh => "install OpenSSH's client (ssh)".into(),
            Unreachable::CannotConnect(_) | Unreachable::TimedOut => {
                format!("check that {dest} is up and runs sshd: ssh {dest} true")
            }
            Unreachable::HostKeyUnknown => {
                format!("connect once yourself to check and accept its key: ssh {dest} true")
            }
            Unreachable::HostKeyChanged => {
                format!("find out why its key changed before anything else; ssh {dest} says which line of known_hosts holds the old one")
            }
            Unreachable::Denied => format!("add your public key to {dest}'s authorized_keys (ssh-copy-id {dest})"),
            Unreachable::NoTeam => format!("install team on {dest} (in /usr/local/bin, /usr/bin or ~/.local/bin)"),
            Unreachable::Other(_) => format!("ssh {dest} true says what ssh sees"),
        }
    }
}

/// What the far side's `team` answered: its exit and its output.
#[derive(Debug)]
pub struct Answer {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// A word single-quoted for a POSIX shell.
fn quoted(w: &str) -> String {
    format!("'{}'", w.replace('\'', "'\\''"))
}

impl Hop<'_> {
    /// The whole argv after `ssh`: options, `--`, the destination, the remote line running
    /// `team <args>` on the far side.
    pub fn argv(&self, args: &[&str]) -> Vec<String> {
        let control = self.control.join("%C");
        let reused = [
            "ControlMaster=auto".to_string(),
            format!("ControlPath={}", control.display()),
            format!("ControlPersist={}", PERSIST.as_secs()),
        ];
        // a socket path ssh cannot bind ends every hop before it connects (`unix_listener: path
        // … too long for Unix domain socket`, exit 255): such a state folder gets no reuse
        let alone = ["ControlMaster=no".to_string(), "ControlPath=none".to_string()];
        let control: &[String] = if self.control_fits() { &reused } else { &alone };
        let mut v: Vec<String> =
            ["-o", "BatchMode=yes", "-o", &format!("ConnectTimeout={}", CONNECT_TIMEOUT.as_secs())]
                .iter()
                .map(|s| s.to_string())
                .collect();
        for o in control {
            v.extend(["-o".to_string(), o.clone()]);
        }
        v.extend(["-T".to_string(), "--".to_string(), self.dest.as_str().to_string()]);
        let mut line = format!("sh -c {} team-hop", quoted(FINDER));
        for a in args {
            line.push(' ');
            line.push_str(&quoted(a));
        }
        v.push(line);
        v
    }

    /// Whether ssh can bind a control socket in [`Hop::control`]: its `%C` (40 hex digits) and
    /// the temporary suffix ssh binds first (`.` and 16 characters) fit a Unix socket's path
    /// (107 bytes; OpenSSH refuses a longer one, measured: a state folder of 53 bytes).
    fn control_fits(&self) -> bool {
        self.control.as_os_str().len() + 1 + 40 + 17 <= CONTROL_PATH_MAX
    }

    /// Runs `team <args>` on the far side with `input` on its stdin, within `limit`.
    pub fn run(&self, args: &[&str], input: Vec<u8>, limit: Duration) -> Result<Answer, Unreachable> {
        let Some(ssh) = crate::mux::program::find("ssh") else { return Err(Unreachable::NoSsh) };
        let _ = std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(&self.control);
        let mut cmd = Command::new(ssh);
        cmd.args(self.argv(args));
        let ended = match crate::child::run(cmd, Some(input), crate::child::Output::Capture, limit) {
            Ok(e) => e,
            Err(crate::child::Unfinished::TimedOut(_)) => return Err(Unreachable::TimedOut),
            Err(e) => return Err(Unreachable::Other(e.to_string())),
        };
        let code = ended.status.code();
        let stderr = String::from_utf8_lossy(&ended.stderr);
        match code {
            Some(255) => Err(classify(&stderr)),
            Some(NO_TEAM_EXIT) if stderr.contains(NO_TEAM) => Err(Unreachable::NoTeam),
            _ => Ok(Answer { code, stdout: ended.stdout, stderr: ended.stderr }),
        }
    }
}

/// ssh's exit 255 read from its stderr (OpenSSH's words, docs/remote.md).
pub fn classify(stderr: &str) -> Unreachable {
    let last = stderr.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("").to_string();
    if stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") {
        return Unreachable::HostKeyChanged;
    }
    if stderr.contains("Host key verification failed") || stderr.contains("No ED25519 host key is known") {
        return Unreachable::HostKeyUnknown;
    }
    if stderr.contains("Permission denied") {
        return Unreachable::Denied;
    }
    for cut in [
        "Connection refused",
        "Connection timed out",
        "No route to host",
        "Could not resolve hostname",
        "Network is unreachable",
        "Operation timed out",
    ] {
        if stderr.contains(cut) {
            // ssh: connect to host 127.0.0.1 port 2222: Connection refused → the cause
            let why = last.rsplit(": ").next().unwrap_or(cut).to_string();
            return Unreachable::CannotConnect(why);
        }
    }
    Unreachable::Other(crate::vocab::text::one_line(&last).into_owned())
}

/// The folder of the control sockets under the state folder.
pub fn control_dir(state: &Path) -> PathBuf {
    state.join("ssh")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_destination_comes_after_the_options_and_the_remote_words_are_quoted() {
        let d = Destination::parse("owner@lab").unwrap();
        let hop = Hop { dest: &d, control: PathBuf::from("/s/ssh") };
        let v = hop.argv(&["send-hop", "it's; rm -rf /"]);
        let dd = v.iter().position(|a| a == "--").unwrap();
        assert_eq!(v[dd + 1], "owner@lab");
        assert_eq!(v.len(), dd + 3, "{v:?}");
        assert!(v[..dd].contains(&"BatchMode=yes".to_string()));
        assert!(v[..dd].contains(&"ControlPath=/s/ssh/%C".to_string()));
        assert!(v[dd + 2].ends_with(" team-hop 'send-hop' 'it'\\''s; rm -rf /'"), "{}", v[dd + 2]);
    }

    /// A state folder too deep for a control socket: the hop goes without one (before, every
    /// hop from it ended in doubt: `unix_listener: path "…" too long for Unix domain socket`).
    #[test]
    fn a_control_folder_too_deep_for_a_socket_is_not_used() {
        let d = Destination::parse("a").unwrap();
        let deep = PathBuf::from(format!("/var/tmp/team-ssh-gcdc3v/{}/.local/state/team/ssh", "b-home"));
        let v = Hop { dest: &d, control: deep }.argv(&["hop", "ping"]);
        assert!(v.contains(&"ControlPath=none".to_string()) && v.contains(&"ControlMaster=no".to_string()), "{v:?}");
        let v = Hop { dest: &d, control: PathBuf::from("/home/me/.local/state/team/ssh") }.argv(&["hop", "ping"]);
        assert!(v.contains(&"ControlMaster=auto".to_string()), "{v:?}");
    }

    /// OpenSSH 9.2's words (Debian 12), as the ssh world's tests met them.
    #[test]
    fn ssh_exit_255_is_read_into_why() {
        assert_eq!(
            classify("ssh: connect to host 127.0.0.1 port 2222: Connection refused\r\n"),
            Unreachable::CannotConnect("Connection refused".into())
        );
        assert_eq!(
            classify("No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n"),
            Unreachable::HostKeyUnknown
        );
        assert_eq!(classify("b@127.0.0.1: Permission denied (publickey).\r\n"), Unreachable::Denied);
        assert_eq!(
            classify("ssh: Could not resolve hostname nowhere: Name or service not known\r\n"),
            Unreachable::CannotConnect("Name or service not known".into())
        );
    }
}
