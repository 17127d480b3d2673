// The search recurses up to MAX_PLY deep with move lists on the stack: the WebAssembly module gets an 8 MiB stack
// (the linker's default is 1 MiB). Native builds are not touched.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=8388608");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
