//! `team profile explain <cli> <screen>`: one captured screen read by the profile the current
//! team would use for the cli (or by the component given), with the reading's why.
//!
//! Invariant: a component given for a cli must describe itself as that cli's profile; the
//! screen file is read as text, whatever it holds (ANSI or plain).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::ctx::Ctx;
use crate::error::{self, TeamError};
use crate::profiles::{Profile, ProfileHost, Reading, Screen};

/// What to read and with what.
pub struct Request<'a> {
    /// The cli whose profile reads the screen.
    pub cli: &'a str,
    /// The screen file (ANSI or plain text).
    pub screen: &'a Path,
    /// The terminal title the pane showed.
    pub title: Option<&'a str>,
    /// The pane size (default: the widest row by the number of rows).
    pub size: Option<(u32, u32)>,
    /// A component to read with instead of the team's.
    pub profile: Option<&'a Path>,
}

/// `--size COLSxROWS` read (`x` or `X`, both above zero); else a usage error.
pub fn parse_size(s: &str) -> error::Result<(u32, u32)> {
    let bad = || TeamError::usage(format!("--size {s}: expected COLSxROWS, such as 120x40"));
    let (c, r) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let c: u32 = c.trim().parse().map_err(|_| bad())?;
    let r: u32 = r.trim().parse().map_err(|_| bad())?;
    if c == 0 || r == 0 {
        return Err(bad());
    }
    Ok((c, r))
}

/// The reading and what made it.
pub struct Explained {
    pub profile: Profile,
    pub screen_file: PathBuf,
    pub screen: Screen,
    pub reading: Reading,
}

/// `team profile explain`.
pub fn explain(host: &ProfileHost, ctx: &Ctx, req: &Request) -> error::Result<Explained> {
    let bytes = std::fs::read(req.screen).map_err(|e| TeamError::usage(format!("{}: {e}", req.screen.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut screen = Screen::from_ansi(&text, req.title.unwrap_or(""));
    if let Some((c, r)) = req.size {
        screen.cols = c;
        screen.rows = r;
    }
    let mut profile = match req.profile {
        Some(f) => {
            let p = host.load_file(f)?;
            if p.describe().id != req.cli {
                return Err(TeamError::refused(format!(
                    "{} is the {} profile, not a {} profile",
                    f.display(),
                    p.describe().id,
                    req.cli
                )));
            }
            p
        }
        None => {
            let pins = match super::current_team(ctx)? {
                Some(t) => t.file.profiles,
                None => BTreeMap::new(),
            };
            host.load(req.cli, &pins)?
        }
    };
    let reading = profile.classify(&screen)?;
    Ok(Explained { profile, screen_file: req.screen.to_path_buf(), screen, reading })
}
