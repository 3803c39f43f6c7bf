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

/// The raw text of the value after every `"key":` in `s` (at any depth), in order; a value
/// found inside another one found is listed too (a session-state row may repeat old rows).
pub fn raw_values<'a>(s: &'a str, key: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(v) = raw_value(&s[from..], key) {
        out.push(v);
        // past this key: the value's first byte (a nested occurrence is still ahead)
        from = (v.as_ptr() as usize - s.as_ptr() as usize) + v.len().min(1);
    }
    out
}

/// The raw texts of the elements of a raw JSON array (`[…]`, as [`raw_value`] gives it); none
/// for anything else.
pub fn items(array: &str) -> Vec<&str> {
    let Some(inner) = array.trim().strip_prefix('[') else { return Vec::new() };
    let mut out = Vec::new();
    let mut rest = inner;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() || rest.starts_with(']') {
            return out;
        }
        let len = value_len(rest.as_bytes()).max(1);
        out.push(rest[..len].trim_end());
        rest = &rest[len..];
    }
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
    fn every_value_of_a_key_and_every_item_of_an_array() {
        let row = r#"{"calls":[{"name":"a","x":[1,2]},"s]",3],"in":{"calls":[]},"calls" : 7}"#;
        let all = raw_values(row, "calls");
        assert_eq!(all, vec![r#"[{"name":"a","x":[1,2]},"s]",3]"#, "[]", "7"]);
        assert_eq!(items(all[0]), vec![r#"{"name":"a","x":[1,2]}"#, r#""s]""#, "3"]);
        assert!(items(all[1]).is_empty());
        assert!(items(all[2]).is_empty(), "a number is no array");
        // a key named inside a string is not a key
        assert!(raw_values(r#"{"a":"\"calls\": [1]"}"#, "calls").is_empty());
    }

    #[test]
    fn a_key_inside_a_string_is_not_a_key() {
        // `"b"` appears as a value first; the scan moves past it.
        let row = r#"{"x":"b","b":1}"#;
        assert_eq!(raw_value(row, "b"), Some("1"));
    }
}
