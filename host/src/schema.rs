//! The JSON Schemas of the `--json` documents, generated from the types that print them
//! (uv's way): every document is a struct deriving `Serialize` and `schemars::JsonSchema`,
//! [`DOCUMENTS`] lists each with its file under `schema/`, and the test
//! `schemas::the_generated_schemas_are_fresh` fails when a committed `schema/<file>.schema.json`
//! differs from what [`generate`] writes, naming the command that rewrites them.
//!
//! Invariant: a generated schema says what the type prints and no more. Field-level rules
//! come from the types (an enum of words, a required field, `Option` as `null`), the
//! `schema.name`/`version` pair and `format` from [`Named`] and [`FormatOne`]; a rule across
//! fields (`plan` only on a dry run) is written beside the type as a `schemars(extend(...))`,
//! so it sits next to the code that keeps it. Doc comments become the descriptions.

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
        $crate::schema::words!(@impl $ty, $ty::ALL.iter().map(|v| v.word()).collect::<Vec<&str>>());
    };
    ($ty:ident = [$($w:literal),+ $(,)?]) => {
        $crate::schema::words!(@impl $ty, vec![$($w),+]);
    };
    ($ty:ident => $words:expr) => {
        $crate::schema::words!(@impl $ty, $words);
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

/// One generated schema: its file stem and how to build it.
pub struct Generated {
    pub file: &'static str,
    pub build: fn() -> Value,
}

fn entry<D: Document>() -> Generated {
    Generated { file: D::FILE, build: root::<D> }
}

/// Every document whose schema is generated.
pub fn documents() -> Vec<Generated> {
    vec![
        entry::<crate::converse::ack::AckDoc>(),
        entry::<crate::feed::doc::FeedDoc<'static>>(),
        entry::<crate::feed::doc::StatsDoc<'static>>(),
        entry::<crate::check::CheckDoc>(),
        entry::<crate::converse::inbox::InboxDoc<'static>>(),
        entry::<crate::converse::notify::NotifyDoc>(),
        entry::<crate::converse::reply::ReplyDoc>(),
        entry::<crate::outcome::ErrorDoc>(),
        entry::<crate::mcp::doc::McpDoc>(),
        entry::<crate::hooks::doc::HooksDoc>(),
        entry::<crate::profile_tool::doc::ExplainDoc>(),
        entry::<crate::profile_tool::doc_list::CheckDoc>(),
        entry::<crate::profile_tool::doc_list::ListDoc>(),
        entry::<crate::profile_tool::doc::TestDoc>(),
        entry::<crate::register::doc::RegisterDoc>(),
        entry::<crate::rename::doc::RenameDoc>(),
        entry::<crate::route::RouteDoc>(),
        entry::<crate::history::Receipt>(),
        entry::<crate::send::doc::AllDoc>(),
        entry::<crate::send::doc::ListDoc>(),
        entry::<crate::send::doc::SendDoc>(),
        entry::<crate::status::doc::StatusDoc>(),
        entry::<crate::watch::doc::LineDoc<'static>>(),
    ]
}

/// The schemas under `schema/` still written by hand (each is judged by its examples, and
/// the freshness test names them so what remains is visible).
///
/// `team-file` stays by hand: it describes YAML the loader reads, and no type has the file's
/// shape. `TeamFile` is the judged model (defaults filled in, the legacy `coordinator:` folded
/// into a seat's `leads`, lines, notes and unknown keys beside the values); the raw types serde
/// reads wrap every value in serde-saphyr's `Spanned` (a foreign type schemars cannot be taught
/// without a `schemars(with)` on every field) and read every key as optional, the loader
/// deciding what is required and what each word's grammar is. Generating it would mean a third
/// copy of the file's shape kept for the schema alone; the schema is kept honest instead by
/// `schemas::the_team_files_are_judged_by_the_team_file_schema`, which loads every test team
/// file both ways.
pub const HAND_WRITTEN: &[&str] = &["team-file"];

/// The schema of `D` as `schema/<D::FILE>.schema.json` holds it: draft 2020-12, every
/// subschema inline, `$id` and `title` from the document's name, the type's doc comment as
/// its description.
pub fn root<D: Document>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize().with(|s| {
        s.inline_subschemas = true;
    });
    let schema = settings.into_generator().into_root_schema_for::<D>();
    let Value::Object(mut body) = schema.to_value() else { unreachable!("a struct's schema is an object") };
    let mut out = Map::new();
    out.insert("$schema".into(), body.remove("$schema").unwrap_or(Value::Null));
    out.insert("$id".into(), Value::String(format!("urn:team:schema:{}", D::FILE)));
    out.insert("title".into(), Value::String(D::NAME.into()));
    body.remove("title");
    if let Some(d) = body.remove("description") {
        out.insert("description".into(), d);
    }
    out.extend(body);
    let mut out = Value::Object(out);
    unwrap_descriptions(&mut out);
    out
}

/// Every `description` in `v` as one paragraph per blank-line-separated block.
fn unwrap_descriptions(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(s) if k == "description" => *s = unwrap_doc(s),
                    _ => unwrap_descriptions(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(unwrap_descriptions),
        _ => {}
    }
}

/// A doc comment's lines joined as one paragraph (rustdoc keeps the line breaks; a schema's
/// description reads better without them). A blank line stays a paragraph break.
fn unwrap_doc(text: &str) -> String {
    text.split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The file text of a generated schema: two-space indent, a final newline.
pub fn render(schema: &Value) -> String {
    crate::outcome::render_json(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_document_is_both_generated_and_hand_written() {
        for g in documents() {
            assert!(!HAND_WRITTEN.contains(&g.file), "{} is listed twice", g.file);
        }
    }
}
