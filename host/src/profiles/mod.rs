//! The wasmtime profile host (being built).
