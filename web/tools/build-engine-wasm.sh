#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the engine for the browser (crates/engine-wasm, issue 43) into web/engine/, where the worker's bundle
# (web/src/engine/worker.ts) takes it from: two modules of the same code, one with WebAssembly SIMD (the network's
# accumulators and output vectorised by the compiler, 128-bit lanes) and one without, for browsers that lack it.
# Called by `npm run build` before the bundler. The bytes do not depend on where the checkout is: the paths the
# compiler writes (panic messages) are remapped, symbols are stripped, and both builds use their own target
# directory. Needs the target once: `rustup target add wasm32-unknown-unknown`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/web/engine"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
mkdir -p "$out"
export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
  CARGO_PROFILE_RELEASE_STRIP=symbols CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_OPT_LEVEL=3
remap="--remap-path-prefix=$root=/guoxiang --remap-path-prefix=$cargo_home=/cargo"
for flavour in simd scalar; do
  if [ "$flavour" = simd ]; then features="-C target-feature=+simd128"; else features=""; fi
  RUSTFLAGS="$remap $features" CARGO_TARGET_DIR="$root/target/wasm-$flavour" \
    cargo build --quiet --release --locked --target wasm32-unknown-unknown -p guoxiang-engine-wasm \
    --manifest-path "$root/Cargo.toml"
  cp "$root/target/wasm-$flavour/wasm32-unknown-unknown/release/guoxiang_engine_wasm.wasm" \
    "$out/guoxiang-engine-$flavour.wasm"
done
ls -l "$out"/*.wasm | awk '{print $5, $NF}'
