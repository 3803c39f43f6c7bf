//! Test support for the byte-keeping JSON edits (`json_edit`) and their users (`hooks`,
//! `mcp::install`): JSON documents as a user may have formatted them — tabs, two or four
//! spaces, compact, any whitespace between any tokens, LF or CRLF, with or without a final
//! newline, strings escaped plainly or every non-ASCII character as `\u` — written by a writer
//! of the tests' own that records where each element's bytes are.

use proptest::prelude::*;

use super::Step;

/// A document as the test writes it: an object's members in order, an array's items, a
/// scalar's JSON text (a number, `true`, `false`, `null`) or a string.
#[derive(Debug, Clone, PartialEq)]
pub enum J {
    Obj(Vec<(String, J)>),
    Arr(Vec<J>),
    Lit(String),
    Str(String),
}

impl J {
    pub fn obj(members: &[(&str, J)]) -> J {
        J::Obj(members.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    pub fn s(s: &str) -> J {
        J::Str(s.to_string())
    }

    /// The paths of every container, the root first.
    pub fn containers(&self) -> Vec<Vec<Step>> {
        let mut out = Vec::new();
        self.walk(&mut Vec::new(), &mut |p, j| {
            if matches!(j, J::Obj(_) | J::Arr(_)) {
                out.push(p.to_vec())
            }
        });
        out
    }

    fn walk(&self, path: &mut Vec<Step>, f: &mut impl FnMut(&[Step], &J)) {
        f(path, self);
        match self {
            J::Obj(ms) => ms.iter().for_each(|(k, v)| {
                path.push(Step::Key(k.clone()));
                v.walk(path, f);
                path.pop();
            }),
            J::Arr(items) => items.iter().enumerate().for_each(|(i, v)| {
                path.push(Step::Index(i));
                v.walk(path, f);
                path.pop();
            }),
            _ => {}
        }
    }
}

/// How a document is laid out.
#[derive(Debug, Clone)]
pub enum Shape {
    /// One element a line, indented by `unit` a level; `colon` between a key and its value.
    Pretty { unit: String, newline: &'static str, colon: &'static str },
    /// One line: `spaced` writes `": "` and `", "`.
    Compact { spaced: bool },
    /// The whitespace of each gap between tokens taken in turn from the list.
    Wild(Vec<String>),
}

/// A layout and how strings are escaped, and what stands before and after the document.
#[derive(Debug, Clone)]
pub struct Style {
    pub shape: Shape,
    pub escape_unicode: bool,
    pub lead: String,
    pub trail: String,
}

/// A written document: its text, and each element's path with its bytes (a member from its
/// key's quote to its value's end).
pub struct Written {
    pub text: String,
    pub spans: Vec<(Vec<Step>, std::ops::Range<usize>)>,
}

#[derive(Clone, Copy)]
enum Gap {
    AfterOpen(usize),
    BeforeClose(usize),
    BeforeComma,
    AfterComma(usize),
    BeforeColon,
    AfterColon,
}

struct Writer<'s> {
    style: &'s Style,
    out: String,
    spans: Vec<(Vec<Step>, std::ops::Range<usize>)>,
    wild: usize,
}

impl Writer<'_> {
    fn gap(&mut self, g: Gap, empty: bool) {
        let ws = match (&self.style.shape, g) {
            (Shape::Pretty { .. }, Gap::AfterOpen(_) | Gap::BeforeClose(_)) if empty => String::new(),
            (Shape::Pretty { unit, newline, .. }, Gap::AfterOpen(d) | Gap::AfterComma(d)) => {
                format!("{newline}{}", unit.repeat(d + 1))
            }
            (Shape::Pretty { unit, newline, .. }, Gap::BeforeClose(d)) => format!("{newline}{}", unit.repeat(d)),
            (Shape::Pretty { colon, .. }, Gap::AfterColon) => colon[colon.find(':').unwrap() + 1..].to_string(),
            (Shape::Pretty { colon, .. }, Gap::BeforeColon) => colon[..colon.find(':').unwrap()].to_string(),
            (Shape::Pretty { .. }, Gap::BeforeComma) => String::new(),
            (Shape::Compact { spaced: true }, Gap::AfterColon | Gap::AfterComma(_)) => " ".into(),
            (Shape::Compact { .. }, _) => String::new(),
            (Shape::Wild(list), _) => {
                self.wild += 1;
                list.get(self.wild % list.len().max(1)).cloned().unwrap_or_default()
            }
        };
        self.out.push_str(&ws);
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                c if (c as u32) < 0x20 => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                c if self.style.escape_unicode && (!c.is_ascii() || c == '/') => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        self.out.push_str(&format!("\\u{u:04X}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn value(&mut self, j: &J, path: &mut Vec<Step>, depth: usize) {
        match j {
            J::Lit(t) => self.out.push_str(t),
            J::Str(s) => self.string(s),
            J::Obj(ms) => {
                self.out.push('{');
                self.gap(Gap::AfterOpen(depth), ms.is_empty());
                for (n, (k, v)) in ms.iter().enumerate() {
                    if n > 0 {
                        self.gap(Gap::BeforeComma, false);
                        self.out.push(',');
                        self.gap(Gap::AfterComma(depth), false);
                    }
                    let start = self.out.len();
                    path.push(Step::Key(k.clone()));
                    self.string(k);
                    self.gap(Gap::BeforeColon, false);
                    self.out.push(':');
                    self.gap(Gap::AfterColon, false);
                    self.value(v, path, depth + 1);
                    self.spans.push((path.clone(), start..self.out.len()));
                    path.pop();
                }
                self.gap(Gap::BeforeClose(depth), ms.is_empty());
                self.out.push('}');
            }
            J::Arr(items) => {
                self.out.push('[');
                self.gap(Gap::AfterOpen(depth), items.is_empty());
                for (n, v) in items.iter().enumerate() {
                    if n > 0 {
                        self.gap(Gap::BeforeComma, false);
                        self.out.push(',');
                        self.gap(Gap::AfterComma(depth), false);
                    }
                    let start = self.out.len();
                    path.push(Step::Index(n));
                    self.value(v, path, depth + 1);
                    self.spans.push((path.clone(), start..self.out.len()));
                    path.pop();
                }
                self.gap(Gap::BeforeClose(depth), items.is_empty());
                self.out.push(']');
            }
        }
    }
}

/// `j` written in `style`.
pub fn write(j: &J, style: &Style) -> Written {
    let mut w = Writer { style, out: style.lead.clone(), spans: Vec::new(), wild: 0 };
    w.value(j, &mut Vec::new(), 0);
    w.out.push_str(&style.trail);
    Written { text: w.out, spans: w.spans }
}

// ---- strategies --------------------------------------------------------------------------

/// A string with what a tokenizer must not trip on: quotes, backslashes, brackets, commas,
/// colons, non-ASCII, control characters.
pub fn any_string() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "z", " ", "\"", "\\", "/", "{", "}", "[", "]", ",", ":", "é", "😀", "\n", "\t", "\u{1}", "//",
            "/*",
        ]),
        0..6,
    )
    .prop_map(|v| v.concat())
}

