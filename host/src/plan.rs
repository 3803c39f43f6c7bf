//! How a send may travel: the delivery order in force for a seat, and the walk's plan (the
//! legs themselves are words, `vocab::leg`).
//!
//! The order in force starts as the default (`native, mcp-inbox, typed`) and each level of the
//! receiving seat's chain — entity, project (registry), team, seat (team file) — may drop legs
//! or reorder the legs it keeps, never add one: a word naming a leg the order in force no
//! longer has is set aside (reported by the dry run and team.log) and the order stands.
//!
//! Invariants:
//! - legs, levels and the reasons a leg cannot take a send are enums; their words are
//!   rendered here and nowhere else (`Leg::word`, `Cannot::words`, `Failed`'s `Display`,
//!   `SetAside::sentence`) — the history's `failed` entries are `<leg>: <reason>` from them;
//! - the order words are `native`, `mcp-inbox` and `typed`. `compose` is no order word: for a
//!   seat whose profile has a compose module the `typed` place of its order is walked by the
//!   compose leg (the body is typed through the CLI's screens and never becomes a trigger);
//! - whether a leg can take a send is the seam's answer ([`crate::send::walk`]); this module
//!   only knows what can be said before anything runs ([`ready`]).

use std::fmt;

use serde::{Serialize, Serializer};

use crate::vocab::leg::{HookFormat, Leg};

/// A level of a seat's chain, in the order they apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Entity,
    Project,
    Team,
    Seat,
}

impl Level {
    pub fn word(self) -> &'static str {
        match self {
            Level::Entity => "entity",
            Level::Project => "project",
            Level::Team => "team",
            Level::Seat => "seat",
        }
    }
}

/// Why a leg definitely cannot take a send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cannot {
    /// The leg is not carried by this build.
    NotInBuild,
    /// The receiving CLI carries no native channel (its profile says so).
    NoNativeChannel,
    /// The CLI has no hooks team can install (its profile names no hook format).
    NoHooks,
    /// The CLI has hooks, and the seat's checkout has no team hooks installed for it.
    HooksNotInstalled,
    /// The leg tried and could not take it, with why (a leg's own words).
    Declined(String),
}

impl Cannot {
    /// The reason as the history's `failed` entries spell it.
    pub fn words(&self) -> &str {
        match self {
            Cannot::NotInBuild => "unavailable in this build",
            Cannot::NoNativeChannel => "the CLI carries no native channel",
            Cannot::NoHooks => "its CLI has no hooks team can install",
            Cannot::HooksNotInstalled => "its CLI has no team hooks installed",
            Cannot::Declined(why) => why,
        }
    }
}

/// A leg the walk passed because it definitely could not take the send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    pub leg: Leg,
    pub why: Cannot,
}

impl fmt::Display for Failed {
    /// `native: unavailable in this build`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.leg, self.why.words())
    }
}

impl Serialize for Failed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A leg some level named that the order in force no longer had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    pub level: Level,
    pub leg: Leg,
}

impl SetAside {
    /// `delivery_order: "native" set aside at the seat level (the order in force has no such leg)`.
    pub fn sentence(&self) -> String {
        format!(
            "delivery_order: \"{}\" set aside at the {} level (the order in force has no such leg)",
            self.leg.word(),
            self.level.word()
        )
    }
}

impl Serialize for SetAside {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.sentence())
    }
}

/// The order in force for one seat, with the words set aside on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub legs: Vec<Leg>,
    pub set_aside: Vec<SetAside>,
}

impl Order {
    pub fn keeps(&self, leg: Leg) -> bool {
        self.legs.contains(&leg)
    }
    pub fn first(&self) -> Option<Leg> {
        self.legs.first().copied()
    }
    /// The order as the refusals spell it: `typed`, `typed, native`.
    pub fn spelled(&self) -> String {
        self.legs.iter().map(|l| l.word()).collect::<Vec<_>>().join(", ")
    }
}

/// A level's `delivery_order` words as legs. The team file and the registry refuse an order
/// with a word that names no leg when they are read, so every word here parses.
pub fn parse_order(words: &[String]) -> Vec<Leg> {
    words.iter().filter_map(|w| Leg::from_order_word(w)).collect()
}

/// Applies the levels `(level, its legs if it declares an order)` in order to the default.
/// A level keeps only the legs the order in force still has, in the level's own order; its
/// other legs are set aside. A level whose every leg is set aside leaves the order standing.
pub fn order_in_force(levels: &[(Level, Option<Vec<Leg>>)]) -> Order {
    let mut legs: Vec<Leg> = Leg::ORDER.to_vec();
    let mut set_aside = Vec::new();
    for (level, named) in levels {
        let Some(named) = named else { continue };
        let mut kept: Vec<Leg> = Vec::new();
        for leg in named {
            if legs.contains(leg) && !kept.contains(leg) {
                kept.push(*leg);
            } else {
                set_aside.push(SetAside { level: *level, leg: *leg });
            }
        }
        if !kept.is_empty() {
            legs = kept;
        }
    }
    Order { legs, set_aside }
}

