//! Byte and phrase search that stays fast inside a wasm guest.
//!
//! Natively, `str::find` with a short needle and `memchr` are SIMD on x86-64; in a
//! `wasm32-wasip2` component they are not: `str::find` sets up a Two-Way searcher for every
//! call (45% of a claude-code read went there, measured with `bench/profiles.sh` under perf)
//! and `memchr` reads one 4-byte word at a time. So on `wasm32` with `simd128` (how the
//! bundled guests are built) these scans test a block of [`LANES`] positions at once: each
//! block becomes a bitmask of the lanes whose byte matches (`i8x16.eq` + `i8x16.bitmask`, safe
//! functions of `core::arch` there), and only the set bits are looked at one by one. Elsewhere
//! [`find`], [`contains`], [`find_ascii`], [`find_byte`] and [`same`] are `std`'s own (SIMD
//! where it has it), and [`find_ci`] the same block walk with the mask built by a plain loop.
//!
//! The mask (`Lanes`) is the only target-specific part: the block walk, the candidate loop
//! and the full comparison are shared, and the native tests run them with the plain-loop mask.
//!
//! Invariant: each function answers exactly what its `std` counterpart does (the tests compare
//! them on generated text, multi-byte characters included); a match of a whole UTF-8 needle
//! always starts on a character boundary of the haystack.

/// Positions tested per block: two 128-bit vectors.
pub const LANES: usize = 32;

/// One block of [`LANES`] bytes.
type Block = [u8; LANES];

/// Bitmasks over a block: bit `k` set when byte `k` matches.
trait Lanes {
    /// Bytes `x` with `x | mask == want` (`mask` is 0 for an exact byte, 0x20 for an ASCII
    /// letter of either case: see [`fold_mask`]).
    fn eq_mask(block: &Block, mask: u8, want: u8) -> u32;

    /// True when the two blocks hold the same bytes.
    fn same_block(a: &Block, b: &Block) -> bool;
}

/// The mask built with a plain loop (any target; the native tests run the block walk with it).
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
struct Portable;

impl Lanes for Portable {
    fn eq_mask(block: &Block, mask: u8, want: u8) -> u32 {
        let mut m = 0u32;
        for (k, &x) in block.iter().enumerate() {
            m |= (((x | mask) == want) as u32) << k;
        }
        m
    }

    fn same_block(a: &Block, b: &Block) -> bool {
        a == b
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
struct Simd;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Lanes for Simd {
    #[inline(always)]
    fn eq_mask(block: &Block, mask: u8, want: u8) -> u32 {
        use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128_or};
        let (m, w) = (u8x16_splat(mask), u8x16_splat(want));
        let lo = u8x16_bitmask(u8x16_eq(v128_or(load(&block[..16]), m), w)) as u32;
        let hi = u8x16_bitmask(u8x16_eq(v128_or(load(&block[16..]), m), w)) as u32;
        lo | hi << 16
    }

    #[inline(always)]
    fn same_block(a: &Block, b: &Block) -> bool {
        use core::arch::wasm32::{u8x16_all_true, u8x16_eq, v128_and};
        let lo = u8x16_eq(load(&a[..16]), load(&b[..16]));
        let hi = u8x16_eq(load(&a[16..]), load(&b[16..]));
        u8x16_all_true(v128_and(lo, hi))
    }
}

/// Sixteen bytes as one vector: `u8x16` of sixteen loaded bytes compiles to one `v128.load`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn load(b: &[u8]) -> core::arch::wasm32::v128 {
    core::arch::wasm32::u8x16(
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15],
    )
}

/// The mask [`find_ci`] uses, and [`find`] and [`find_byte`] in a wasm guest.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
type Target = Simd;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
type Target = Portable;

/// True when the block walk beats `std` here: a wasm guest with `simd128`.
const WALK: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// The index of the first `b` in `h` (what `memchr` answers).
pub fn find_byte(h: &[u8], b: u8) -> Option<usize> {
    if WALK {
        find_byte_with::<Target>(h, b)
    } else {
        h.iter().position(|&x| x == b)
    }
}

