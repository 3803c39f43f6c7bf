//! A CLI's configuration file read as its format: a JSON object (`serde_json`; edited keeping
//! every other byte by `json_edit`, a new file written two-space pretty) or a TOML document
//! (`toml_edit`, keeping the user's comments and layout), and the one error of a file that
//! cannot be read, or edited, as its format.

use serde_json::{Map, Value};

/// Why a configuration file cannot be read (or edited) as its format; its words are the
/// sentence `status` shows and install and remove refuse with.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// JSON whose root is no object.
    #[error("{file} is not a JSON object; fix or move it")]
    NotAnObject { file: &'static str },
    /// No JSON at all.
    #[error("{file} is not JSON ({why}); fix or move it")]
    NotJson { file: &'static str, why: String },
    /// No TOML at all.
    #[error("{file} is not TOML ({why}); fix or move it")]
    NotToml { file: &'static str, why: String },
    /// A key holds another kind of value than the format's (`want`: `an object`, `a list`,
    /// `a table`), found reading the file.
    #[error("{file}'s {key} is not {want}; fix or move it")]
    Shape { file: &'static str, key: String, want: &'static str },
    /// The same, found editing it.
    #[error("{file}'s {key} is not {want}")]
    ShapeOnEdit { file: &'static str, key: String, want: &'static str },
    /// A key named twice on the way to what an edit changes: which one the CLI reads is not
    /// team's to guess.
    #[error("{file} names {key} twice; fix or move it")]
    Twice { file: &'static str, key: String },
    /// An edit that could not keep every other byte of the file as it was.
    #[error("{file} cannot be edited keeping the rest of it as it is ({why}); fix or move it")]
    NotKept { file: &'static str, why: String },
    /// The file cannot be read or written (a link, a FIFO, too large, …).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl ConfigError {
    pub fn shape(file: &'static str, key: impl Into<String>, want: &'static str) -> Self {
        ConfigError::Shape { file, key: key.into(), want }
    }
    pub fn shape_on_edit(file: &'static str, key: impl Into<String>, want: &'static str) -> Self {
        ConfigError::ShapeOnEdit { file, key: key.into(), want }
    }
}

/// The root object of a JSON file's text (`{}` for no file).
pub fn json_root(text: Option<&str>, file: &'static str) -> Result<Map<String, Value>, ConfigError> {
    match text.map(serde_json::from_str::<Value>) {
        None => Ok(Map::new()),
        Some(Ok(Value::Object(o))) => Ok(o),
        Some(Ok(_)) => Err(ConfigError::NotAnObject { file }),
        Some(Err(e)) => Err(ConfigError::NotJson { file, why: e.to_string() }),
    }
}

/// The object under `key` of a JSON root, `None` when there is no such key.
pub fn json_object<'a>(
    root: &'a Map<String, Value>,
    key: &str,
    file: &'static str,
) -> Result<Option<&'a Map<String, Value>>, ConfigError> {
    match root.get(key) {
        None => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(_) => Err(ConfigError::shape(file, key, "an object")),
    }
}

/// The object under `key` of a JSON object, made empty when there is none, to edit.
pub fn json_object_mut<'a>(
    root: &'a mut Map<String, Value>,
    key: &str,
    file: &'static str,
) -> Result<&'a mut Map<String, Value>, ConfigError> {
    match root.entry(key).or_insert_with(|| Value::Object(Map::new())) {
        Value::Object(o) => Ok(o),
        _ => Err(ConfigError::shape_on_edit(file, key, "an object")),
    }
}

/// The JSON text written back (two-space pretty, a final newline).
pub fn json_text(root: Map<String, Value>) -> String {
    let mut s = serde_json::to_string_pretty(&Value::Object(root)).expect("JSON serialises");
    s.push('\n');
    s
}

/// The TOML document of a file's text (empty for no file).
pub fn toml_doc(text: Option<&str>, file: &'static str) -> Result<toml_edit::DocumentMut, ConfigError> {
    text.unwrap_or("")
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| ConfigError::NotToml { file, why: e.to_string().trim().to_string() })
}

/// The table under `key` of a TOML document, `None` when there is no such key.
pub fn toml_table<'a>(
    doc: &'a toml_edit::DocumentMut,
    key: &str,
    file: &'static str,
) -> Result<Option<&'a dyn toml_edit::TableLike>, ConfigError> {
    match doc.get(key) {
        None => Ok(None),
        Some(item) => item.as_table_like().map(Some).ok_or_else(|| ConfigError::shape(file, key, "a table")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentences_name_the_file_and_its_fault() {
        assert_eq!(
            json_root(Some("[1]"), "f.json").unwrap_err().to_string(),
            "f.json is not a JSON object; fix or move it"
        );
        assert!(json_root(Some("{"), "f.json").unwrap_err().to_string().starts_with("f.json is not JSON ("));
        let root = json_root(Some(r#"{"hooks": 1}"#), "f.json").unwrap();
        assert_eq!(
            json_object(&root, "hooks", "f.json").unwrap_err().to_string(),
            "f.json's hooks is not an object; fix or move it"
        );
        let doc = toml_doc(Some("features = 1"), "c.toml").unwrap();
        assert_eq!(
            toml_table(&doc, "features", "c.toml").err().unwrap().to_string(),
            "c.toml's features is not a table; fix or move it"
        );
        assert!(toml_doc(Some("= ="), "c.toml").unwrap_err().to_string().starts_with("c.toml is not TOML ("));
        assert_eq!(json_text(json_root(None, "f").unwrap()), "{}\n");
    }
}
