//! The `agy` profile (in progress: classification arrives in the next commit).

use profile_kit::{Composer, Reading, Screen, State};

profile_kit::export_profile!();

mod describe;
pub use describe::describe;

/// Reads one screen.
pub fn classify(_screen: &Screen) -> Reading {
    Reading { state: State::Unknown("not read yet".into()), composer: Composer::Unreadable, last_error: None, why: "classification not written yet".into() }
}

/// True when a row names the drop id and is not the trigger's echo.
pub fn shows_drop_read(screen: &Screen, id: &str, trigger: &str) -> bool {
    profile_kit::row_names_id_not_echo(&profile_kit::View::new(screen), id, trigger)
}

/// This CLI keeps no transcript the profile knows of.
pub fn transcript_shows_drop_read(_rows: &[String], _id: &str) -> bool {
    false
}
