//! Byte-keeping edits of a CLI's JSON configuration file (`team hooks` and `team mcp` install
//! and remove): the file's text, once serde_json has read it as a JSON object, is read again as
//! a tree of byte spans by a small tokenizer (strings and their escapes exactly as JSON has
//! them), and an edit rewrites only the bytes of what it adds, takes out or replaces — the
//! user's indentation, key layout, line ends, final newline and key order stay as they were.
//!
//! Invariants:
//! - an append and the removal of what it appended are inverses, byte for byte: [`Edit::Append`]
//!   writes `,<separator><value>` right after the last element (the separator is the whitespace
//!   before the last element), or `<indent><value>` right after the bracket of an empty
//!   container; [`Edit::Remove`] takes out the element with the comma and whitespace before it
//!   (the first of several: with the comma and whitespace after it; the only one: with the
//!   whitespace before it, back to the bracket);
//! - every edited text is read back and must be, value for value and in key order, what the
//!   same edits make of the parsed document; otherwise the edit is refused (nothing is written);
//! - a key named twice on an edit's path is refused: which one the CLI reads is not ours to
//!   guess. Text that is no strict JSON (comments, trailing commas, a byte-order mark) is
//!   refused before this module sees it (`config::json_root`).

use serde_json::{Map, Value};

use super::config::{self, ConfigError};

/// One step of a path from the root: an object's key, an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The path of `keys` (each an object's key).
pub fn keys(keys: &[&str]) -> Vec<Step> {
    keys.iter().map(|k| Step::Key(k.to_string())).collect()
}

/// One edit of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Takes out the element at the path (an object's member, an array's item).
    Remove(Vec<Step>),
    /// Appends to the container at `to` the member `key` (an object) or an item (`None`: an
    /// array).
    Append { to: Vec<Step>, key: Option<String>, value: Value },
    /// Sets the value at the path (a member's value, an item).
    Replace { at: Vec<Step>, value: Value },
}

/// More edits than any install or remove makes: a planner that never ends is refused.
const MAX_EDITS: usize = 4096;

/// `text` (`None`: no file yet) edited by the edits `next` decides one at a time, each over the
/// document as the edits before it left it (`Ok(None)` from `next`: done). `Ok(None)`: `next`
/// decided no edit. A file that did not exist is written whole, two-space pretty; an existing
/// one keeps every byte no edit touched.
pub fn edit(
    text: Option<&str>,
    file: &'static str,
    mut next: impl FnMut(&Map<String, Value>) -> Result<Option<Edit>, ConfigError>,
) -> Result<Option<String>, ConfigError> {
    let mut want = Value::Object(config::json_root(text, file)?);
    let mut out = text.map(str::to_string);
    let mut edits = 0;
    while let Some(e) = next(want.as_object().expect("the root is an object"))? {
        edits += 1;
        if edits > MAX_EDITS {
            return Err(not_kept(file, "an edit without end"));
        }
        apply_value(&mut want, &e).map_err(|why| not_kept(file, &why))?;
        if let Some(t) = &mut out {
            *t = apply_text(t, &e).map_err(|f| f.error(file))?;
        }
    }
    if edits == 0 {
        return Ok(None);
    }
    let Value::Object(want) = want else { unreachable!("the root stays an object") };
    let Some(t) = out else { return Ok(Some(config::json_text(want))) };
    let got = config::json_root(Some(&t), file).map_err(|e| not_kept(file, &e.to_string()))?;
    // serialised, so the key order counts too
    if serde_json::to_string(&got).ok() != serde_json::to_string(&want).ok() {
        return Err(not_kept(file, "the edited text does not read as the edit"));
    }
    Ok(Some(t))
}

fn not_kept(file: &'static str, why: &str) -> ConfigError {
    ConfigError::NotKept { file, why: why.to_string() }
}

/// Why an edit of the text could not be made.
#[derive(Debug)]
enum Fault {
    /// A key named twice on the path.
    Twice(String),
    /// Anything else (the path is not in the text, the text is not what it was read as).
    Other(String),
}

impl Fault {
    fn error(self, file: &'static str) -> ConfigError {
        match self {
            Fault::Twice(key) => ConfigError::Twice { file, key },
            Fault::Other(why) => not_kept(file, &why),
        }
    }
}

// ---- the value ---------------------------------------------------------------------------

