//! Warp-aware trace scheduling (seed 002, `kernel::tsched`): the pass keeps
//! every kernel's results byte for byte — the suite (clang and nvcc), the
//! random kernel generator's programs — under every placement and the
//! block-scheduling ablation; NVIDIA's `ptxas` accepts what it prints; on
//! seed 002's Figure 2 shape the likely side's global loads move into the
//! trace's root predicated on the branch, and nothing moves that may not.

mod common;
use kernel::tsched::{self, Options, Placement, Profile, Scheduled};
use kernel::{CompileOptions, Compiler, LaunchFile, Memory, Module, RunOptions};
use std::path::{Path, PathBuf};

fn work() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tsched")
}

/// Train on the launch (functional model), schedule, and check that the
/// transformed kernel leaves the memory the original leaves.
fn check(ptx: &str, file: &str, launch: &str, launch_path: &Path, opts: &Options) -> Scheduled {
    let m = Module::from_ptx(ptx, file).unwrap_or_else(|e| panic!("{e}"));
    let k = &m.kernels[0];
    let l = LaunchFile::parse(launch, launch_path).unwrap_or_else(|e| panic!("{e}")).bind(&m, k).unwrap_or_else(|e| panic!("{e}"));
    let mut profile = Profile::default();
    tsched::train(k, &l, &RunOptions::default(), &mut profile).unwrap_or_else(|e| panic!("{file}: {e}"));
    let s = tsched::schedule(ptx, file, &profile, opts).unwrap_or_else(|e| panic!("{e}"));
    let m2 = Module::from_ptx(&s.ptx, file).unwrap_or_else(|e| panic!("{file}: the scheduled PTX: {e}"));
    let k2 = m2.kernel(&k.name).unwrap();
    let l2 = LaunchFile::parse(launch, launch_path).unwrap().bind(&m2, k2).unwrap();
    let run = |k, l: &kernel::Launch| -> Memory {
        let mut mem = l.memory.clone();
        kernel::run_on(k, l, &mut mem, &RunOptions::default()).unwrap_or_else(|e| panic!("{file} ({opts:?}): {e}"));
        mem
    };
    let (a, b) = (run(k, &l), run(k2, &l2));
    if let Some(d) = a.difference(&b) {
        panic!("{file} ({opts:?}): the scheduled kernel's memory differs: {d}\n{}", s.kernels.iter().map(|r| r.listing()).collect::<String>());
    }
    s
}

fn variants() -> Vec<Options> {
    let base = Options::default();
    vec![
        base,
        Options { placement: Placement::Earliest, ..base },
        Options { placement: Placement::Bottom, ..base },
        Options { hoist: false, ..base },
        Options { min_prob: 0.0, ..base },
    ]
}

