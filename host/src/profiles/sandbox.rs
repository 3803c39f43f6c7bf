//! The sandbox a profile runs in: a deny-all linker, an import allowlist checked at load,
//! memory limits, and the one fixed seed a profile is given.
//!
//! Invariant: no WASI capability is linked for real. A `wasm32-wasip2` guest built from Rust
//! `std` imports a fixed set of inert interfaces (stdio streams, exit, environment, terminal
//! — pulled in by std's panic and exit paths); those are allowed at load and every function
//! in them traps when called, so a profile that tries to print, exit or read its
//! environment gets an error reading, never the host's environment. `insecure-seed` answers
//! a constant (std's `HashMap` asks for it; a constant keeps readings deterministic).
//! Anything else a component imports — filesystem, clocks, sockets, random bytes, HTTP, or an
//! interface nobody knows — refuses the component at load, naming the import.

use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, ResourceLimiter, StoreLimits, StoreLimitsBuilder};

use super::LoadError;

/// The seed `wasi:random/insecure-seed#insecure-seed` answers, every call, every profile.
pub const INSECURE_SEED: (u64, u64) = (0x7465_616d_2d70_726f, 0x6669_6c65_2d73_6565);

/// Linear memory a profile instance may use.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// Imports a profile may carry, by name without version, and the WASI line they must be on.
/// `team:profile/types` is type-only (records and enums, no functions).
const ALLOWED: &[(&str, &str)] = &[
    ("team:profile/types", "0.1."),
    ("team:profile/types", "0.2."),
    ("wasi:random/insecure-seed", "0.2."),
    // Inert: linked as traps. Rust std on wasip2 imports these for stdio, exit and the
    // panic hook; none of them gives access to anything when every call traps.
    ("wasi:io/error", "0.2."),
    ("wasi:io/poll", "0.2."),
    ("wasi:io/streams", "0.2."),
    ("wasi:cli/environment", "0.2."),
    ("wasi:cli/exit", "0.2."),
    ("wasi:cli/stdin", "0.2."),
    ("wasi:cli/stdout", "0.2."),
    ("wasi:cli/stderr", "0.2."),
    ("wasi:cli/terminal-input", "0.2."),
    ("wasi:cli/terminal-output", "0.2."),
    ("wasi:cli/terminal-stdin", "0.2."),
    ("wasi:cli/terminal-stdout", "0.2."),
    ("wasi:cli/terminal-stderr", "0.2."),
];

/// Splits `pkg:ns/iface@1.2.3` into its name and version (empty when unversioned).
pub fn split_name(import: &str) -> (&str, &str) {
    import.split_once('@').unwrap_or((import, ""))
}

/// Whether one import name is on the allowlist.
pub fn allowed(import: &str) -> bool {
    let (name, version) = split_name(import);
    ALLOWED.iter().any(|(n, line)| *n == name && version.starts_with(line))
}

/// Checks every import of `component` against the allowlist; the error names the first
/// import the host does not give profiles.
pub fn check_imports(engine: &Engine, component: &Component) -> Result<(), LoadError> {
    let ty = component.component_type();
    check_import_names(ty.imports(engine).map(|(n, _)| n))
}

/// Checks import names against the allowlist (`check_imports`, and `precheck` before any
/// compiling); the error names the imports the host does not give profiles.
pub fn check_import_names<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), LoadError> {
    let refused: Vec<&str> = names.filter(|n| !allowed(n)).collect();
    let why = match refused.as_slice() {
        [] => return Ok(()),
        [one] => format!(
            "it imports `{one}`, a capability the host does not give profiles (profiles get no filesystem, clock, network, environment or randomness)"
        ),
        many => format!(
            "it imports {}, capabilities the host does not give profiles (profiles get no filesystem, clock, network, environment or randomness)",
            many.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ),
    };
    Err(LoadError::ForbiddenImport(why))
}

/// What a profile's `Store` carries: only its limits.
pub struct HostState {
    limits: StoreLimits,
}

impl Default for HostState {
    fn default() -> HostState {
        HostState::new()
    }
}

impl HostState {
    pub fn new() -> HostState {
        HostState {
            limits: StoreLimitsBuilder::new()
                .memory_size(MEMORY_LIMIT)
                .table_elements(100_000)
                .instances(16)
                .tables(16)
                .memories(4)
                .trap_on_grow_failure(true)
                .build(),
        }
    }
}

/// `StoreLimits` with errors that name the limit (its own say only "forcing a trap").
impl ResourceLimiter for HostState {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        match self.limits.memory_growing(current, desired, maximum) {
            Ok(ok) => Ok(ok),
            Err(_) => Err(wasmtime::Error::msg(format!(
                "it asked for {} of memory, over the profile memory limit of {} MiB",
                human_bytes(desired),
                MEMORY_LIMIT >> 20
            ))),
        }
    }
    fn table_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        self.limits.table_growing(current, desired, maximum).map_err(|_| {
            wasmtime::Error::msg(format!(
                "it asked for a table of {desired} elements, over the profile limit of 100000"
            ))
        })
    }
    fn instances(&self) -> usize {
        self.limits.instances()
    }
    fn tables(&self) -> usize {
        self.limits.tables()
    }
    fn memories(&self) -> usize {
        self.limits.memories()
    }
}

fn human_bytes(n: usize) -> String {
    if n >= 1 << 30 {
        format!("{:.1} GiB", n as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", n.div_ceil(1 << 20))
    }
}

/// The linker for one component: the fixed seed at the exact `insecure-seed` version the
/// component imports (a semver-compatible definition would be shadowed by the trap stubs),
/// then a trapping stub for every other import.
pub fn linker(engine: &Engine, component: &Component) -> wasmtime::Result<Linker<HostState>> {
    let mut l = Linker::new(engine);
    let names: Vec<String> = component.component_type().imports(engine).map(|(n, _)| n.to_string()).collect();
    for name in names {
        if split_name(&name).0 == "wasi:random/insecure-seed" {
            l.instance(&name)?.func_wrap("insecure-seed", |_, (): ()| Ok((INSECURE_SEED,)))?;
        }
    }
    l.define_unknown_imports_as_traps(component)?;
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowlist_matches_by_name_and_line() {
        assert!(allowed("wasi:random/insecure-seed@0.2.6"));
        assert!(allowed("team:profile/types@0.1.0"));
        assert!(allowed("team:profile/types@0.2.0"));
        assert!(!allowed("team:profile/types@0.3.0"));
        assert!(allowed("wasi:cli/stderr@0.2.3"));
        assert!(!allowed("wasi:random/random@0.2.6"));
        assert!(!allowed("wasi:filesystem/preopens@0.2.6"));
        assert!(!allowed("wasi:clocks/wall-clock@0.2.6"));
        assert!(!allowed("wasi:cli/stderr@0.3.0"));
        assert!(!allowed("wasi:sockets/tcp@0.2.6"));
        assert!(!allowed("acme:spy/phone-home@1.0.0"));
    }

    #[test]
    fn memory_limit_messages_name_the_limit() {
        let mut h = HostState::new();
        let e = h.memory_growing(1 << 20, 4 << 30, None).unwrap_err().to_string();
        assert_eq!(e, "it asked for 4.0 GiB of memory, over the profile memory limit of 64 MiB");
        assert!(h.memory_growing(1 << 20, 2 << 20, None).unwrap());
    }
}