fn value_at<'v>(root: &'v mut Value, path: &[Step]) -> Result<&'v mut Value, String> {
    let mut v = root;
    for s in path {
        v = match (s, v) {
            (Step::Key(k), Value::Object(o)) => o.get_mut(k).ok_or_else(|| format!("no {k}"))?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i).ok_or_else(|| format!("no item {i}"))?,
            (s, _) => return Err(format!("{s:?} is in no container")),
        };
    }
    Ok(v)
}

fn apply_value(root: &mut Value, e: &Edit) -> Result<(), String> {
    match e {
        Edit::Remove(path) => {
            let (last, parent) = path.split_last().ok_or("the root is not taken out")?;
            match (last, value_at(root, parent)?) {
                (Step::Key(k), Value::Object(o)) => o.shift_remove(k).map(drop).ok_or_else(|| format!("no {k}")),
                (Step::Index(i), Value::Array(a)) if *i < a.len() => {
                    a.remove(*i);
                    Ok(())
                }
                _ => Err("the path names no element".into()),
            }
        }
        Edit::Append { to, key, value } => match (key, value_at(root, to)?) {
            (Some(k), Value::Object(o)) if !o.contains_key(k) => {
                o.insert(k.clone(), value.clone());
                Ok(())
            }
            (None, Value::Array(a)) => {
                a.push(value.clone());
                Ok(())
            }
            _ => Err("an append that does not fit its container".into()),
        },
        Edit::Replace { at, value } => {
            *value_at(root, at)? = value.clone();
            Ok(())
        }
    }
}

// ---- the text's spans --------------------------------------------------------------------

/// A value's bytes `start..end` (a container's include its brackets).
#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    Scalar,
}

#[derive(Debug)]
struct Member {
    key: String,
    /// The key's opening quote, and the byte after its closing one.
    start: usize,
    key_end: usize,
    value: Node,
}

impl Node {
    /// The spans of the container's elements (a member from its key to its value's end).
    fn elements(&self) -> Vec<(usize, usize)> {
        match &self.kind {
            Kind::Object(ms) => ms.iter().map(|m| (m.start, m.value.end)).collect(),
            Kind::Array(items) => items.iter().map(|n| (n.start, n.end)).collect(),
            Kind::Scalar => Vec::new(),
        }
    }

    /// The element `step` names, its index among the elements, and its node.
    fn child(&self, step: &Step) -> Result<(usize, &Node), Fault> {
        match (&self.kind, step) {
            (Kind::Object(ms), Step::Key(k)) => {
                let mut found = ms.iter().enumerate().filter(|(_, m)| &m.key == k);
                let first = found.next().ok_or_else(|| Fault::Other(format!("no {k} in the text")))?;
                if found.next().is_some() {
                    return Err(Fault::Twice(k.clone()));
                }
                Ok((first.0, &first.1.value))
            }
            (Kind::Array(items), Step::Index(i)) => {
                items.get(*i).map(|n| (*i, n)).ok_or_else(|| Fault::Other(format!("no item {i} in the text")))
            }
            _ => Err(Fault::Other(format!("{step:?} is in no container of the text"))),
        }
    }

    fn at(&self, path: &[Step]) -> Result<&Node, Fault> {
        path.iter().try_fold(self, |n, s| n.child(s).map(|(_, c)| c))
    }
}

/// The tokenizer: text serde_json already read as JSON, read again for its spans.
struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

/// Deeper than serde_json reads (128): never reached for text it read.
const MAX_DEPTH: usize = 256;