fn find_byte_with<L: Lanes>(h: &[u8], b: u8) -> Option<usize> {
    let mask = |at: usize| L::eq_mask(h[at..at + LANES].try_into().expect("a whole block"), 0, b);
    let mut i = 0;
    while i + LANES <= h.len() {
        let m = mask(i);
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += LANES;
    }
    if i == h.len() {
        return None;
    }
    if h.len() < LANES {
        return h.iter().position(|&x| x == b);
    }
    // The last whole block, overlapping the ones tested: lanes before `i` are masked off.
    let base = h.len() - LANES;
    let m = mask(base) & !lanes_below(i - base);
    (m != 0).then(|| base + m.trailing_zeros() as usize)
}

/// The mask of lanes `0..n` (`n < LANES`): those of a text's last block, overlapping the
/// blocks before it, that were tested already. (A text shorter than a block is read byte by
/// byte: copying it into a padded block costs more, natively and in a guest.)
#[inline(always)]
fn lanes_below(n: usize) -> u32 {
    (1u32 << n) - 1
}

/// The byte offset of the first ASCII character `c` in `hay` (what `hay.find(c as char)`
/// answers; natively that is `memchr`, faster than [`find_byte`]'s fallback).
pub fn find_ascii(hay: &str, c: u8) -> Option<usize> {
    debug_assert!(c.is_ascii(), "find_ascii takes an ASCII character");
    if WALK {
        find_byte_with::<Target>(hay.as_bytes(), c)
    } else {
        hay.find(c as char)
    }
}

/// True when `a` and `b` hold the same bytes (what `a == b` answers).
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if WALK {
        same_with::<Target>(a, b)
    } else {
        a == b
    }
}

fn same_with<L: Lanes>(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    for (p, q) in (&mut x).zip(&mut y) {
        if !L::same_block(p.try_into().expect("a whole block"), q.try_into().expect("a whole block")) {
            return false;
        }
    }
    x.remainder() == y.remainder()
}

/// True when `h` is `unit` repeated (at least once): `h` starts with `unit` and equals itself
/// shifted by one unit, so one comparison of the whole row decides (a full-width rule is 120
/// repeats of a 3-byte `─`).
pub fn is_repeat(h: &[u8], unit: &[u8]) -> bool {
    let u = unit.len();
    u > 0 && h.len() >= u && h.len().is_multiple_of(u) && h.starts_with(unit) && same(&h[u..], &h[..h.len() - u])
}

/// The byte offset of the first occurrence of `needle` in `hay` (what `hay.find(needle)`
/// answers).
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    if WALK {
        find_folded::<Target>(hay.as_bytes(), needle.as_bytes(), false)
    } else {
        hay.find(needle)
    }
}

/// True when `hay` contains `needle` (what `hay.contains(needle)` answers).
pub fn contains(hay: &str, needle: &str) -> bool {
    if WALK {
        find(hay, needle).is_some()
    } else {
        // Natively `contains` has a SIMD path `find` lacks (x86-64 `simd_contains`).
        hay.contains(needle)
    }
}

/// As [`find`], comparing ASCII letters without case (what a search of both strings
/// ASCII-lowercased answers).
pub fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    find_folded::<Target>(hay.as_bytes(), needle.as_bytes(), true)
}

/// `(mask, want)` such that a byte `x` matches the needle byte `n` when `x | mask == want`:
/// with `ci`, an ASCII letter matches both its cases (`x | 0x20` is the lowercase letter for
/// exactly the letter's two cases); any other byte only itself.
fn fold_mask(n: u8, ci: bool) -> (u8, u8) {
    if ci && n.is_ascii_alphabetic() {
        (0x20, n.to_ascii_lowercase())
    } else {
        (0, n)
    }
}

