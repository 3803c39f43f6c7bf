//! The delivery order and the walk's plan.
//!
//! The order in force starts as the default (`native, mcp-inbox, typed`) and each level of the
//! receiving seat's chain — entity, project (registry), team, seat (team file) — may drop legs
//! or reorder the legs it keeps, never add one: a word naming a leg the order in force no
//! longer has is set aside (reported by the dry run and team.log) and the order stands.
//!
//! Invariant: in this build `native` and `mcp-inbox` definitely cannot take a send (the
//! reasons below are the exact words the history's `failed` list carries), and `typed` is
//! terminal. A walk that runs out of legs is unreachable.

use crate::team_file::LEGS;

/// The levels of a seat's chain, in the order they apply.
pub const LEVELS: [&str; 4] = ["entity", "project", "team", "seat"];

/// The CLI id whose seats carry the cross-session (native) channel once the leg ships.
pub const NATIVE_CLI: &str = "claude-code";

/// A word of some level that named a leg the order in force no longer had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    pub level: String,
    pub word: String,
}

impl SetAside {
    /// `delivery_order: "native" set aside at the seat level (the order in force has no such leg)`.
    pub fn sentence(&self) -> String {
        format!(
            "delivery_order: \"{}\" set aside at the {} level (the order in force has no such leg)",
            self.word, self.level
        )
    }
}

/// The order in force for one seat, with the words set aside on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub legs: Vec<String>,
    pub set_aside: Vec<SetAside>,
}

impl Order {
    pub fn keeps(&self, leg: &str) -> bool {
        self.legs.iter().any(|l| l == leg)
    }
    pub fn first(&self) -> Option<&str> {
        self.legs.first().map(String::as_str)
    }
    /// The order as the refusals spell it: `typed`, `typed, native`.
    pub fn spelled(&self) -> String {
        self.legs.join(", ")
    }
}

/// Applies the levels `(level name, its words if it declares any)` in order to the default.
/// A level keeps only the legs the order in force still has, in the level's own order; its
/// other words are set aside. A level whose every word is set aside leaves the order standing.
pub fn order_in_force(levels: &[(&str, Option<&[String]>)]) -> Order {
    let mut legs: Vec<String> = LEGS.iter().map(|s| s.to_string()).collect();
    let mut set_aside = Vec::new();
    for (level, words) in levels {
        let Some(words) = words else { continue };
        let mut kept = Vec::new();
        for w in words.iter() {
            if legs.contains(w) && !kept.contains(w) {
                kept.push(w.clone());
            } else {
                set_aside.push(SetAside { level: level.to_string(), word: w.clone() });
            }
        }
        if !kept.is_empty() {
            legs = kept;
        }
    }
    Order { legs, set_aside }
}

/// Why a leg definitely cannot take a send in this build, or `None` when it can.
pub fn unavailable(leg: &str, cli: &str) -> Option<&'static str> {
    match leg {
        "native" if cli == NATIVE_CLI => Some("unavailable in this build"),
        "native" => Some("the CLI carries no native channel"),
        "mcp-inbox" => Some("unavailable in this build"),
        _ => None,
    }
}

/// The walk a send would take: the legs that fail first (`<leg>: <reason>`, the history's
/// `failed` list) and the leg that takes it — `None` when the walk runs out of legs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub order: Order,
    pub failed: Vec<String>,
    pub terminal: Option<String>,
}

impl Plan {
    /// The walk for a seat running `cli` under `order`.
    pub fn walk(cli: &str, order: Order) -> Plan {
        let mut failed = Vec::new();
        let mut terminal = None;
        for leg in &order.legs {
            match unavailable(leg, cli) {
                Some(why) => failed.push(format!("{leg}: {why}")),
                None => {
                    terminal = Some(leg.clone());
                    break;
                }
            }
        }
        Plan { order, failed, terminal }
    }

    /// The sentence of a walk that ran out of legs.
    pub fn ran_out(&self) -> String {
        format!("no leg of its delivery order took the send ({})", self.failed.join("; "))
    }
}

/// `--list`'s REACH (DESIGN §8): `socket` for a Claude Code seat whose order keeps native,
/// `compose` for a seat whose profile has a compose module, else `typed`.
pub fn reach(cli: &str, order: &Order, has_compose: bool) -> &'static str {
    if cli == NATIVE_CLI && order.keeps("native") {
        "socket"
    } else if has_compose {
        "compose"
    } else {
        "typed"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn default_order_is_every_leg() {
        let o = order_in_force(&[("entity", None), ("project", None), ("team", None), ("seat", None)]);
        assert_eq!(o.legs, v(&["native", "mcp-inbox", "typed"]));
        assert!(o.set_aside.is_empty());
    }

    #[test]
    fn levels_drop_and_reorder_but_never_add() {
        let entity = v(&["typed", "native"]);
        let team = v(&["native", "typed"]);
        let seat = v(&["mcp-inbox", "native", "typed"]);
        let o = order_in_force(&[
            ("entity", Some(&entity)),
            ("project", None),
            ("team", Some(&team)),
            ("seat", Some(&seat)),
        ]);
        assert_eq!(o.legs, v(&["native", "typed"]));
        assert_eq!(o.set_aside, vec![SetAside { level: "seat".into(), word: "mcp-inbox".into() }]);
        assert_eq!(
            o.set_aside[0].sentence(),
            "delivery_order: \"mcp-inbox\" set aside at the seat level (the order in force has no such leg)"
        );
    }

    #[test]
    fn a_level_whose_every_word_is_set_aside_leaves_the_order_standing() {
        let project = v(&["typed"]);
        let seat = v(&["native"]);
        let o = order_in_force(&[("project", Some(&project)), ("seat", Some(&seat))]);
        assert_eq!(o.legs, v(&["typed"]));
        assert_eq!(o.set_aside.len(), 1);
    }

    #[test]
    fn the_walk_fails_native_and_mcp_inbox_and_ends_typed() {
        let o = order_in_force(&[]);
        let p = Plan::walk("claude-code", o.clone());
        assert_eq!(p.failed, v(&["native: unavailable in this build", "mcp-inbox: unavailable in this build"]));
        assert_eq!(p.terminal.as_deref(), Some("typed"));
        let p = Plan::walk("codex", o);
        assert_eq!(p.failed, v(&["native: the CLI carries no native channel", "mcp-inbox: unavailable in this build"]));
        let typed_first = v(&["typed", "native"]);
        let p = Plan::walk("codex", order_in_force(&[("team", Some(&typed_first))]));
        assert!(p.failed.is_empty());
        assert_eq!(p.terminal.as_deref(), Some("typed"));
    }

    #[test]
    fn a_walk_without_typed_runs_out() {
        let native = v(&["native"]);
        let p = Plan::walk("codex", order_in_force(&[("seat", Some(&native))]));
        assert_eq!(p.terminal, None);
        assert_eq!(
            p.ran_out(),
            "no leg of its delivery order took the send (native: the CLI carries no native channel)"
        );
    }

    #[test]
    fn reach_follows_the_settled_rule() {
        let all = order_in_force(&[]);
        let typed = v(&["typed"]);
        let no_native = order_in_force(&[("seat", Some(&typed))]);
        assert_eq!(reach("claude-code", &all, false), "socket");
        assert_eq!(reach("claude-code", &no_native, false), "typed");
        assert_eq!(reach("codex", &all, false), "typed");
        assert_eq!(reach("codex", &all, true), "compose");
    }
}
