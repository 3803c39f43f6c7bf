use proptest::prelude::*;
use serde_json::json;

use super::testing::{any_object, any_style, any_value, only_inserted, only_taken_out, write, J};
use super::*;

/// Runs `edits` in turn over `text`.
fn run(text: &str, edits: Vec<Edit>) -> Result<Option<String>, ConfigError> {
    let mut edits = edits.into_iter();
    edit(Some(text), "f.json", |_| Ok(edits.next()))
}

fn append(to: &[&str], key: Option<&str>, value: Value) -> Edit {
    Edit::Append { to: keys(to), key: key.map(str::to_string), value }
}

#[test]
fn an_append_is_written_in_the_file_s_own_layout() {
    let tabs = "{\n\t\"a\": 1\n}\n";
    let got = run(tabs, vec![append(&[], Some("hooks"), json!({"Stop": [{"x": true}]}))]).unwrap().unwrap();
    assert_eq!(
        got,
        "{\n\t\"a\": 1,\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\n\t\t\t\t\"x\": true\n\t\t\t}\n\t\t]\n\t}\n}\n"
    );
    let crlf = "{\r\n    \"a\": {\r\n        \"b\": 1\r\n    }\r\n}";
    let got = run(crlf, vec![append(&["a"], Some("c"), json!([2]))]).unwrap().unwrap();
    assert_eq!(
        got,
        "{\r\n    \"a\": {\r\n        \"b\": 1,\r\n        \"c\": [\r\n            2\r\n        ]\r\n    }\r\n}"
    );
    let compact = r#"{"a":1}"#;
    assert_eq!(
        run(compact, vec![append(&[], Some("b"), json!({"c": [1, 2]}))]).unwrap().unwrap(),
        r#"{"a":1,"b":{"c":[1,2]}}"#
    );
    let spaced = r#"{"a": 1}"#;
    assert_eq!(run(spaced, vec![append(&[], Some("b"), json!([1, 2]))]).unwrap().unwrap(), r#"{"a": 1, "b": [1, 2]}"#);
    assert_eq!(run("{}", vec![append(&[], Some("b"), json!(1))]).unwrap().unwrap(), r#"{"b": 1}"#);
    assert_eq!(run("{\n}\n", vec![append(&[], Some("b"), json!(1))]).unwrap().unwrap(), "{\n  \"b\": 1\n}\n");
    let arr = "{\"l\": [\n    1,\n    2\n  ]}";
    assert_eq!(
        run(arr, vec![append(&["l"], None, json!(3))]).unwrap().unwrap(),
        "{\"l\": [\n    1,\n    2,\n    3\n  ]}"
    );
}

#[test]
fn a_removal_takes_out_the_element_and_its_separator_only() {
    let t = "{\n  \"a\": 1,\n  \"b\": [1, {\"x\": 2}],\n  \"c\": 3\n}\n";
    assert_eq!(run(t, vec![Edit::Remove(keys(&["b"]))]).unwrap().unwrap(), "{\n  \"a\": 1,\n  \"c\": 3\n}\n");
    assert_eq!(
        run(t, vec![Edit::Remove(keys(&["a"]))]).unwrap().unwrap(),
        "{\n  \"b\": [1, {\"x\": 2}],\n  \"c\": 3\n}\n"
    );
    let item = vec![Step::Key("b".into()), Step::Index(1)];
    assert_eq!(run(t, vec![Edit::Remove(item)]).unwrap().unwrap(), "{\n  \"a\": 1,\n  \"b\": [1],\n  \"c\": 3\n}\n");
    assert_eq!(run("{ \"a\": 1 }", vec![Edit::Remove(keys(&["a"]))]).unwrap().unwrap(), "{ }");
}

#[test]
fn a_replacement_keeps_the_rest() {
    let t = "{\"s\": {\"team\": {\"command\": \"/old\"}, \"z\": 1}}\n";
    let e = Edit::Replace { at: keys(&["s", "team"]), value: json!({"command": "/new", "args": ["mcp"]}) };
    assert_eq!(
        run(t, vec![e]).unwrap().unwrap(),
        "{\"s\": {\"team\": {\"command\": \"/new\", \"args\": [\"mcp\"]}, \"z\": 1}}\n"
    );
}

#[test]
fn what_cannot_be_edited_safely_is_refused() {
    let twice = r#"{"hooks": {"a": 1}, "hooks": {"b": 2}}"#;
    let e = run(twice, vec![append(&["hooks"], Some("c"), json!(3))]).unwrap_err();
    assert_eq!(e.to_string(), "f.json names hooks twice; fix or move it");
    // a planner asking for what cannot be (a key already there) is refused, not half-done
    let e = run(r#"{"a": 1}"#, vec![append(&[], Some("a"), json!(2))]).unwrap_err();
    assert!(e.to_string().starts_with("f.json cannot be edited keeping the rest of it as it is ("), "{e}");
    for not_strict in ["{\"a\": 1, // mine\n}", "{\"a\": 1 /* mine */}", "{\"a\": 1,}", "\u{feff}{\"a\": 1}", "", "[1]"]
    {
        assert!(run(not_strict, vec![append(&[], Some("b"), json!(1))]).is_err(), "{not_strict:?}");
    }
    assert_eq!(edit(None, "f", |_| Ok(None)).unwrap(), None, "no edit, nothing to write");
}

/// The element of `j` a path names.
fn at<'j>(j: &'j J, path: &[Step]) -> &'j J {
    path.iter().fold(j, |j, s| match (j, s) {
        (J::Obj(ms), Step::Key(k)) => &ms.iter().find(|(m, _)| m == k).unwrap().1,
        (J::Arr(items), Step::Index(i)) => &items[*i],
        _ => unreachable!(),
    })
}

/// The removals taking out, in `order`, items appended to containers (each path's own
/// index or key).
fn removals(added: &[(Vec<Step>, Step)], order: &[usize]) -> Vec<Edit> {
    // an array's later items move down as earlier ones go: remove by the index they have then
    let mut left: Vec<(Vec<Step>, Step)> = added.to_vec();
    let mut out = Vec::new();
    for &n in order {
        let (to, step) = left[n].clone();
        let mut p = to.clone();
        p.push(step.clone());
        out.push(Edit::Remove(p));
        if let Step::Index(i) = step {
            for (t, s) in left.iter_mut() {
                if *t == to {
                    if let Step::Index(j) = s {
                        if *j > i {
                            *j -= 1;
                        }
                    }
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever the file's layout: appends insert bytes at one place each and leave the rest,
    /// and taking the appended elements out again, in any order, gives back the file byte for
    /// byte.
    #[test]
    fn appends_then_their_removals_give_back_every_byte(
        doc in any_object(),
        style in any_style(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), any_value()), 1..4),
        order in any::<prop::sample::Index>(),
    ) {
        let w = write(&doc, &style);
        let containers = doc.containers();
        let mut text = w.text.clone();
        let mut added: Vec<(Vec<Step>, Step)> = Vec::new();
        for (n, (pick, value)) in picks.iter().enumerate() {
            let to = pick.get(&containers).clone();
            let step = match at(&doc, &to) {
                J::Obj(_) => Step::Key(format!("team-added-{n}")),
                J::Arr(items) => Step::Index(items.len() + added.iter().filter(|(t, _)| *t == to).count()),
                _ => unreachable!(),
            };
            let key = match &step { Step::Key(k) => Some(k.as_str()), Step::Index(_) => None };
            let value: Value = serde_json::from_str(&write(value, &style).text).unwrap();
            let before = text.clone();
            text = run(&text, vec![append_at(&to, key, value)]).unwrap().unwrap();
            prop_assert!(only_inserted(&before, &text), "{before:?} -> {text:?}");
            added.push((to, step));
        }
        // a removal order: a rotation of the appends
        let k = order.index(added.len());
        let order: Vec<usize> = (0..added.len()).map(|i| (i + k) % added.len()).collect();
        let back = run(&text, removals(&added, &order)).unwrap().unwrap();
        prop_assert_eq!(back, w.text);
    }

    /// Taking out any element takes out its bytes and the whitespace and comma beside it, and
    /// nothing else.
    #[test]
    fn a_removal_leaves_every_other_byte(doc in not_empty(), style in any_style(), pick in any::<prop::sample::Index>()) {
        let w = write(&doc, &style);
        let (path, span) = pick.get(&w.spans).clone();
        let got = run(&w.text, vec![Edit::Remove(path)]).unwrap().unwrap();
        prop_assert!(only_taken_out(&w.text, &got, &[span]), "{:?} -> {got:?}", w.text);
    }

    /// Replacing a value rewrites its bytes only.
    #[test]
    fn a_replacement_leaves_every_other_byte(
        doc in not_empty(), style in any_style(), pick in any::<prop::sample::Index>(), value in any_value(),
    ) {
        let w = write(&doc, &style);
        let (path, _) = pick.get(&w.spans).clone();
        let value: Value = serde_json::from_str(&write(&value, &style).text).unwrap();
        let got = run(&w.text, vec![Edit::Replace { at: path.clone(), value }]).unwrap().unwrap();
        let node = spans(&w.text).unwrap();
        let n = node.at(&path).unwrap();
        prop_assert!(got.starts_with(&w.text[..n.start]) && got.ends_with(&w.text[n.end..]), "{:?} -> {got:?}", w.text);
    }
}

fn not_empty() -> impl Strategy<Value = J> {
    any_object().prop_filter("an object with a member", |d| matches!(d, J::Obj(m) if !m.is_empty()))
}

fn append_at(to: &[Step], key: Option<&str>, value: Value) -> Edit {
    Edit::Append { to: to.to_vec(), key: key.map(str::to_string), value }
}

proptest! {
    /// The documents the properties run over are JSON as serde_json reads it.
    #[test]
    fn the_test_writer_writes_strict_json(doc in any_object(), style in any_style()) {
        let w = write(&doc, &style);
        prop_assert!(serde_json::from_str::<Value>(&w.text).is_ok(), "{:?}", w.text);
    }
}
