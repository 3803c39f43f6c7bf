//! The JSON Schemas of the `--json` documents, generated from the types that print them
//! (uv's way): every document is a struct deriving `Serialize` and `schemars::JsonSchema`,
//! [`documents`] lists each (this registry names every document type, so it sits at the top,
//! beside `cli`; the trait they implement is `crate::vocab::doc`) with its file under `schema/`, and the test
//! `schemas::the_generated_schemas_are_fresh` fails when a committed `schema/<file>.schema.json`
//! differs from what [`generate`] writes, naming the command that rewrites them.
//!
//! Invariant: a generated schema says what the type prints and no more. Field-level rules
//! come from the types (an enum of words, a required field, `Option` as `null`), the
//! `schema.name`/`version` pair and `format` from `vocab::doc`'s `Named` and `FormatOne`; a rule across
//! fields (`plan` only on a dry run) is written beside the type as a `schemars(extend(...))`,
//! so it sits next to the code that keeps it. Doc comments become the descriptions.

use serde_json::{Map, Value};

use crate::vocab::doc::Document;

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
        entry::<crate::notify::NotifyDoc>(),
        entry::<crate::converse::reply::ReplyDoc>(),
        entry::<crate::error::ErrorDoc>(),
        entry::<crate::mcp::doc::McpDoc>(),
        entry::<crate::hooks::doc::HooksDoc>(),
        entry::<crate::profile_tool::doc::ExplainDoc>(),
        entry::<crate::profile_tool::doc_list::CheckDoc>(),
        entry::<crate::profile_tool::doc_list::ListDoc>(),
        entry::<crate::profile_tool::doc::TestDoc>(),
        entry::<crate::register::doc::RegisterDoc>(),
        entry::<crate::up::doc::UpDoc>(),
        entry::<crate::down::doc::DownDoc>(),
        entry::<crate::seats::SeatsDoc>(),
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
    crate::vocab::doc::render_json(schema)
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