/// What the profiles say about one seat's CLI that decides its walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Facts {
    /// The CLI carries the cross-session (native) channel.
    pub native_channel: bool,
    /// The profile has a compose module.
    pub has_compose: bool,
    /// How the CLI runs hooks, when it has hooks team can install.
    pub hooks: Option<HookFormat>,
    /// Whether the seat's checkout has team's hooks installed for that format — the one fact
    /// here not read from the profile: `send::decide` reads it from the checkout
    /// (`crate::hooks::installed`).
    pub hooks_installed: bool,
}

/// The leg that walks an order's place `leg` for a seat with `facts`: the compose leg walks
/// a compose seat's `typed` place.
pub fn leg_for(leg: Leg, facts: Facts) -> Leg {
    match leg {
        Leg::Typed if facts.has_compose => Leg::Compose,
        other => other,
    }
}

/// What can be said of a leg before anything runs: `Err` when it definitely cannot take a
/// send to a seat with `facts` in this build.
pub fn ready(leg: Leg, facts: Facts) -> Result<(), Cannot> {
    match leg {
        Leg::Native if !facts.native_channel => Err(Cannot::NoNativeChannel),
        Leg::McpInbox if facts.hooks.is_none() => Err(Cannot::NoHooks),
        Leg::McpInbox if !facts.hooks_installed => Err(Cannot::HooksNotInstalled),
        Leg::Native => Err(Cannot::NotInBuild),
        // whether the hooks are installed, and whether the seat is idle, is the carrier's to
        // read (`send::walk`): both are the seat's state, not its CLI's
        Leg::McpInbox => Ok(()),
        // The compose leg is `crate::legs::compose` (team:profile@0.2's compose modules); a
        // compose seat's body never becomes a trigger line.
        Leg::Typed | Leg::Compose => Ok(()),
    }
}

/// The walk a send would take: the legs that fail first (the history's `failed` list) and the
/// leg that takes it — `None` when the walk runs out of legs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    #[serde(serialize_with = "order_words")]
    pub order: Order,
    pub failed: Vec<Failed>,
    pub terminal: Option<Leg>,
}

fn order_words<S: Serializer>(o: &Order, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(o.legs.iter())
}

impl Plan {
    /// The walk for a seat with `facts` under `order`, as far as it can be told before
    /// anything runs.
    pub fn walk(facts: Facts, order: Order) -> Plan {
        let mut failed = Vec::new();
        let mut terminal = None;
        for place in &order.legs {
            let leg = leg_for(*place, facts);
            match ready(leg, facts) {
                Err(why) => failed.push(Failed { leg, why }),
                Ok(()) => {
                    terminal = Some(leg);
                    break;
                }
            }
        }
        Plan { order, failed, terminal }
    }

    /// The `failed` entries as the history line carries them.
    pub fn failed_words(&self) -> Vec<String> {
        self.failed.iter().map(Failed::to_string).collect()
    }

    /// The sentence of a walk that ran out of legs.
    pub fn ran_out(&self) -> String {
        format!("no leg of its delivery order took the send ({})", self.failed_words().join("; "))
    }
}

/// `--list`'s REACH (DESIGN §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Reach {
    Socket,
    #[serde(rename = "mcp-inbox")]
    McpInbox,
    Compose,
    Typed,
}

impl Reach {
    pub fn word(self) -> &'static str {
        match self {
            Reach::Socket => "socket",
            Reach::McpInbox => "mcp-inbox",
            Reach::Compose => "compose",
            Reach::Typed => "typed",
        }
    }
}

