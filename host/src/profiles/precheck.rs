//! A component's own account of itself, read before anything is compiled: is it a component,
//! what does it import, what does it export — with the component parser (`wasmparser`, the
//! one wasmtime reads with), which walks the sections without compiling or validating code.
//!
//! Invariant: a component the host would refuse for its imports or exports is refused here,
//! in milliseconds, in the same words `instantiate`'s checks use; only one that passes is
//! handed to the compiler (a 60 MB component exporting nothing once took 11–19 s to refuse
//! because it was compiled first).

use wasmparser::{Encoding, Parser, Payload};

use super::LoadError;

/// The top-level import and export names of a component.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Names {
    pub imports: Vec<String>,
    pub exports: Vec<String>,
}

/// Reads `wasm`'s top-level names; an error when it is no component or cannot be parsed.
pub fn names(wasm: &[u8]) -> Result<Names, LoadError> {
    let bad = LoadError::NotAComponent;
    let mut out = Names::default();
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| bad(format!("it is not a valid WebAssembly component: {}", e.message())))?;
        match payload {
            Payload::Version { encoding, .. } => {
                if depth == 0 && encoding != Encoding::Component {
                    return Err(bad("it is a WebAssembly module, not a component (build it for wasm32-wasip2, or wrap it with `wasm-tools component new`)".into()));
                }
                depth += 1;
            }
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(r) if depth == 1 => {
                for i in r {
                    let i = i.map_err(|e| bad(format!("its imports cannot be read: {}", e.message())))?;
                    out.imports.push(i.name.name.to_string());
                }
            }
            Payload::ComponentExportSection(r) if depth == 1 => {
                for x in r {
                    let x = x.map_err(|e| bad(format!("its exports cannot be read: {}", e.message())))?;
                    out.exports.push(x.name.name.to_string());
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Refuses, before compiling, a component whose imports the sandbox does not allow or whose
/// exports name no line this host reads.
pub fn check(wasm: &[u8]) -> Result<(), LoadError> {
    let n = names(wasm)?;
    super::sandbox::check_import_names(n.imports.iter().map(String::as_str))?;
    super::Line::of_exports(&n.exports).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_component_passes_and_a_module_or_garbage_does_not() {
        for b in profile_artifacts::BUNDLED {
            check(b.bytes).unwrap_or_else(|e| panic!("{}: {e}", b.id));
            let n = names(b.bytes).unwrap();
            assert!(n.exports.iter().any(|e| e.starts_with("team:profile/classifier@")), "{}: {n:?}", b.id);
        }
        assert!(check(b"\0asm\x01\0\0\0")
            .unwrap_err()
            .to_string()
            .starts_with("it is a WebAssembly module, not a component"));
        assert!(check(b"not wasm at all")
            .unwrap_err()
            .to_string()
            .starts_with("it is not a valid WebAssembly component"));
    }

    #[test]
    fn an_empty_component_is_refused_for_its_exports_at_once() {
        // the component preamble alone: version 0xd, layer 1 — valid, exporting nothing
        let empty = b"\0asm\x0d\0\x01\0";
        let t = std::time::Instant::now();
        assert_eq!(
            check(empty).unwrap_err(),
            LoadError::IncompatibleLine(format!(
                "it does not export `{}` (world `profile`) or `{}`; it exports nothing",
                super::super::v0_2::EXPORT,
                super::super::v0_1::EXPORT
            ))
        );
        assert!(t.elapsed() < std::time::Duration::from_millis(100));
    }
}