/// A start is a candidate when the needle's first and last bytes both match there; only
/// candidates are compared in full.
fn find_folded<L: Lanes>(h: &[u8], n: &[u8], ci: bool) -> Option<usize> {
    if n.is_empty() {
        return Some(0);
    }
    if n.len() > h.len() {
        return None;
    }
    if n.len() == 1 && !ci {
        return find_byte_with::<L>(h, n[0]);
    }
    let (fm, first) = fold_mask(n[0], ci);
    let (lm, last) = fold_mask(n[n.len() - 1], ci);
    let same = |k: usize| {
        let at = &h[k..k + n.len()];
        if ci {
            at.eq_ignore_ascii_case(n)
        } else {
            at == n
        }
    };
    let starts = h.len() - n.len() + 1;
    // `lo[k]` is the byte at start k, `hi[k]` the byte where a needle starting at k ends.
    let (lo, hi) = (&h[..starts], &h[n.len() - 1..]);
    let block = |s: &[u8], at: usize| -> Block { s[at..at + LANES].try_into().expect("a whole block") };
    let mask = |a: &Block, z: &Block| L::eq_mask(a, fm, first) & L::eq_mask(z, lm, last);
    // The first start among the candidates `m` (bit k: start `base + k`) where `n` occurs.
    let first_match = |base: usize, mut m: u32| {
        while m != 0 {
            let k = base + m.trailing_zeros() as usize;
            if same(k) {
                return Some(k);
            }
            m &= m - 1;
        }
        None
    };
    let mut i = 0;
    while i + LANES <= starts {
        if let Some(k) = first_match(i, mask(&block(lo, i), &block(hi, i))) {
            return Some(k);
        }
        i += LANES;
    }
    if i == starts {
        return None;
    }
    if starts < LANES {
        return (0..starts).find(|&k| (lo[k] | fm) == first && (hi[k] | lm) == last && same(k));
    }
    // The last whole block of starts, overlapping the ones tested: lanes before `i` are off.
    let base = starts - LANES;
    first_match(base, mask(&block(lo, base), &block(hi, base)) & !lanes_below(i - base))
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
                let want = t.bytes().position(|x| x == b);
                assert_eq!(find_byte_with::<Portable>(t.as_bytes(), b), want, "{t:?} {b}");
                assert_eq!(find_byte(t.as_bytes(), b), want);
                if b.is_ascii() {
                    assert_eq!(find_ascii(&t, b), want);
                }
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
                let want = t.find(n.as_str());
                assert_eq!(find_folded::<Portable>(t.as_bytes(), n.as_bytes(), false), want, "{t:?} / {n:?}");
                assert_eq!(find(t, n), want);
                assert_eq!(contains(t, n), want.is_some());
                let want = t.to_ascii_lowercase().find(&n.to_ascii_lowercase());
                assert_eq!(find_ci(t, n), want, "ci {t:?} / {n:?}");
            }
        }
    }

    #[test]
    fn same_and_repeat_agree_with_the_plain_answers() {
        let all = texts();
        for a in &all {
            for b in all.iter().take(60) {
                assert_eq!(same_with::<Portable>(a.as_bytes(), b.as_bytes()), a == b);
                assert_eq!(same(a.as_bytes(), b.as_bytes()), a == b);
            }
        }
        let rule = "─".repeat(120);
        assert!(is_repeat(rule.as_bytes(), "─".as_bytes()));
        assert!(same_with::<Portable>(rule.as_bytes(), "─".repeat(120).as_bytes()));
        let mut broken = rule.clone();
        broken.replace_range(100 * 3..101 * 3, "━");
        assert!(!is_repeat(broken.as_bytes(), "─".as_bytes()));
        assert!(!same_with::<Portable>(rule.as_bytes(), broken.as_bytes()));
        assert!(!is_repeat(format!("{rule} ").as_bytes(), "─".as_bytes()));
        assert!(!is_repeat(b"", b"x") && !is_repeat(b"xx", b"") && is_repeat(b"x", b"x"));
    }

    #[test]
    fn case_folding_touches_letters_only() {
        // `@` | 0x20 is '`' and `[` | 0x20 is `{`: neither may match the other.
        assert_eq!(find_ci("x`y", "x@y"), None);
        assert_eq!(find_ci("x{y", "x[y"), None);
        assert_eq!(find_ci("ESC TO INTERRUPT", "esc to interrupt"), Some(0));
        assert_eq!(find_ci(&format!("{}Esc to", " ".repeat(40)), "esc to"), Some(40));
        let mut block = [b'x'; LANES];
        (block[3], block[31]) = (b'E', b'e');
        assert_eq!(Portable::eq_mask(&block, 0x20, b'e'), 1 << 3 | 1 << 31);
        assert_eq!(Portable::eq_mask(&block, 0, b'e'), 1 << 31);
    }
}