impl Reader<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), Fault> {
        if self.b.get(self.i) != Some(&c) {
            return Err(Fault::Other(format!("'{}' expected at byte {}", c as char, self.i)));
        }
        self.i += 1;
        Ok(())
    }

    /// A string from its opening quote: its end (the byte after the closing quote).
    fn string(&mut self) -> Result<usize, Fault> {
        self.eat(b'"')?;
        loop {
            match self.b.get(self.i) {
                None => return Err(Fault::Other("a string without end".into())),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(self.i);
                }
                Some(b'\\') => self.i += 2,
                Some(_) => self.i += 1,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Fault> {
        if depth > MAX_DEPTH {
            return Err(Fault::Other("nested too deep".into()));
        }
        self.ws();
        let start = self.i;
        let kind = match self.b.get(self.i) {
            Some(b'{') => Kind::Object(self.members(depth)?),
            Some(b'[') => Kind::Array(self.items(depth)?),
            Some(b'"') => {
                self.string()?;
                Kind::Scalar
            }
            Some(_) => {
                let scalar = |c: &u8| !matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r');
                while self.b.get(self.i).is_some_and(scalar) {
                    self.i += 1;
                }
                Kind::Scalar
            }
            None => return Err(Fault::Other("a value expected at the end".into())),
        };
        if self.i == start {
            return Err(Fault::Other(format!("a value expected at byte {start}")));
        }
        Ok(Node { start, end: self.i, kind })
    }

    fn members(&mut self, depth: usize) -> Result<Vec<Member>, Fault> {
        self.eat(b'{')?;
        let mut ms = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(ms);
        }
        loop {
            self.ws();
            let start = self.i;
            let key_end = self.string()?;
            let raw = std::str::from_utf8(&self.b[start..key_end]).map_err(|e| Fault::Other(e.to_string()))?;
            let key = serde_json::from_str::<String>(raw).map_err(|e| Fault::Other(e.to_string()))?;
            self.ws();
            self.eat(b':')?;
            let value = self.value(depth + 1)?;
            ms.push(Member { key, start, key_end, value });
            self.ws();
            if self.b.get(self.i) == Some(&b',') {
                self.i += 1;
                continue;
            }
            self.eat(b'}')?;
            return Ok(ms);
        }
    }

    fn items(&mut self, depth: usize) -> Result<Vec<Node>, Fault> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(items);
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.b.get(self.i) == Some(&b',') {
                self.i += 1;
                continue;
            }
            self.eat(b']')?;
            return Ok(items);
        }
    }
}

fn spans(text: &str) -> Result<Node, Fault> {
    let mut r = Reader { b: text.as_bytes(), i: 0 };
    let root = r.value(0)?;
    r.ws();
    if r.i != text.len() || !matches!(root.kind, Kind::Object(_)) {
        return Err(Fault::Other("the text is not one JSON object".into()));
    }
    Ok(root)
}

// ---- the text's edits --------------------------------------------------------------------

fn apply_text(text: &str, e: &Edit) -> Result<String, Fault> {
    let root = spans(text)?;
    let (range, insert) = match e {
        Edit::Remove(path) => {
            let (last, parent) = path.split_last().ok_or_else(|| Fault::Other("the root is not taken out".into()))?;
            let parent = root.at(parent)?;
            let (i, _) = parent.child(last)?;
            (removal(parent, i), String::new())
        }
        Edit::Append { to, key, value } => {
            let c = root.at(to)?;
            match (&c.kind, key) {
                (Kind::Object(_), Some(_)) | (Kind::Array(_), None) => {}
                _ => return Err(Fault::Other("an append that does not fit its container".into())),
            }
            let (at, text) = appended(text, &root, c, key.as_deref(), value);
            (at..at, text)
        }
        Edit::Replace { at, value } => {
            // laid out as an append to the same container would lay it out
            let (last, parent) = at.split_last().ok_or_else(|| Fault::Other("the root is not replaced".into()))?;
            let c = root.at(parent)?;
            let (i, n) = c.child(last)?;
            let sep = sep_before(text, c, i);
            let lay = Layout::of(text, &root, c.start, sep.contains('\n')).under(sep);
            (n.start..n.end, lay.render(None, value))
        }
    };
    let mut out = String::with_capacity(text.len() + insert.len());
    out.push_str(&text[..range.start]);
    out.push_str(&insert);
    out.push_str(&text[range.end..]);
    Ok(out)
}

/// The bytes taken out with element `i` of container `c`.
fn removal(c: &Node, i: usize) -> std::ops::Range<usize> {
    let el = c.elements();
    match (el.len(), i) {
        (1, _) => c.start + 1..el[0].1,
        (_, 0) => el[0].0..el[1].0,
        _ => el[i - 1].1..el[i].1,
    }
}