fn ptxas_accepts(ptx: &str, what: &str) -> Vec<(String, u32)> {
    kernel::compile::ptxas(ptx, &work()).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Every suite kernel with a launch file: clang's PTX for `kernels/`,
/// nvcc's for `kernels/nvcc/`.
#[test]
fn suite_keeps_memory_and_ptxas_accepts() {
    let cases = common::suite_launches();
    assert!(cases.len() >= 20, "{} suite kernels", cases.len());
    let mut moved = 0;
    for (toml, compiler) in cases {
        let cu = toml.with_extension("cu");
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let ptx = kernel::compile_cuda(&cu, &opts).unwrap_or_else(|e| panic!("{e}"));
        let launch = std::fs::read_to_string(&toml).unwrap();
        let file = cu.display().to_string();
        // A kernel that calls functions: the pass leaves it, saying why.
        for o in variants() {
            let s = check(&ptx, &file, &launch, &toml, &o);
            for r in &s.kernels {
                assert!(r.unchanged.is_some() || r.moved.len() + r.reordered as usize > 0, "{file}: {}", r.listing());
            }
            if o == Options::default() {
                moved += s.kernels.iter().map(|r| r.moved.len()).sum::<usize>();
                ptxas_accepts(&s.ptx, &file);
            }
        }
    }
    assert!(moved > 100, "only {moved} statements moved over the suite");
}

/// The random kernel generator's programs (clang): identical memory before
/// and after the pass under every variant.
#[test]
fn random_kernels_keep_memory() {
    let n: u64 = std::env::var("WARPFORGE_RANDOM_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let dir = work().join("random");
    let opts = common::compile_opts();
    let (mut changed, mut calls) = (0, 0);
    for seed in 0..n {
        let (g, b) = kernel::gen::build_fitting(seed, &dir, &opts).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // As generated (helpers out of line: the pass is intraprocedural and
        // leaves such kernels alone), and with the helpers inlined.
        let inlined = b.cu_path.with_file_name(format!("{}_inlined.cu", g.stem()));
        std::fs::write(&inlined, g.cuda.replace("__noinline__", "__forceinline__")).unwrap();
        for cu in [&b.cu_path, &inlined] {
            let ptx = kernel::compile_cuda(cu, &opts).unwrap_or_else(|e| panic!("{e}"));
            for o in variants() {
                let s = check(&ptx, &cu.display().to_string(), &g.launch, &b.launch_path, &o);
                changed += s.changed() as usize;
                calls += s.kernels.iter().any(|k| k.unchanged.as_deref().is_some_and(|u| u.contains("calls a function"))) as usize;
            }
        }
    }
    let runs = 2 * n as usize * variants().len();
    assert!(changed * 2 >= runs - calls, "the pass changed {changed} of the {} kernels without calls", runs - calls);
}

/// Seed 002's Figure 2: an if-else whose else side is likely (the flag is
/// set for one thread in ten). The trace runs root -> else side; the else
/// side's global loads move into the root predicated on the branch, its
/// arithmetic speculatively; the then side's shared load and the join's
/// store stay (a shared access is never speculated, a store never moves;
/// the join has two predecessors).
const FIG2: &str = r#"
__global__ void fig2(const float *a, const float *b, const int *flag, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = a[i];
  __syncthreads();
  float v;
  if (flag[i] != 0) {
    v = s[(threadIdx.x + 1) % 256] * 2.0f;
  } else {
    v = a[i] * b[i] + b[(i + 7) % n];
  }
  out[i] = v;
}
"#;

fn fig2_launch(seed: u64) -> String {
    format!(
        "grid = [4]\nblock = [256]\nargs = [\"a\", \"b\", \"flag\", \"out\", 1024]\n\
         [buffers.a]\ntype = \"f32\"\nlen = 1024\ninit = {{ random = {{ seed = {seed}, min = -1.0, max = 1.0 }} }}\n\
         [buffers.b]\ntype = \"f32\"\nlen = 1024\ninit = {{ random = {{ seed = {}, min = -1.0, max = 1.0 }} }}\n\
         [buffers.flag]\ntype = \"i32\"\nlen = 1024\ninit = {{ values = [{}] }}\n\
         [buffers.out]\ntype = \"f32\"\nlen = 1024\n",
        seed + 1,
        (0..1024).map(|i| if (i * 7 + seed as usize).is_multiple_of(10) { "1" } else { "0" }).collect::<Vec<_>>().join(", ")
    )
}

#[test]
fn figure2_likely_side_moves_up() {
    let dir = work().join("fig2");
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("fig2.cu");
    std::fs::write(&cu, FIG2).unwrap();
    let ptx = kernel::compile_cuda(&cu, &CompileOptions { compiler: Compiler::Nvcc, ..common::compile_opts() }).unwrap_or_else(|e| panic!("{e}"));
    let launch = fig2_launch(3);
    let s = check(&ptx, "fig2.ptx", &launch, &dir.join("fig2.toml"), &Options::default());
    let r = &s.kernels[0];
    let listing = r.listing();
    assert!(r.unchanged.is_none(), "{listing}");
    let loads: Vec<_> = r.moved.iter().filter(|m| m.load).collect();
    assert_eq!(loads.len(), 3, "a[i], b[i], b[(i + 7) % n] move up:\n{listing}");
    assert!(loads.iter().all(|m| m.guard.is_some() && m.text.contains("ld.global")), "predicated on the branch:\n{listing}");
    assert!(r.moved.iter().all(|m| !m.text.contains("st.") && !m.text.contains(".shared") && !m.text.contains("bar.")), "{listing}");
    let moved_into_root = r.moved.iter().filter(|m| m.to == r.traces[0].blocks[0]).count();
    assert!(moved_into_root >= 3, "{listing}");
    // The predicated loads sit in the root before its branch, in the
    // printed PTX as ptxas reads it.
    let regs = ptxas_accepts(&s.ptx, "fig2");
    assert_eq!(regs.len(), 1);
    for m in &loads {
        let g = m.guard.as_ref().unwrap();
        assert!(s.ptx.lines().any(|l| l.trim_start().starts_with(&format!("{g} ld.global"))), "{g} ld.global in\n{}", s.ptx);
    }
    // A different training input (another flag pattern and data) gives the
    // same traces: the pass reads probabilities, not the data.
    let other = check(&ptx, "fig2.ptx", &fig2_launch(8), &dir.join("fig2.toml"), &Options::default());
    assert_eq!(other.kernels[0].traces, r.traces);
}

#[test]
fn unprofiled_and_bad_profiles_are_reported() {
    let ptx = common::ptx("vecadd");
    let s = tsched::schedule(&ptx, "vecadd.ptx", &Profile::default(), &Options::default()).unwrap();
    assert_eq!(s.ptx, ptx, "an unprofiled kernel stays as written");
    assert!(s.kernels[0].unchanged.as_deref().unwrap().contains("not in the profile"), "{:?}", s.kernels[0]);
    let dir = work();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad-profile.json");
    std::fs::write(&p, "{\"kernels\": 3}").unwrap();
    let e = Profile::load(&p).unwrap_err();
    assert!(e.contains("bad-profile.json") && e.contains("not a branch profile"), "{e}");
    let e = Profile::load(&dir.join("missing.json")).unwrap_err();
    assert!(e.contains("missing.json"), "{e}");
}

/// nvcc writes double-precision `exp` with nested scopes (`{ .reg .b32
/// %temp; mov.b64 {%r, %temp}, %fd; }`): each stays one fixed statement,
/// the rest moves around it, the results stay.
#[test]
fn nvcc_scopes_stay_whole() {
    let dir = work().join("scopes");
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("scopes.cu");
    std::fs::write(
        &cu,
        "__global__ void scopes(const double *x, const double *y, double *out, int n) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         if (i < n) { double a = exp(x[i]) * y[i]; if (a > 1.5) a = exp(a - y[(i + 3) % n]); out[i] = a; }\n}\n",
    )
    .unwrap();
    let ptx = kernel::compile_cuda(&cu, &CompileOptions { compiler: Compiler::Nvcc, ..common::compile_opts() }).unwrap_or_else(|e| panic!("{e}"));
    assert!(ptx.contains(".reg .b32 %temp;"), "nvcc's exp has its nested scopes");
    let launch = "grid = [2]\nblock = [128]\nargs = [\"x\", \"y\", \"out\", 200]\n\
        [buffers.x]\ntype = \"f64\"\nlen = 256\ninit = { random = { seed = 1, min = -2.0, max = 2.0 } }\n\
        [buffers.y]\ntype = \"f64\"\nlen = 256\ninit = { random = { seed = 2, min = 0.0, max = 3.0 } }\n\
        [buffers.out]\ntype = \"f64\"\nlen = 256\n";
    for o in variants() {
        let s = check(&ptx, "scopes.ptx", launch, &dir.join("scopes.toml"), &o);
        assert!(s.changed(), "{o:?}: {}", s.kernels[0].listing());
        if o == Options::default() {
            assert!(!s.kernels[0].moved.is_empty(), "{}", s.kernels[0].listing());
            ptxas_accepts(&s.ptx, "scopes");
        }
    }
}
