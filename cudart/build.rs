// The library's dynamic name and symbol versions are NVIDIA's, so that a
// program linked against NVIDIA's libcudart.so.13 loads this one instead.
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/libcudart.map");
    println!("cargo:rerun-if-changed=libcudart.map");
}
