//! The terminal multiplexer port (being built).
