#!/usr/bin/env bash
# Native classify of the profile crates (issue 3): a 120x40 screen per profile, the first call in
# a fresh process ("cold") and the median warm call. The profiles build nothing at start-up (no
# regex, no HashMap), so cold should be close to warm. The component side and the wasm/native
# ratio are measured by bench/profiles.sh.
# Usage: bench/profiles-native.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cd "$root"
cargo run --release -q -p profile-artifacts --example classify_native
