#!/usr/bin/env bash
# Builds the real herdr servers the herdr tier drives (host/tests/it/up_herdr.rs) from source, one
# per version (default: 0.8.2 then 0.7.1), into the test cache the tier looks in:
#
#   ${TEAM_TESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/team-tests}/herdr-<version>/herdr
#
# (HERDR_BIN_<version with _ for .>, e.g. HERDR_BIN_0_8_2, overrides that path for the tier.)
# A version whose binary is there and answers `herdr <version>` to --version is not built again.
#
# What it needs, none of it on a fresh CI machine (which is why the tier is `#[ignore]`d in the
# plain `cargo test` and run by .ci/run only where the binaries are; see tests/README.md):
# - herdr's source: a git repository holding the tags v<version> (HERDR_SRC, default the mirror
#   /work/.mirror/herdrdev+herdr/repo; a bare one is fine). crates.io has only herdr 0.1.0.
# - zig 0.15.2 for herdr's build.rs (it builds the vendored libghostty-vt with `zig build`):
#   installed from PyPI's `ziglang==0.15.2` wheel into the cache (zig-0.15.2/) when absent.
# - libghostty-vt's one eager zig dependency, uucode 0.2.0, which its build.zig.zon fetches from
#   a host outside the package registries: put into zig's package cache from a git repository of
#   jacobsandlund/uucode holding the tag v0.2.0 (UUCODE_SRC, default
#   /work/.mirror/jacobsandlund+uucode/repo), under the hash the .zon names.
# - the crates of herdr's Cargo.lock: from ~/.cargo's registry when there (offline), else from
#   crates.io.
# herdr 0.8.2 pins Rust 1.96.1 (rust-toolchain.toml); it builds with this repository's 1.95.0,
# which is what RUSTUP_TOOLCHAIN selects here.
#
# Measured (2 shared cores, other builds beside it): ~30 min per version; see docs/launch.md
# "On herdr".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${TEAM_TESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/team-tests}"
src_repo="${HERDR_SRC:-/work/.mirror/herdrdev+herdr/repo}"
uucode_repo="${UUCODE_SRC:-/work/.mirror/jacobsandlund+uucode/repo}"
versions=("$@")
((${#versions[@]})) || versions=(0.8.2 0.7.1)
toolchain="$(sed -n 's/^channel = "\(.*\)"/\1/p' "$here/../../rust-toolchain.toml")"

say() { echo "tests/herdr/build.sh: $*" >&2; }

built() { # <version>
  [[ -x "$cache/herdr-$1/herdr" && "$("$cache/herdr-$1/herdr" --version 2>/dev/null)" == "herdr $1" ]]
}

zig_dir="$cache/zig-0.15.2"
zig="$zig_dir/ziglang/zig"
need_zig() {
  [[ -x "$zig" && "$("$zig" version)" == 0.15.2 ]] && return
  say "installing zig 0.15.2 (PyPI ziglang) into $zig_dir"
  rm -rf "$zig_dir"
  python3 -m pip install --quiet --disable-pip-version-check --target "$zig_dir" ziglang==0.15.2
  [[ "$("$zig" version)" == 0.15.2 ]] || { say "zig from the ziglang wheel is not 0.15.2"; exit 1; }
}

# libghostty-vt's build.zig asks for ~15 lazy dependencies (fonts, GTK, vaxis, …) that the
# library itself never uses, all from outside the registries. Zig's build runner stops at the
# first configure pass to fetch them; --system forbids fetching, and a copy of the runner with
# that stop taken out configures with them absent (each is `if (b.lazyDependency(…)) |dep|`),
# so only uucode is needed. SIMD off: its C++ deps (simdutf, highway) are fetched too.
zig_lazyskip="$zig_dir/zig-lazyskip"
need_lazyskip() {
  local lib="$zig_dir/ziglang/lib/compiler"
  [[ -x "$zig_lazyskip" ]] && return
  sed 's/if (graph.needed_lazy_dependencies.entries.len != 0) {/if (false and graph.needed_lazy_dependencies.entries.len != 0) {/' \
    "$lib/build_runner.zig" >"$lib/build_runner_skiplazy.zig"
  grep -q 'false and graph.needed_lazy' "$lib/build_runner_skiplazy.zig" ||
    { say "zig 0.15.2's build_runner.zig is not the one this script patches"; exit 1; }
  printf '#!/bin/sh\nif [ "$1" = build ]; then shift; exec "%s" build --build-runner "%s" "$@"; fi\nexec "%s" "$@"\n' \
    "$zig" "$lib/build_runner_skiplazy.zig" "$zig" >"$zig_lazyskip"
  chmod +x "$zig_lazyskip"
}

# zig's package cache (ZIG_GLOBAL_CACHE_DIR), kept in the test cache, never in ~/.cache/zig.
zig_global="$cache/zig-global"
need_uucode() { # <herdr source dir>
  local zon="$1/vendor/libghostty-vt/build.zig.zon" hash
  hash="$(grep -A3 '^ *\.uucode = ' "$zon" | sed -n 's/.*\.hash = "\(.*\)".*/\1/p')"
  [[ "$hash" == uucode-0.2.0-* ]] || { say "libghostty-vt wants uucode $hash; this script knows 0.2.0"; exit 1; }
  local dest="$zig_global/p/$hash"
  [[ -f "$dest/build.zig.zon" ]] && return
  git --git-dir="$uucode_repo" rev-parse -q --verify 'v0.2.0^{commit}' >/dev/null ||
    { say "no tag v0.2.0 in $uucode_repo (UUCODE_SRC): a git repository of jacobsandlund/uucode"; exit 1; }
  mkdir -p "$dest.tmp"
  # the package's own `paths` (LICENSE.md README.md build.zig build.zig.zon src ucd)
  git --git-dir="$uucode_repo" archive v0.2.0 LICENSE.md README.md build.zig build.zig.zon src ucd |
    tar -x -C "$dest.tmp"
  mv "$dest.tmp" "$dest"
}

build_one() { # <version>
  local v="$1" start src target
  start=$(date +%s)
  git --git-dir="$src_repo" rev-parse -q --verify "v$v^{commit}" >/dev/null ||
    { say "no tag v$v in $src_repo (HERDR_SRC): a git repository of herdrdev/herdr"; exit 1; }
  src="$cache/herdr-build/src-$v"
  target="$cache/herdr-build/target-$v"
  if [[ ! -f "$src/.extracted" ]]; then # (kept: its vendor/libghostty-vt/.zig-cache saves minutes)
    rm -rf "$src"
    mkdir -p "$src"
    git --git-dir="$src_repo" archive "v$v" | tar -x -C "$src"
    touch "$src/.extracted"
  fi
  need_zig
  need_lazyskip
  need_uucode "$src"
  (
    cd "$src"
    export RUSTUP_TOOLCHAIN="$toolchain" ZIG="$zig_lazyskip" ZIG_GLOBAL_CACHE_DIR="$zig_global" \
      LIBGHOSTTY_VT_ZIG_SYSTEM_DIR="$zig_global/p" LIBGHOSTTY_VT_SIMD=false CARGO_TARGET_DIR="$target"
    if ! cargo fetch --locked --offline >/dev/null 2>&1; then
      say "herdr $v: fetching its crates from crates.io"
      cargo fetch --locked
    fi
    cargo build --release --locked --offline
  )
  mkdir -p "$cache/herdr-$v"
  cp "$target/release/herdr" "$cache/herdr-$v/herdr.tmp"
  mv "$cache/herdr-$v/herdr.tmp" "$cache/herdr-$v/herdr"
  built "$v" || { say "the built binary does not answer 'herdr $v' to --version"; exit 1; }
  say "built herdr $v in $(($(date +%s) - start)) s: $cache/herdr-$v/herdr"
}

for v in "${versions[@]}"; do
  if built "$v"; then
    say "herdr $v is already built: $cache/herdr-$v/herdr"
  else
    build_one "$v"
  fi
done
