//! NVIDIA's nvcc as the compiler: its math library (`expf`, `logf`,
//! `sinf`, `powf`, inlined as sequences that use `fma.rm.f32`, `ex2.approx`
//! and friends) runs on the functional model within the error bounds the
//! CUDA C Programming Guide gives for each function, against the host's
//! libm in f64. nvcc comes from `make setup` (or CUDA_HOME, WARPFORGE_NVCC,
//! the PATH).

mod common;
use kernel::{CompileOptions, Compiler, LaunchFile, RunOptions};
use std::path::PathBuf;

const MATH: &str = r#"
__global__ void mathk(const float *x, float *e, float *l, float *s, float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  e[i] = expf(x[i]);
  l[i] = logf(x[i] + 1.5f);
  s[i] = sinf(x[i]);
  p[i] = powf(x[i] + 1.5f, 1.3f);
}
"#;

const LAUNCH: &str = "grid = [4]\nblock = [64]\nargs = [\"x\", \"e\", \"l\", \"s\", \"p\"]\n[buffers.x]\ntype = \"f32\"\nlen = 256\ninit = { random = { seed = 3, min = -1.4, max = 4.0 } }\n[buffers.e]\ntype = \"f32\"\nlen = 256\n[buffers.l]\ntype = \"f32\"\nlen = 256\n[buffers.s]\ntype = \"f32\"\nlen = 256\n[buffers.p]\ntype = \"f32\"\nlen = 256\n";

fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i32).abs_diff(b.to_bits() as i32)
}

#[test]
fn nvcc_math_library_within_cudas_error_bounds() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nvcc-math");
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("mathk.cu");
    std::fs::write(&cu, MATH).unwrap();
    let opts = CompileOptions { compiler: Compiler::Nvcc, ..common::compile_opts() };
    let ptx = kernel::compile_cuda(&cu, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(ptx.contains("fma.rm.f32"), "nvcc's expf sequence rounds toward minus infinity");
    let m = kernel::Module::from_ptx(&ptx, "mathk.ptx").unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("mathk").unwrap();
    let l = LaunchFile::parse(LAUNCH, &dir.join("l.toml")).unwrap().bind(&m, k).unwrap();
    let r = kernel::run_functional(k, &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let get = |b: &str| common::f32s(l.buffer(&r.memory, b).unwrap());
    let (x, e, lg, s, p) = (get("x"), get("e"), get("l"), get("s"), get("p"));
    for i in 0..256 {
        let (xi, y) = (x[i] as f64, (x[i] + 1.5) as f64);
        // CUDA C Programming Guide, single-precision functions: maximum ulp error.
        assert!(ulps(e[i], xi.exp() as f32) <= 2, "expf({}) = {}", x[i], e[i]);
        assert!(ulps(lg[i], y.ln() as f32) <= 1, "logf({y}) = {}", lg[i]);
        assert!(ulps(s[i], xi.sin() as f32) <= 2, "sinf({}) = {}", x[i], s[i]);
        assert!(ulps(p[i], y.powf(1.3f32 as f64) as f32) <= 4, "powf({y}, 1.3) = {}", p[i]);
    }
}
