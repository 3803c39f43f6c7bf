//! The export macros: a profile crate's free functions, over the vocabulary, exported as the
//! WIT interfaces. The bindings they expand against are chosen by the kit's features (see
//! `bindings`); off wasm32 they expand to nothing.
//!
//! A profile crate defines at its root:
//! - `describe() -> Description`, `classify(&Screen) -> Reading`,
//!   `shows_drop_read(&Screen, id: &str, trigger: &str) -> bool` and
//!   `transcript_shows_drop_read(&[String], id: &str) -> bool`;
//! - with `export_composer!`, also `compose_next(brief: &str, &Repo, &Screen, &Step) -> Action`
//!   and `plan(&Repo) -> Vec<String>`.

/// Exports `team:profile/classifier@0.2.0` (with the kit's `wit-v0-1` feature, the frozen
/// `@0.1.0` instead) from the calling crate's `describe`, `classify`, `shows_drop_read` and
/// `transcript_shows_drop_read`.
#[cfg(not(feature = "wit-v0-1"))]
#[macro_export]
// `crate::` is meant: the profile's free functions live in the crate that calls the macro.
#[allow(clippy::crate_in_macro_def)]
macro_rules! export_profile {
    () => {
        #[cfg(target_arch = "wasm32")]
        mod __team_profile_export {
            struct Component;
            $crate::__classifier_impl!(Component);
            $crate::bindings::__export_profile_bindings!(Component with_types_in $crate::bindings);
        }
    };
}

/// Exports `team:profile/classifier@0.2.0` and `team:profile/compose@0.2.0` (world `composer`;
/// the kit's `compose` feature) from the calling crate's functions, `compose_next` included.
#[cfg(not(feature = "wit-v0-1"))]
#[macro_export]
#[allow(clippy::crate_in_macro_def)]
macro_rules! export_composer {
    () => {
        #[cfg(target_arch = "wasm32")]
        mod __team_profile_export {
            use $crate::bindings::exports::team::profile::compose as k;
            struct Component;
            $crate::__classifier_impl!(Component);
            impl k::Guest for Component {
                fn compose_next(brief: String, repo: k::Repo, screen: k::Screen, step: k::Step) -> k::Action {
                    let (repo, step) = ($crate::glue::repo_in(repo), $crate::glue::step_in(step));
                    let a = $crate::glue::with_screen(screen, |screen| crate::compose_next(&brief, &repo, screen, &step));
                    $crate::glue::action_out(a)
                }
                fn plan(repo: k::Repo) -> Vec<String> {
                    crate::plan(&$crate::glue::repo_in(repo))
                }
            }
            $crate::bindings::__export_profile_bindings!(Component with_types_in $crate::bindings);
        }
    };
}

#[cfg(not(feature = "wit-v0-1"))]
#[doc(hidden)]
#[macro_export]
#[allow(clippy::crate_in_macro_def)]
macro_rules! __classifier_impl {
    ($component:ident) => {
        use $crate::bindings::exports::team::profile::classifier as c;
        impl c::Guest for $component {
            fn describe() -> c::Description {
                $crate::glue::description_out(crate::describe())
            }
            fn read(screen: c::Screen, probe: c::Probe) -> c::Reading {
                $crate::glue::reading_out($crate::glue::with_screen(screen, |screen| {
                    let mut r = crate::classify(screen);
                    r.drop_read =
                        !probe.drop_id.is_empty() && crate::shows_drop_read(screen, &probe.drop_id, &probe.trigger);
                    r
                }))
            }
            fn transcript_shows_drop_read(rows: Vec<String>, id: String) -> bool {
                crate::transcript_shows_drop_read(&rows, &id)
            }
        }
    };
}

/// The frozen `team:profile/classifier@0.1.0` export (the kit's `wit-v0-1` feature).
#[cfg(feature = "wit-v0-1")]
#[macro_export]
#[allow(clippy::crate_in_macro_def)]
macro_rules! export_profile {
    () => {
        #[cfg(target_arch = "wasm32")]
        mod __team_profile_export {
            use $crate::bindings::exports::team::profile::classifier as c;
            struct Component;
            impl c::Guest for Component {
                fn describe() -> c::Description {
                    $crate::glue::description_out(crate::describe())
                }
                fn classify(screen: c::Screen) -> c::Reading {
                    $crate::glue::reading_out(crate::classify(&$crate::glue::screen_in(screen)))
                }
                fn shows_drop_read(screen: c::Screen, id: String, trigger: String) -> bool {
                    crate::shows_drop_read(&$crate::glue::screen_in(screen), &id, &trigger)
                }
                fn transcript_shows_drop_read(rows: Vec<String>, id: String) -> bool {
                    crate::transcript_shows_drop_read(&rows, &id)
                }
            }
            $crate::bindings::__export_profile_bindings!(Component with_types_in $crate::bindings);
        }
    };
}
