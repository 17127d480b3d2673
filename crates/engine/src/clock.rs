//! The clock the search reads: `std::time::Instant` everywhere but in a browser.
//!
//! On `wasm32-unknown-unknown` the standard library has no clock (`Instant::now` panics there), so the engine's
//! WebAssembly build (crates/engine-wasm) reads the host's monotonic milliseconds through one import,
//! `env.gx_now_ms` (the page gives `performance.now`). The native engine is untouched: [`Instant`] is the standard
//! one.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// Monotonic milliseconds (fractional), from the host.
        fn gx_now_ms() -> f64;
    }

    /// An instant of the host's monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the host provides it (web/src/engine).
            Instant(unsafe { gx_now_ms() })
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0).max(0.0)) / 1000.0)
        }
    }
}
