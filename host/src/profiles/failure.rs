//! Why a profile cannot be loaded, typed: `team profile check`, `team profile list` and
//! `team status` tell "not built" from "an interface line this host does not read", "not a
//! component", "a forbidden import", "trapped", … by the variant ([`LoadError::word`]), and
//! show its sentence (`Display`, the words every transcript fixes).

/// Why one component cannot be used (its `Display` is the sentence after `… was not used: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// A bundled profile whose bytes this build does not carry (it was not built).
    #[error("its bytes are missing from this build")]
    NotBuilt,
    /// A dropped-in file that cannot be read (a link, too large, gone, …).
    #[error("it cannot be read: {0}")]
    Unreadable(String),
    /// Where it is installed does not name it (`<id>/<version>.wasm`), or is no regular file.
    #[error("{0}")]
    Misplaced(String),
    /// Not a WebAssembly component (a core module, garbage, sections that cannot be read).
    #[error("{0}")]
    NotAComponent(String),
    /// A component the compiler refused (neither a cached copy nor a fresh compile served).
    #[error("it is not a valid WebAssembly component: {0}")]
    Uncompilable(String),
    /// It exports no line of the profile interface this host reads (or a pair that does not go
    /// together): an incompatible WIT line.
    #[error("{0}")]
    IncompatibleLine(String),
    /// It imports a capability the sandbox does not give.
    #[error("{0}")]
    ForbiddenImport(String),
    /// Its exports do not type-check against its line's world (or its imports do not link).
    #[error("{0}")]
    WorldMismatch(String),
    /// The profile engine itself could not start.
    #[error("{0}")]
    Engine(String),
    /// `describe()` trapped (or ran out of its time or memory).
    #[error("describe() failed: {0}")]
    Trapped(String),
    /// What `describe()` said is refused (id, version, bounds, compose).
    #[error("{0}")]
    BadDescription(String),
}

crate::vocab::doc::words!(
    LoadError = [
        "not-built",
        "unreadable",
        "misplaced",
        "not-a-component",
        "uncompilable",
        "incompatible-line",
        "forbidden-import",
        "world-mismatch",
        "engine",
        "trapped",
        "bad-description"
    ]
);

impl LoadError {
    /// The failure's word (`not-built`, `incompatible-line`, `trapped`, …).
    pub fn word(&self) -> &'static str {
        match self {
            LoadError::NotBuilt => "not-built",
            LoadError::Unreadable(_) => "unreadable",
            LoadError::Misplaced(_) => "misplaced",
            LoadError::NotAComponent(_) => "not-a-component",
            LoadError::Uncompilable(_) => "uncompilable",
            LoadError::IncompatibleLine(_) => "incompatible-line",
            LoadError::ForbiddenImport(_) => "forbidden-import",
            LoadError::WorldMismatch(_) => "world-mismatch",
            LoadError::Engine(_) => "engine",
            LoadError::Trapped(_) => "trapped",
            LoadError::BadDescription(_) => "bad-description",
        }
    }
}

/// One component passed over for a CLI, and why (`<id> <version> (<source>) was not used: …`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{label} was not used: {why}")]
pub struct PassedOver {
    /// `<id> <version> (<source>)`.
    pub label: String,
    pub why: LoadError,
}

/// No installed component of a CLI can be used: each one tried, and why (typed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no installed {cli} profile can be used: {}", tried.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct NoneUsable {
    pub cli: String,
    pub tried: Vec<PassedOver>,
}

/// A refusal, in the same words.
impl From<NoneUsable> for crate::error::TeamError {
    fn from(e: NoneUsable) -> Self {
        crate::error::TeamError::refused(e.to_string())
    }
}

/// Why `ProfileHost::load_typed` found no profile for a CLI: the pin or what is installed
/// refused it before any component was tried (`select`: a bad pin, none installed, none the pin
/// accepts), or every component tried failed, each for its typed reason.
#[derive(Debug, Clone)]
pub enum NoProfile {
    Select(crate::error::TeamError),
    NoneUsable(NoneUsable),
}

impl NoProfile {
    /// The sentence a command shows (the `TeamError`'s, without `refused: `).
    pub fn sentence(&self) -> String {
        match self {
            NoProfile::Select(e) => e.sentence.clone(),
            NoProfile::NoneUsable(n) => n.to_string(),
        }
    }

    /// The components tried and why each failed (none when nothing was tried).
    pub fn tried(&self) -> &[PassedOver] {
        match self {
            NoProfile::Select(_) => &[],
            NoProfile::NoneUsable(n) => &n.tried,
        }
    }
}

impl From<NoProfile> for crate::error::TeamError {
    fn from(e: NoProfile) -> Self {
        match e {
            NoProfile::Select(e) => e,
            NoProfile::NoneUsable(n) => n.into(),
        }
    }
}