fn any_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["model", "permissions", "env", "Stop", "matcher", "command", "type"])
            .prop_map(str::to_string),
        any_string(),
    ]
}

fn any_lit() -> impl Strategy<Value = J> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-1",
            "3.25",
            "1e3",
            "-0.5E-2",
            "true",
            "false",
            "null",
            "12345678901234567890"
        ])
        .prop_map(|s| J::Lit(s.to_string())),
        any_string().prop_map(J::Str),
    ]
}

/// Members with distinct keys (a later duplicate dropped).
pub fn members(v: Vec<(String, J)>) -> Vec<(String, J)> {
    let mut seen = std::collections::HashSet::new();
    v.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect()
}

/// Any JSON value, at most a few levels deep.
pub fn any_value() -> impl Strategy<Value = J> {
    any_lit().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(J::Arr),
            prop::collection::vec((any_key(), inner), 0..4).prop_map(|m| J::Obj(members(m))),
        ]
    })
}

/// Any JSON object.
pub fn any_object() -> impl Strategy<Value = J> {
    prop::collection::vec((any_key(), any_value()), 0..5).prop_map(|m| J::Obj(members(m)))
}

/// Any way a user may lay a file out.
pub fn any_style() -> impl Strategy<Value = Style> {
    let shape = prop_oneof![
        (
            prop::sample::select(vec!["\t", "  ", "    ", " "]),
            prop::sample::select(vec!["\n", "\r\n"]),
            prop::sample::select(vec![": ", ":", " : "]),
        )
            .prop_map(|(u, newline, colon)| Shape::Pretty { unit: u.to_string(), newline, colon }),
        any::<bool>().prop_map(|spaced| Shape::Compact { spaced }),
        prop::collection::vec(
            prop::sample::select(vec!["", " ", "\t", "\n", "\r\n", "\n    ", "  \r\n\t", "\r"])
                .prop_map(str::to_string),
            1..8
        )
        .prop_map(Shape::Wild),
    ];
    let edge = prop::sample::select(vec!["", "\n", "\r\n", " \n", "\n\n"]);
    (shape, any::<bool>(), prop::sample::select(vec!["", " ", "\n"]), edge).prop_map(
        |(shape, escape_unicode, lead, trail)| Style {
            shape,
            escape_unicode,
            lead: lead.to_string(),
            trail: trail.to_string(),
        },
    )
}

/// Whether `after` is `before` with only bytes inserted at one place.
pub fn only_inserted(before: &str, after: &str) -> bool {
    let p = before.bytes().zip(after.bytes()).take_while(|(a, b)| a == b).count();
    after.len() >= before.len() && after.ends_with(&before[p..]) && after.starts_with(&before[..p])
}

/// Whether `after` is `before` with bytes taken out only of the spans `gone` and the
/// whitespace and commas next to them (each span widened over them on both sides).
pub fn only_taken_out(before: &str, after: &str, gone: &[std::ops::Range<usize>]) -> bool {
    let b = before.as_bytes();
    let mut core = vec![false; b.len()];
    let mut may = vec![false; b.len()];
    let loose = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b',');
    for r in gone {
        core[r.clone()].iter_mut().for_each(|m| *m = true);
        let mut s = r.start;
        while s > 0 && loose(b[s - 1]) {
            s -= 1;
        }
        let mut e = r.end;
        while e < b.len() && loose(b[e]) {
            e += 1;
        }
        may[s..e].iter_mut().for_each(|m| *m = true);
    }
    let a = after.as_bytes();
    let (mut i, mut j) = (0, 0);
    while i < b.len() {
        if j < a.len() && !core[i] && b[i] == a[j] {
            j += 1;
        } else if !may[i] {
            return false;
        }
        i += 1;
    }
    j == a.len()
}