/// `socket` for a seat whose CLI carries the native channel while its order keeps native,
/// `mcp-inbox` for one whose checkout runs team's hooks for its CLI while its order keeps the
/// inbox, `compose` for a seat whose profile has a compose module, else `typed` — the channel
/// the seat is reachable by once every leg ships.
pub fn reach(facts: Facts, order: &Order) -> Reach {
    if facts.native_channel && order.keeps(Leg::Native) {
        Reach::Socket
    } else if facts.hooks.is_some() && facts.hooks_installed && order.keeps(Leg::McpInbox) {
        Reach::McpInbox
    } else if facts.has_compose {
        Reach::Compose
    } else {
        Reach::Typed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    /// A level's order as a file writes it.
    fn o(w: &[&str]) -> Option<Vec<Leg>> {
        Some(parse_order(&v(w)))
    }

    const CLAUDE: Facts = Facts { native_channel: true, has_compose: false, hooks: None, hooks_installed: false };
    const CODEX: Facts = Facts { native_channel: false, has_compose: false, hooks: None, hooks_installed: false };
    const CLOUD: Facts = Facts { native_channel: false, has_compose: true, hooks: None, hooks_installed: false };

    #[test]
    fn words_round_trip_and_compose_is_no_order_word() {
        for l in Leg::ORDER {
            assert_eq!(Leg::from_order_word(l.word()), Some(l));
        }
        assert_eq!(Leg::from_order_word("compose"), None);
        assert_eq!(Leg::order_words(), "native, mcp-inbox, typed");
        assert_eq!(serde_json::to_string(&Leg::McpInbox).unwrap(), "\"mcp-inbox\"");
    }

    #[test]
    fn default_order_is_every_leg() {
        let o =
            order_in_force(&[(Level::Entity, None), (Level::Project, None), (Level::Team, None), (Level::Seat, None)]);
        assert_eq!(o.legs, Leg::ORDER.to_vec());
        assert!(o.set_aside.is_empty());
    }

    #[test]
    fn levels_drop_and_reorder_but_never_add() {
        let got = order_in_force(&[
            (Level::Entity, o(&["typed", "native"])),
            (Level::Project, None),
            (Level::Team, o(&["native", "typed"])),
            (Level::Seat, o(&["mcp-inbox", "native", "typed"])),
        ]);
        assert_eq!(got.legs, vec![Leg::Native, Leg::Typed]);
        assert_eq!(got.set_aside, vec![SetAside { level: Level::Seat, leg: Leg::McpInbox }]);
        assert_eq!(
            got.set_aside[0].sentence(),
            "delivery_order: \"mcp-inbox\" set aside at the seat level (the order in force has no such leg)"
        );
    }

    #[test]
    fn a_level_whose_every_word_is_set_aside_leaves_the_order_standing() {
        let got = order_in_force(&[(Level::Project, o(&["typed"])), (Level::Seat, o(&["native"]))]);
        assert_eq!(got.legs, vec![Leg::Typed]);
        assert_eq!(got.set_aside.len(), 1);
    }

    #[test]
    fn the_walk_fails_native_and_mcp_inbox_and_ends_typed() {
        let all = order_in_force(&[]);
        let p = Plan::walk(CLAUDE, all.clone());
        assert_eq!(
            p.failed_words(),
            v(&["native: unavailable in this build", "mcp-inbox: its CLI has no hooks team can install"])
        );
        assert_eq!(p.terminal, Some(Leg::Typed));
        let p = Plan::walk(CODEX, all);
        assert_eq!(
            p.failed_words(),
            v(&["native: the CLI carries no native channel", "mcp-inbox: its CLI has no hooks team can install"])
        );
        let p = Plan::walk(CODEX, order_in_force(&[(Level::Team, o(&["typed", "native"]))]));
        assert!(p.failed.is_empty());
        assert_eq!(p.terminal, Some(Leg::Typed));
    }

    #[test]
    fn the_inbox_takes_a_seat_whose_cli_runs_team_s_hooks() {
        let hooked = Facts { hooks: Some(HookFormat::CodexHooksJson), ..CODEX };
        let p = Plan::walk(hooked, order_in_force(&[]));
        assert_eq!(
            p.failed_words(),
            v(&["native: the CLI carries no native channel", "mcp-inbox: its CLI has no team hooks installed"])
        );
        assert_eq!(p.terminal, Some(Leg::Typed));
        let installed = Facts { hooks_installed: true, ..hooked };
        let p = Plan::walk(installed, order_in_force(&[]));
        assert_eq!(p.terminal, Some(Leg::McpInbox));
        assert_eq!(reach(installed, &order_in_force(&[])), Reach::McpInbox);
        assert_eq!(reach(installed, &order_in_force(&[(Level::Seat, o(&["typed"]))])), Reach::Typed);
        assert_eq!(
            HookFormat::from_features(&v(&["faint-placeholder", "hooks=later-format", "hooks=claude-settings"])),
            Some(HookFormat::ClaudeSettings)
        );
        assert_eq!(HookFormat::from_features(&v(&["hooks=later-format"])), None);
    }

    #[test]
    fn a_compose_seat_walks_compose_in_its_typed_place_and_never_typed() {
        let p = Plan::walk(CLOUD, order_in_force(&[]));
        assert_eq!(p.terminal, Some(Leg::Compose), "the compose leg takes a compose seat's typed place");
        assert!(!p.failed.iter().any(|f| f.leg == Leg::Typed || f.leg == Leg::Compose));
    }

    #[test]
    fn a_walk_without_typed_runs_out() {
        let p = Plan::walk(CODEX, order_in_force(&[(Level::Seat, o(&["native"]))]));
        assert_eq!(p.terminal, None);
        assert_eq!(
            p.ran_out(),
            "no leg of its delivery order took the send (native: the CLI carries no native channel)"
        );
        assert_eq!(
            serde_json::to_value(&p).unwrap(),
            serde_json::json!({"order": ["native"], "failed": ["native: the CLI carries no native channel"], "terminal": null})
        );
    }

    #[test]
    fn reach_follows_the_settled_rule() {
        let all = order_in_force(&[]);
        let no_native = order_in_force(&[(Level::Seat, o(&["typed"]))]);
        assert_eq!(reach(CLAUDE, &all), Reach::Socket);
        assert_eq!(reach(CLAUDE, &no_native), Reach::Typed);
        assert_eq!(reach(CODEX, &all), Reach::Typed);
        assert_eq!(reach(CLOUD, &all), Reach::Compose);
    }
}
