//! The order a feed's table shows its events in, with replies threaded under their
//! questions (docs/conversations.md).
//!
//! Invariant: every event is shown exactly once; a reply moves only when its question is in
//! view, and a later line of an id already in view (a retry) stays in time order.

use std::collections::HashMap;

/// Each event in order, except that a reply whose question is in view follows that
/// question's first event (after the replies before it), at one more depth. `keys[i]` is event
/// i's `(message id, reply_to)` (`Event::thread_key`). Returns `(index, depth)` pairs, every
/// index once.
pub fn threaded(keys: &[(Option<&str>, Option<&str>)]) -> Vec<(usize, usize)> {
    // the first event of each id, and the replies hung under it
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut top: Vec<usize> = Vec::new();
    for (i, (id, reply_to)) in keys.iter().enumerate() {
        let parent = reply_to.and_then(|q| first.get(q).copied());
        if let Some(id) = id {
            if first.contains_key(id) {
                top.push(i);
                continue;
            }
            first.insert(id, i);
        }
        match parent {
            Some(p) => children.entry(p).or_default().push(i),
            None => top.push(i),
        }
    }
    fn walk(i: usize, depth: usize, children: &HashMap<usize, Vec<usize>>, out: &mut Vec<(usize, usize)>) {
        out.push((i, depth));
        for &c in children.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            walk(c, depth + 1, children, out);
        }
    }
    let mut out = Vec::with_capacity(keys.len());
    for i in top {
        walk(i, 0, &children, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::threaded;

    #[test]
    fn a_reply_follows_its_question() {
        let keys = [
            (Some("q"), None),
            (Some("other"), None),
            (Some("r1"), Some("q")),
            (None, None),
            (Some("r2"), Some("r1")),
            (Some("lost"), Some("gone")),
        ];
        assert_eq!(threaded(&keys), [(0, 0), (2, 1), (4, 2), (1, 0), (3, 0), (5, 0)]);
    }
}
