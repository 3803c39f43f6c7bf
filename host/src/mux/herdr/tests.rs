//! The herdr adapter against herdr 0.7.1's recorded outputs (`tests/data/herdr-0.7.1/`).