/// Where an appended element goes and the bytes written there.
fn appended(text: &str, root: &Node, c: &Node, key: Option<&str>, value: &Value) -> (usize, String) {
    let el = c.elements();
    let Some(&(_, last_end)) = el.last() else {
        // an empty container: after its bracket, on a line of its own when it spans lines
        let inside = &text[c.start + 1..c.end - 1];
        let sep = match inside.rfind('\n') {
            Some(nl) => {
                let unit = indent_unit(text);
                format!("{}{}{unit}", newline_of(inside), &inside[nl + 1..])
            }
            None => inside.to_string(),
        };
        let lay = Layout::of(text, root, c.start, sep.contains('\n')).under(&sep);
        return (c.start + 1, format!("{sep}{}", lay.render(key, value)));
    };
    let sep = sep_before(text, c, el.len() - 1);
    let lay = Layout::of(text, root, c.start, sep.contains('\n')).under(sep);
    let sep = if sep.is_empty() && lay.spaced { " " } else { sep };
    (last_end, format!(",{sep}{}", lay.render(key, value)))
}

/// The whitespace before element `i` of container `c` (after its bracket or the comma).
fn sep_before<'t>(text: &'t str, c: &Node, i: usize) -> &'t str {
    let el = c.elements();
    if i == 0 {
        return &text[c.start + 1..el[0].0];
    }
    let between = &text[el[i - 1].1..el[i].0];
    &between[between.find(',').map_or(0, |p| p + 1)..]
}

fn newline_of(s: &str) -> &'static str {
    if s.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// The leading whitespace of the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let line = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let rest = &text[line..];
    &rest[..rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len()]
}

/// One level of the document's indentation: the leading whitespace of its first indented line
/// (two spaces when no line is indented).
fn indent_unit(text: &str) -> String {
    text.split('\n')
        .skip(1)
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t', '\r']).len()])
        .find(|w| !w.is_empty())
        .unwrap_or("  ")
        .to_string()
}

/// How a new value is written where it goes.
struct Layout {
    /// On lines of their own (else on one line).
    multi: bool,
    newline: &'static str,
    /// The indentation of the line the value starts on, and one level.
    base: String,
    unit: String,
    /// `": "` and `", "` (else `":"` and `","`), as the document's first member has it.
    spaced: bool,
}

impl Layout {
    fn of(text: &str, root: &Node, at: usize, multi: bool) -> Layout {
        Layout {
            multi,
            newline: newline_of(text),
            base: line_indent(text, at).to_string(),
            unit: indent_unit(text),
            spaced: first_member(root).is_none_or(|m| m.key_end < m.value.start.saturating_sub(1)),
        }
    }

    /// The layout of an element written after `sep`: its line's indentation is `sep`'s last
    /// line, one level is what that adds to the container's line.
    fn under(mut self, sep: &str) -> Layout {
        if let Some(nl) = sep.rfind('\n') {
            let indent = &sep[nl + 1..];
            if let Some(step) = indent.strip_prefix(self.base.as_str()).filter(|s| !s.is_empty()) {
                self.unit = step.to_string();
            }
            self.base = indent.to_string();
            self.newline = newline_of(sep);
        }
        self
    }

    /// `value` (as member `key` when one is given) at depth 0 of this layout.
    fn render(&self, key: Option<&str>, value: &Value) -> String {
        let mut out = String::new();
        if let Some(k) = key {
            out.push_str(&Value::from(k).to_string());
            out.push_str(if self.spaced { ": " } else { ":" });
        }
        self.value(&mut out, value, 0);
        out
    }

    fn value(&self, out: &mut String, v: &Value, depth: usize) {
        let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match v {
            Value::Object(o) if !o.is_empty() => ('{', '}', o.iter().map(|(k, v)| (Some(k), v)).collect()),
            Value::Array(a) if !a.is_empty() => ('[', ']', a.iter().map(|v| (None, v)).collect()),
            scalar => return out.push_str(&scalar.to_string()),
        };
        out.push(open);
        for (n, (k, v)) in items.into_iter().enumerate() {
            if n > 0 {
                out.push(',');
            }
            if self.multi {
                out.push_str(&format!("{}{}{}", self.newline, self.base, self.unit.repeat(depth + 1)));
            } else if n > 0 && self.spaced {
                out.push(' ');
            }
            if let Some(k) = k {
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push_str(if self.spaced { ": " } else { ":" });
            }
            self.value(out, v, depth + 1);
        }
        if self.multi {
            out.push_str(&format!("{}{}{}", self.newline, self.base, self.unit.repeat(depth)));
        }
        out.push(close);
    }
}

/// The document's first object member, in text order.
fn first_member(n: &Node) -> Option<&Member> {
    match &n.kind {
        Kind::Object(ms) => ms.first(),
        Kind::Array(items) => items.iter().find_map(first_member),
        Kind::Scalar => None,
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
