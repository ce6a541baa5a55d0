//! Helpers shared by the kernel crate's integration tests.
#![allow(dead_code)]

use kernel::{CompileOptions, Kernel, Launch, LaunchFile, Memory, Module, RunOptions};
use std::path::PathBuf;

/// The repository's `kernels/` directory.
pub fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("kernels")
}

/// Every suite kernel's launch file with the compiler of its source:
/// clang for `kernels/`, nvcc for `kernels/nvcc/`, each sorted.
pub fn suite_launches() -> Vec<(PathBuf, kernel::Compiler)> {
    let dir = kernels_dir();
    let mut cases = Vec::new();
    for (sub, compiler) in [("", kernel::Compiler::Clang), ("nvcc", kernel::Compiler::Nvcc)] {
        let mut tomls: Vec<PathBuf> = std::fs::read_dir(dir.join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "toml")).collect();
        tomls.sort();
        cases.extend(tomls.into_iter().map(|t| (t, compiler)));
    }
    cases
}

/// Compile options caching PTX under the target directory.
pub fn compile_opts() -> CompileOptions {
    CompileOptions { cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kernel-ptx")), ..Default::default() }
}

/// Compile a shipped kernel (`kernels/NAME.cu`).
pub fn module(name: &str) -> Module {
    let p = kernels_dir().join(format!("{name}.cu"));
    kernel::load(&p, &compile_opts()).unwrap_or_else(|e| panic!("{e}"))
}

/// A shipped kernel's PTX text.
pub fn ptx(name: &str) -> String {
    kernel::compile_cuda(&kernels_dir().join(format!("{name}.cu")), &compile_opts()).unwrap_or_else(|e| panic!("{e}"))
}

/// A shipped kernel, its launch file bound to it, and the final memory.
pub struct Ran {
    pub module: Module,
    pub launch: Launch,
    pub file: LaunchFile,
    pub memory: Memory,
}

impl Ran {
    pub fn kernel(&self) -> &Kernel {
        &self.module.kernels[0]
    }
    pub fn initial(&self, buf: &str) -> &[u8] {
        self.launch.buffer(&self.launch.memory, buf).unwrap_or_else(|| panic!("no buffer {buf}"))
    }
    pub fn after(&self, buf: &str) -> &[u8] {
        self.launch.buffer(&self.memory, buf).unwrap_or_else(|| panic!("no buffer {buf}"))
    }
    /// Integer argument `i` of the launch file.
    pub fn arg_int(&self, i: usize) -> i64 {
        self.file.spec.args[i].as_integer().expect("integer argument")
    }
    pub fn arg_f32(&self, i: usize) -> f32 {
        let v = &self.file.spec.args[i];
        v.as_float().map(|f| f as f32).or(v.as_integer().map(|i| i as f32)).expect("number argument")
    }
}

pub fn run(name: &str) -> Ran {
    let module = module(name);
    let file = LaunchFile::load(&kernels_dir().join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"));
    let k = module.kernel(name).unwrap_or_else(|e| panic!("{e}"));
    let launch = file.bind(&module, k).unwrap_or_else(|e| panic!("{e}"));
    let r = kernel::run_functional(k, &launch, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    Ran { module, launch, file, memory: r.memory }
}

/// Compile `kernels/DIR/NAME.cu` with `opts`, bind `NAME.toml` beside it
/// and run it on the functional model.
pub fn run_in(dir: &str, name: &str, opts: &CompileOptions) -> Result<(kernel::FunctionalResult, Launch), kernel::RunError> {
    let dir = kernels_dir().join(dir);
    let m = kernel::load(&dir.join(format!("{name}.cu")), opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let k = m.kernel(name).unwrap_or_else(|e| panic!("{e}"));
    let l = LaunchFile::load(&dir.join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}")).bind(&m, k).unwrap_or_else(|e| panic!("{e}"));
    kernel::run_functional(k, &l, &RunOptions::default()).map(|r| (r, l))
}

pub fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}
pub fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}
pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn i32_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Byte-for-byte comparison with the index of the first differing element.
pub fn same(what: &str, got: &[u8], want: &[u8], elem: usize) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        let e = i / elem;
        panic!("{what}: element {e} differs: got {:02x?}, want {:02x?}", &got[e * elem..(e + 1) * elem], &want[e * elem..(e + 1) * elem]);
    }
}
