//! `team send`: (being built).

/// Arguments of `team send`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> i32 {
    let e = crate::outcome::TeamError::failed("this command is not built yet");
    super::report_error("send", false, &e)
}
