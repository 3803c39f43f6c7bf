//! Byte and phrase search written so the compiler vectorises it, for the wasm guests.
//!
//! Natively, `str::find` with a short needle and `memchr` are SIMD on x86-64; in a
//! `wasm32-wasip2` component they are not: `str::find` sets up a Two-Way searcher for every
//! call (most of a profile's time went there, measured in `bench/profiles.sh`) and `memchr`
//! reads one 4-byte word at a time. These scans test a block of [`LANES`] positions at once —
//! plain comparisons of fixed-size arrays folded with `|`, which LLVM turns into `i8x16`
//! compares under `+simd128` (and SSE2 natively) — and look at single positions only inside a
//! block that has a candidate. No `unsafe`.
//!
//! Invariant: each function answers exactly what its `std` counterpart does (the tests compare
//! them on generated text, multi-byte characters included); a match of a whole UTF-8 needle
//! always starts on a character boundary of the haystack.

/// Positions tested per block: two 128-bit vectors.
pub const LANES: usize = 32;

/// The index of the first `b` in `h` (what `memchr` answers).
pub fn find_byte(h: &[u8], b: u8) -> Option<usize> {
    let mut blocks = h.chunks_exact(LANES);
    let mut base = 0;
    for block in &mut blocks {
        let block: &[u8; LANES] = block.try_into().expect("chunks_exact gives whole blocks");
        if block.iter().fold(false, |any, &x| any | (x == b)) {
            return block.iter().position(|&x| x == b).map(|k| base + k);
        }
        base += LANES;
    }
    blocks.remainder().iter().position(|&x| x == b).map(|k| base + k)
}

/// True when `h` holds `b`.
pub fn has_byte(h: &[u8], b: u8) -> bool {
    find_byte(h, b).is_some()
}

/// The byte offset of the first occurrence of `needle` in `hay` (what `hay.find(needle)`
/// answers).
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    find_folded(hay.as_bytes(), needle.as_bytes(), false)
}

/// True when `hay` contains `needle` (what `hay.contains(needle)` answers).
pub fn contains(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// As [`find`], comparing ASCII letters without case (what a search of both strings
/// ASCII-lowercased answers).
pub fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    find_folded(hay.as_bytes(), needle.as_bytes(), true)
}

/// The mask that folds a byte for comparison with `n`: ASCII letters compare without case
/// when `ci` (`x | 0x20` is the lowercase letter for both cases of a letter, and no other
/// byte maps onto a lowercase letter that way except the letter's own two cases).
fn fold_mask(n: u8, ci: bool) -> (u8, u8) {
    if ci && n.is_ascii_alphabetic() {
        (0x20, n.to_ascii_lowercase())
    } else {
        (0, n)
    }
}

/// The first start where the needle's first and last bytes both match is a candidate; only
/// candidates are compared in full. Blocks of [`LANES`] starts are tested at once.
fn find_folded(h: &[u8], n: &[u8], ci: bool) -> Option<usize> {
    if n.is_empty() {
        return Some(0);
    }
    if n.len() > h.len() {
        return None;
    }
    if n.len() == 1 && !ci {
        return find_byte(h, n[0]);
    }
    let same = |a: &[u8]| if ci { a.eq_ignore_ascii_case(n) } else { a == n };
    let (fm, first) = fold_mask(n[0], ci);
    let (lm, last) = fold_mask(n[n.len() - 1], ci);
    let starts = h.len() - n.len() + 1;
    // `lo[k]` is the byte at start k, `hi[k]` the byte where a needle starting at k ends.
    let lo = &h[..starts];
    let hi = &h[n.len() - 1..];
    let mut i = 0;
    while i + LANES <= starts {
        let a: &[u8; LANES] = lo[i..i + LANES].try_into().expect("a whole block");
        let z: &[u8; LANES] = hi[i..i + LANES].try_into().expect("a whole block");
        let mut any = false;
        for k in 0..LANES {
            any |= ((a[k] | fm) == first) & ((z[k] | lm) == last);
        }
        if any {
            for k in 0..LANES {
                if (a[k] | fm) == first && (z[k] | lm) == last && same(&h[i + k..i + k + n.len()]) {
                    return Some(i + k);
                }
            }
        }
        i += LANES;
    }
    (i..starts).find(|&k| (lo[k] | fm) == first && (hi[k] | lm) == last && same(&h[k..k + n.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic text over a small alphabet (so matches are frequent), multi-byte
    /// characters and both cases included.
    fn texts() -> Vec<String> {
        const ALPHABET: &[&str] = &["a", "b", "A", "B", " ", "\n", "─", "❯", "\u{a0}", "é", "(", "Read(", "\x1b["];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut out = vec![String::new()];
        for len in [1, 2, 3, 5, 15, 16, 31, 32, 33, 63, 64, 65, 100, 200] {
            for _ in 0..12 {
                out.push((0..len).map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize]).collect());
            }
        }
        out
    }

    #[test]
    fn find_byte_agrees_with_position() {
        for t in texts() {
            for b in [b'a', b'\n', 0xe2, 0x80, b'z', 0x1b] {
                assert_eq!(find_byte(t.as_bytes(), b), t.bytes().position(|x| x == b), "{t:?} {b}");
                assert_eq!(has_byte(t.as_bytes(), b), t.as_bytes().contains(&b));
            }
        }
    }

    #[test]
    fn find_agrees_with_std_on_every_needle_cut_from_the_text() {
        let all = texts();
        let mut needles: Vec<String> = vec!["".into(), "ab".into(), "zz".into(), "Read(".into(), "─❯".into()];
        for t in all.iter().filter(|t| t.chars().count() > 8).take(40) {
            let chars: Vec<char> = t.chars().collect();
            for (s, l) in [(0, 2), (1, 3), (3, 5), (2, 1), (5, 8)] {
                needles.push(chars[s.min(chars.len())..(s + l).min(chars.len())].iter().collect());
            }
        }
        for t in &all {
            for n in &needles {
                assert_eq!(find(t, n), t.find(n.as_str()), "{t:?} / {n:?}");
                assert_eq!(contains(t, n), t.contains(n.as_str()));
                let want = t.to_ascii_lowercase().find(&n.to_ascii_lowercase());
                assert_eq!(find_ci(t, n), want, "ci {t:?} / {n:?}");
            }
        }
    }

    #[test]
    fn case_folding_touches_letters_only() {
        // `@` | 0x20 is '`' and `[` | 0x20 is `{`: neither may match the other.
        assert_eq!(find_ci("x`y", "x@y"), None);
        assert_eq!(find_ci("x{y", "x[y"), None);
        assert_eq!(find_ci("ESC TO INTERRUPT", "esc to interrupt"), Some(0));
        assert_eq!(find_ci(&format!("{}Esc to", " ".repeat(40)), "esc to"), Some(40));
    }
}
