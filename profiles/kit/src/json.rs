//! Just enough JSON reading for transcript rows, without a parser: find a key's raw value.
//!
//! Transcript rows are one JSON object per line. The profiles only need "does the value under
//! key K contain X", so this scans for `"K":` and returns the raw text of the value that follows
//! (an object, array, string, number or literal), balancing brackets and skipping strings.

/// The raw text of the value after the first `"key":` in `s` (at any depth), if any.
pub fn raw_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let mut pat = String::with_capacity(key.len() + 2);
    pat.push('"');
    pat.push_str(key);
    pat.push('"');
    let mut from = 0;
    while let Some(off) = s[from..].find(&pat) {
        let after = from + off + pat.len();
        let rest = &s[after..];
        let trimmed = rest.trim_start();
        if let Some(v) = trimmed.strip_prefix(':') {
            let v = v.trim_start();
            let start = s.len() - v.len();
            let len = value_len(v.as_bytes());
            return Some(&s[start..start + len]);
        }
        from = after;
    }
    None
}

/// The string content after `"key":` when the value is a string (escapes left as written).
pub fn str_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let raw = raw_value(s, key)?;
    let inner = raw.strip_prefix('"')?;
    Some(inner.strip_suffix('"').unwrap_or(inner))
}

fn value_len(b: &[u8]) -> usize {
    match b.first() {
        Some(b'"') => string_len(b),
        Some(b'{') | Some(b'[') => {
            let mut depth = 0i32;
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i += string_len(&b[i..]);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            b.len()
        }
        _ => b.iter().position(|&c| c == b',' || c == b'}' || c == b']').unwrap_or(b.len()),
    }
}

/// Length of the JSON string starting at `b[0] == '"'`, quotes included.
fn string_len(b: &[u8]) -> usize {
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_shape() {
        let row = r#"{"a":{"b":"x}\"y","c":[1,{"d":2}]},"e": 5,"f":"g"}"#;
        assert_eq!(raw_value(row, "a"), Some(r#"{"b":"x}\"y","c":[1,{"d":2}]}"#));
        assert_eq!(raw_value(row, "c"), Some(r#"[1,{"d":2}]"#));
        assert_eq!(raw_value(row, "e"), Some("5"));
        assert_eq!(str_value(row, "f"), Some("g"));
        assert_eq!(raw_value(row, "zz"), None);
    }

    #[test]
    fn a_key_inside_a_string_is_not_a_key() {
        // `"b"` appears as a value first; the scan moves past it.
        let row = r#"{"x":"b","b":1}"#;
        assert_eq!(raw_value(row, "b"), Some("1"));
    }
}
