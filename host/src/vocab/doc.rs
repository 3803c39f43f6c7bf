//! What every `--json` document is: the [`Document`] trait (its name, version and schema
//! file), the `schema` member it opens with ([`Named`]), `"format": 1` ([`FormatOne`]), the
//! [`words!`] macro that serializes a word enum through its one table and lists its words in
//! the schema, the transforms a document type's schema may need, and [`render_json`].
//!
//! Invariant: a word enum's words are written once (its `word()`), and its schema lists
//! exactly those; the registry of every document (which names them all) is `crate::schema`,
//! at the top, never here.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// A `--json` document: its name (`schema.name`), version and the file its schema lives in.
pub trait Document: JsonSchema + Serialize {
    /// `schema.name`, e.g. `team.route`; also the schema's `title`.
    const NAME: &'static str;
    /// `schema.version`.
    const VERSION: u32 = 1;
    /// The stem of `schema/<FILE>.schema.json`; the schema's `$id` is `urn:team:schema:<FILE>`.
    const FILE: &'static str;
}

/// The `schema` member every document opens with: `{"name": D::NAME, "version": D::VERSION}`.
pub struct Named<D>(PhantomData<fn() -> D>);

impl<D> Named<D> {
    pub const fn new() -> Self {
        Named(PhantomData)
    }
}

impl<D> Default for Named<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D> std::fmt::Debug for Named<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Named")
    }
}

impl<D: Document> Serialize for Named<D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("schema", 2)?;
        m.serialize_field("name", D::NAME)?;
        m.serialize_field("version", &D::VERSION)?;
        m.end()
    }
}

impl<D: Document> JsonSchema for Named<D> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("Named_{}", D::FILE).into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "required": ["name", "version"],
            "properties": {
                "name": { "const": D::NAME },
                "version": { "const": D::VERSION }
            },
            "additionalProperties": false
        })
    }
}

/// `"format": 1`, the document layout's number.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FormatOne;

impl Serialize for FormatOne {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(1)
    }
}

impl JsonSchema for FormatOne {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "FormatOne".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "const": 1 })
    }
}

/// Serializes a word enum through its one table (`word()`) and gives its schema as the
/// `enum` of those words, so the words are written in one place.
///
/// `words!(Kind: A, B, C)` for unit variants: the list is checked exhaustive (a variant
/// added to the enum and not here fails to compile). `words!(Kind = ["a", "b"])` for an enum
/// whose variants carry data: the words are listed, and a document test that validates a
/// printed document catches one missing. `words!(Kind => expr)`: the words computed from the
/// tables they come from (a `Vec<&str>`).
macro_rules! words {
    ($ty:ident : $($v:ident),+ $(,)?) => {
        impl $ty {
            /// Every variant, in the schema's order.
            pub const ALL: &'static [$ty] = &[$($ty::$v),+];
            #[allow(dead_code)]
            fn _every_variant_is_listed(x: $ty) {
                match x {
                    $($ty::$v => {}),+
                }
            }
        }
        $crate::vocab::doc::words!(@impl $ty, $ty::ALL.iter().map(|v| v.word()).collect::<Vec<&str>>());
    };
    ($ty:ident = [$($w:literal),+ $(,)?]) => {
        $crate::vocab::doc::words!(@impl $ty, vec![$($w),+]);
    };
    ($ty:ident => $words:expr) => {
        $crate::vocab::doc::words!(@impl $ty, $words);
    };
    (@impl $ty:ident, $words:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.word())
            }
        }
        impl schemars::JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let words: Vec<&str> = $words;
                schemars::json_schema!({ "type": "string", "enum": words })
            }
        }
    };
}
pub(crate) use words;

/// A transform that leaves `fields` out of an object schema's `required`: a member every run
/// prints that a document older than it (the spec's own example) lacks.
pub fn not_required(fields: &'static [&'static str]) -> impl FnMut(&mut Schema) {
    move |s: &mut Schema| {
        if let Some(Value::Array(req)) = s.get_mut("required") {
            req.retain(|f| !fields.iter().any(|x| f == x));
        }
    }
}

/// A transform for a type whose optional members are left out when absent
/// (`skip_serializing_if`), never printed as `null`: a member outside `required` loses the
/// `null` its `Option` gave it.
pub fn absent_not_null(s: &mut Schema) {
    let required: Vec<Value> = match s.get("required") {
        Some(Value::Array(r)) => r.clone(),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = s.get_mut("properties") else { return };
    for (name, p) in props.iter_mut() {
        if let (false, Value::Object(p)) = (required.iter().any(|r| r == name.as_str()), p) {
            strip_null(p);
        }
    }
}

/// Drops `null` from a property schema's `type`, `anyOf` and `enum`.
fn strip_null(p: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = p.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            p.insert("type".into(), one);
        }
    }
    if let Some(Value::Array(any)) = p.get_mut("anyOf") {
        any.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        if let [one] = any.as_slice() {
            if let Value::Object(one) = one.clone() {
                p.remove("anyOf");
                // the member's own words (its description) stand over its type's
                for (k, v) in one {
                    p.entry(k).or_insert(v);
                }
            }
        }
    }
    if let Some(Value::Array(words)) = p.get_mut("enum") {
        words.retain(|w| !w.is_null());
    }
}

/// Pretty-print a JSON document the way every `--json` run does (two-space indent, newline).
pub fn render_json<T: Serialize + ?Sized>(doc: &T) -> String {
    let mut s = serde_json::to_string_pretty(doc)
        .expect("a document (strings, numbers, maps with string keys) always serialises");
    s.push('\n');
    s
}
