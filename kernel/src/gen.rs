//! A seeded random CUDA-kernel generator for differential testing: from a
//! `u64` seed, a CUDA C kernel (compiled by clang like any other `.cu`) and
//! its launch file.
//!
//! Every generated kernel is deterministic under any legal interleaving of
//! its warps and CTAs, so any two correct executions (the functional model,
//! the timing SM under any configuration) leave byte-identical memory:
//!
//! - each thread stores only to its own output slots (`oi`/`of`, indexed by
//!   its global id) and reads them back only itself;
//! - input buffers (`gi`, `gf`, the index array `ix`) are read-only;
//! - global and shared counters are changed only by integer `atomicAdd`,
//!   `atomicMax` or `atomicMin`, each region of a counter array by one
//!   operation only (so all updates commute), and atomics' return values are
//!   never used;
//! - shared memory lives in epochs between barriers: in each barrier-free
//!   *body* a shared array is either written (each thread its own slots) or
//!   read (any slot), never both, and every body starts after a barrier, so
//!   cross-thread reads only see values written before the last barrier;
//! - `__syncthreads()` appears only in CTA-uniform control flow (top level,
//!   or inside `if`s and loops whose conditions depend only on the block
//!   index, the parameters, constants and loads from CTA-uniform addresses);
//! - threads `return` early only after the last barrier, except whole warps
//!   right after the prologue (exited warps do not count at a barrier: the
//!   functional model's and GPGPU-Sim's rule);
//! - shared arrays are `volatile` or in `extern __shared__` memory, so that
//!   clang-14 does not move their loads across barriers (see `run`);
//! - no undefined behaviour in C: unsigned integer arithmetic, shift counts
//!   masked, divisors forced odd, floats clamped before conversion to int,
//!   every index reduced modulo its array's length.
//!
//! What varies with the seed: block shape (1-D or 2-D, partial last warps,
//! 1 to 256 threads), grid (1-D or 2-D, 1 to 15 CTAs), counted loops (nested,
//! constant or data-dependent trip counts, `break`/`continue`), `do`/`while`
//! loops, `if`/`else` on thread indices and on loaded data, nested branches,
//! short-circuit conditions, early `return`s, a bounds guard with a partial
//! last CTA, shared int/float arrays with strided (bank-conflicting) or
//! interleaved slots, shared counters, barriers in uniform `if`s and loops,
//! global loads with strides and through an index array, stores in
//! array-of-structures or structure-of-arrays layout, float `+ - * /`,
//! `fmaf`, `fminf`/`fmaxf`, `sqrtf`, int/float conversions; from a second
//! random stream (so that each seed's structure does not depend on them):
//! directed rounding (`__fadd_rd`, `__fmul_ru`, `__fmaf_rz`, `__fsqrt_rd`,
//! ...), warp-level functions of expressions (`__shfl_sync`,
//! `__shfl_down_sync`, `__shfl_xor_sync`, `__shfl_up_sync` with a width,
//! `__ballot_sync`, `__any_sync`, `__all_sync`, `__uni_sync`, all over
//! `__activemask()`; a shuffle whose source lane does not execute keeps the
//! lane's own value, since reading such a lane is undefined), calls of out-of-line `__noinline__` helpers (`call`
//! with `.param` passing, an early return in divergent code), round trips
//! through half precision (`__hadd`, `__hmul`, `__hsub`, `__hfma`: PTX
//! `cvt` to and from `.f16`), a texture over `gf` (`tex1Dfetch` with
//! coordinates partly outside, or `tex2D` with point or linear filtering
//! under each address mode) and named barriers (`bar.sync k`, k < 16, for
//! some of the CTA barriers).
//!
//! Kernels stay small (a budget of dynamic statements per thread), so the
//! functional model runs one in milliseconds.

use crate::compile::{compile_cuda, CompileOptions};
use crate::error::{AllocError, KernelError};
use crate::kernel::{Kernel, Module};
use crate::launch::{Launch, LaunchFile};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The generated kernel's entry name.
pub const KERNEL_NAME: &str = "random_kernel";

/// Every feature name [`Generated::features`] can hold.
pub const FEATURES: &[&str] = &[
    "atomic-global",
    "atomic-shared",
    "barrier",
    "barrier-in-if",
    "barrier-in-loop",
    "block-2d",
    "bounds-guard",
    "break-continue",
    "data-trip-count",
    "device-call",
    "directed-rounding",
    "divergence-data",
    "divergence-tid",
    "do-while",
    "early-return",
    "float",
    "grid-2d",
    "half",
    "indirect-load",
    "loop",
    "multi-cta",
    "named-barrier",
    "nested-if",
    "nested-loop",
    "partial-warp",
    "shared",
    "shared-cross-read",
    "shared-dynamic",
    "shared-interleaved",
    "shared-strided",
    "shared-volatile",
    "short-circuit",
    "strided-load",
    "texture",
    "warp-exit-before-barrier",
    "warp-intrinsics",
];

/// A generated kernel and its launch.
#[derive(Clone, Debug)]
pub struct Generated {
    pub seed: u64,
    /// Size class (0 = full; see [`generate_sized`]).
    pub size: u32,
    /// CUDA C source (the project's prelude is force-included by the compiler).
    pub cuda: String,
    /// The launch file (TOML); its buffers are initialised with seeded `random`.
    pub launch: String,
    /// Features this kernel uses (for coverage reports), e.g. `"barrier-in-loop"`.
    pub features: BTreeSet<&'static str>,
}

/// A generated kernel compiled and its launch bound.
pub struct Built {
    pub module: Module,
    pub kernel: Kernel,
    pub launch: Launch,
    /// Where the `.cu` and launch files were written.
    pub cu_path: PathBuf,
    pub launch_path: PathBuf,
}

impl Generated {
    /// File stem of this seed's files: `random_<seed>` (`random_<seed>_s<size>` in a smaller size class).
    pub fn stem(&self) -> String {
        match self.size {
            0 => format!("random_{}", self.seed),
            s => format!("random_{}_s{s}", self.seed),
        }
    }

    /// Write `DIR/random_<seed>.cu` and `DIR/random_<seed>.toml`.
    pub fn write(&self, dir: &Path) -> std::io::Result<(PathBuf, PathBuf)> {
        std::fs::create_dir_all(dir)?;
        let cu = dir.join(format!("{}.cu", self.stem()));
        let toml = dir.join(format!("{}.toml", self.stem()));
        std::fs::write(&cu, &self.cuda)?;
        std::fs::write(&toml, &self.launch)?;
        Ok((cu, toml))
    }

    /// Write the files to `dir`, compile with clang and bind the launch.
    pub fn build(&self, dir: &Path, opts: &CompileOptions) -> Result<Built, KernelError> {
        let (cu_path, launch_path) = self.write(dir).map_err(|err| KernelError::Io { path: dir.into(), err })?;
        let ptx = compile_cuda(&cu_path, opts)?;
        let module = Module::from_ptx(&ptx, &format!("{} (PTX from clang)", cu_path.display()))?;
        let kernel = module.kernel(KERNEL_NAME)?.clone();
        let launch = LaunchFile::parse(&self.launch, &launch_path)?.bind(&module, &kernel)?;
        Ok(Built { module, kernel, launch, cu_path, launch_path })
    }
}

/// Generate the kernel and launch of `seed` (full size).
pub fn generate(seed: u64) -> Generated {
    generate_sized(seed, 0)
}

/// Size classes: 0 is the full generator; each further class writes smaller
/// bodies and shallower expressions.
pub const SIZES: u32 = 3;

/// Generate the kernel of `seed` in size class `size` (`0..SIZES`).
pub fn generate_sized(seed: u64, size: u32) -> Generated {
    Gen::new(seed, size.min(SIZES - 1)).run()
}

/// Generate and build the kernel of `seed`: the full size, or, when clang's
/// code needs more than the 63 architected registers or 7 predicates (the
/// allocator does not spill), the same seed in the next smaller size class.
/// Any other error (and too many registers in the smallest class) is
/// returned.
pub fn build_fitting(seed: u64, dir: &Path, opts: &CompileOptions) -> Result<(Generated, Built), KernelError> {
    let mut size = 0;
    loop {
        let g = generate_sized(seed, size);
        match g.build(dir, opts) {
            Err(KernelError::Alloc(AllocError::TooManyRegs { .. } | AllocError::TooManyPreds { .. })) if size + 1 < SIZES => size += 1,
            r => return r.map(|b| (g, b)),
        }
    }
}

/// How a barrier-free body uses a shared array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    /// Not declared, or not touched in this body.
    None,
    /// Each thread writes (and may read back) only its own slots.
    Write,
    /// Any thread reads any slot; nobody writes.
    Read,
    /// Shared counters: integer atomics only (no reads).
    Atomic,
}

/// Context of a statement inside a body.
#[derive(Clone, Copy)]
struct Ctx {
    depth: u32,
    /// Inside a `for` (break/continue allowed).
    in_for: bool,
    /// After the last barrier (early return allowed).
    may_return: bool,
}

/// Largest dynamic statements per thread (weighted by enclosing trip
/// counts), per size class.
const BUDGET: [i64; SIZES as usize] = [160, 100, 60];
/// Depth of an assigned expression, per size class.
const DEPTH: [u32; SIZES as usize] = [3, 2, 2];
/// Chance that an expression node is a leaf, per size class.
const LEAF: [f64; SIZES as usize] = [0.3, 0.4, 0.5];
/// Counters per region (add, max, min) of `cnt` and `sc`.
const NC: u32 = 4;

struct Gen {
    rng: ChaCha8Rng,
    /// A second stream for the warp-level and directed-rounding wrappers,
    /// so that adding them left every seed's kernel structure as it was.
    ext: ChaCha8Rng,
    seed: u64,
    size: u32,
    out: String,
    indent: usize,
    features: BTreeSet<&'static str>,
    // Launch shape.
    block: [u32; 2],
    grid: [u32; 2],
    bs: u32,
    total: u32,
    /// Threads that do work (`n`); less than `total` only with the bounds guard.
    n: u32,
    p: u32,
    // Buffers.
    ni: u32,
    nf: u32,
    nx: u32,
    ki: u32,
    kf: u32,
    soa: bool,
    // Variables.
    nvi: u32,
    nvf: u32,
    /// Extra integer leaves in scope (loop counters), and which are CTA-uniform.
    scope: Vec<(String, bool)>,
    next_var: u32,
    // Shared memory: `si[bs * ss]` (0 = none), `sf[bs]`, `sc[3 * NC]`.
    ss: u32,
    si_strided: bool,
    /// Shared arrays in `extern __shared__` memory (else `volatile` static arrays).
    dyn_shared: bool,
    /// Dynamic shared bytes per CTA (the launch's `shared_bytes`).
    shared_bytes: u32,
    has_sf: bool,
    has_sc: bool,
    use_si: Use,
    use_sf: Use,
    use_sc: Use,
    budget: i64,
    mult: i64,
    /// Out-of-line helpers called (`wf_mix`, `wf_blend`).
    calls: [bool; 2],
    /// The shuffle helpers are used.
    shuffles: bool,
    /// A texture over `gf` (`tf`): 0 none, 1 `tex1Dfetch`, 2 `tex2D`.
    tex: u8,
    /// `tex2D`'s width, filter and address mode.
    tex2d: (u32, &'static str, &'static str),
}

impl Gen {
    fn new(seed: u64, size: u32) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_6e4e_7261_7465 ^ (size as u64) << 56),
            ext: ChaCha8Rng::seed_from_u64(seed ^ 0x7761_7270_5f6f_7073 ^ (size as u64) << 56),
            seed,
            size,
            out: String::new(),
            indent: 0,
            features: BTreeSet::new(),
            block: [1, 1],
            grid: [1, 1],
            bs: 1,
            total: 1,
            n: 1,
            p: 0,
            ni: 1,
            nf: 1,
            nx: 1,
            ki: 1,
            kf: 1,
            soa: false,
            nvi: 1,
            nvf: 1,
            scope: Vec::new(),
            next_var: 0,
            ss: 0,
            si_strided: false,
            dyn_shared: false,
            shared_bytes: 0,
            has_sf: false,
            has_sc: false,
            use_si: Use::None,
            use_sf: Use::None,
            use_sc: Use::None,
            budget: BUDGET[size as usize],
            mult: 1,
            calls: [false; 2],
            shuffles: false,
            tex: 0,
            tex2d: (16, "point", "clamp"),
        }
    }

    // ---- random helpers ---------------------------------------------------

    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        self.rng.random_range(lo..=hi)
    }
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.random_range(0..xs.len())]
    }
    /// Index by weights.
    fn weighted(&mut self, w: &[u32]) -> usize {
        let total: u32 = w.iter().sum();
        let mut x = self.rng.random_range(0..total);
        for (i, &wi) in w.iter().enumerate() {
            if x < wi {
                return i;
            }
            x -= wi;
        }
        w.len() - 1
    }
    fn fresh(&mut self, prefix: &str) -> String {
        self.next_var += 1;
        format!("{prefix}{}", self.next_var)
    }
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
    fn spend(&mut self) {
        self.budget -= self.mult;
    }

    // ---- the whole kernel ---------------------------------------------------

    fn run(mut self) -> Generated {
        self.shape();
        // A texture over `gf` (second stream).
        self.tex = [0, 0, 1, 2][self.ext.random_range(0..4usize)];
        if self.tex == 2 {
            self.tex2d = (
                *[8u32, 16, 32].get(self.ext.random_range(0..3usize)).unwrap_or(&16),
                ["point", "linear"][self.ext.random_range(0..2usize)],
                ["clamp", "wrap", "mirror", "border"][self.ext.random_range(0..4usize)],
            );
        }
        let has_stages = self.chance(0.7);
        // The bounds guard (`if (gid >= n) return;` at the top) is legal only
        // in a kernel without barriers.
        let guard = !has_stages && self.chance(0.4) && self.total > 1;
        self.n = if guard { self.range(1, self.total - 1).max(self.total - self.bs) } else { self.total };
        self.p = self.range(0, 100);
        self.ni = *self.pick(&[64, 500, 1024, 4096, 12000]);
        self.nf = *self.pick(&[64, 256, 1000, 8192]);
        self.nx = *self.pick(&[32, 256, 1000]);
        self.ki = self.range(1, 3);
        self.kf = self.range(1, 2);
        self.soa = self.chance(0.5);
        self.nvi = self.range(2, 5);
        self.nvf = self.range(1, 3);
        self.ss = if self.chance(0.6) { *self.pick(&[1, 1, 2, 4]) } else { 0 };
        self.si_strided = self.ss > 1 && self.chance(0.5);
        self.has_sf = self.chance(0.4);
        // Shared counters need a barrier between their initialisation and
        // the first atomic.
        self.has_sc = has_stages && self.chance(0.5);
        self.dyn_shared = self.chance(0.5);

        let header = self.header();
        self.out = header;
        self.indent = 1;
        if self.ss > 0 || self.has_sf || self.has_sc {
            self.features.insert("shared");
        }
        // clang-14 (LLVM's GlobalsAA) assumes `__syncthreads()` leaves a
        // static `__shared__` array whose address never escapes unchanged, and
        // moves loads of it across the barrier (a known LLVM bug; seed 1283
        // loaded `sf[2]` before the barrier that orders it after its store).
        // Shared arrays are therefore `volatile` static arrays or carved out
        // of `extern __shared__` dynamic shared memory, the two ways CUDA
        // code keeps such loads in place.
        if self.ss > 1 {
            self.features.insert(if self.si_strided { "shared-strided" } else { "shared-interleaved" });
        }
        let words =
            [(self.ss > 0, "int", "si", self.bs * self.ss), (self.has_sf, "float", "sf", self.bs), (self.has_sc, "int", "sc", 3 * NC)];
        if self.dyn_shared {
            self.features.insert("shared-dynamic");
            self.line("extern __shared__ int smem[];");
            let mut off = 0;
            for (used, ty, name, n) in words {
                if used {
                    self.line(&format!("{ty} *{name} = ({ty} *)(smem + {off});"));
                    off += n;
                }
            }
            self.shared_bytes = off * 4;
        } else if self.ss > 0 || self.has_sf || self.has_sc {
            self.features.insert("shared-volatile");
            for (used, ty, name, n) in words {
                if used {
                    self.line(&format!("__shared__ volatile {ty} {name}[{n}];"));
                }
            }
        }
        if self.block[1] > 1 {
            self.line("const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;");
        } else {
            self.line("const unsigned tid = threadIdx.x;");
        }
        if self.grid[1] > 1 {
            self.line("const unsigned bid = blockIdx.y * gridDim.x + blockIdx.x;");
        } else {
            self.line("const unsigned bid = blockIdx.x;");
        }
        self.line(&format!("const unsigned gid = bid * {}u + tid;", self.bs));
        if guard {
            self.features.insert("bounds-guard");
            self.line("if (gid >= n) return;");
        }
        for i in 0..self.nvi {
            let init = match self.range(0, 3) {
                0 => format!("(unsigned)gi[(gid * {}u + {}u) % {}u]", self.range(1, 5), self.range(0, 50), self.ni),
                1 => format!("tid * {}u + p", self.range(1, 9)),
                2 => format!("gid ^ {}u", self.range(0, 255)),
                _ => format!("(unsigned)ix[gid % {}u]", self.nx),
            };
            self.line(&format!("unsigned a{i} = {init};"));
        }
        for i in 0..self.nvf {
            let init = match self.range(0, 2) {
                0 => format!("gf[(gid + {}u) % {}u]", self.range(0, 99), self.nf),
                1 => format!("(float)(int)(tid % 17u) * {}", self.fconst()),
                _ => self.fconst(),
            };
            self.line(&format!("float f{i} = {init};"));
        }
        // Prologue: own shared slots written, counters initialised (no
        // atomics until after a barrier).
        // (Nothing reads shared memory before it is initialised.)
        self.use_si = Use::None;
        self.use_sf = Use::None;
        self.use_sc = Use::None;
        for j in 0..self.ss {
            let slot = self.si_own(j);
            let e = self.iexpr(1);
            self.line(&format!("si[{slot}] = (int)({e});"));
        }
        if self.has_sf {
            let e = self.fexpr(1);
            self.line(&format!("sf[tid] = {e};"));
        }
        if self.has_sc {
            // Sums start small, maxima low, minima high.
            let (x, y, z) = (self.range(0, 10), self.range(0, 1000), self.range(1000, 100000));
            self.line(&format!(
                "for (unsigned i = tid; i < {}u; i += {}u) sc[i] = i < {NC}u ? (int)(i * {x}u) : i < {}u ? -(int)(i * {y}u) : (int)(i * {z}u);",
                3 * NC,
                self.bs,
                2 * NC
            ));
        }
        // A whole warp may leave before the barriers (its shared slots are
        // written above): exited warps do not count at a barrier.
        let warps = self.bs.div_ceil(32);
        if has_stages && warps >= 2 && self.chance(0.25) {
            self.features.insert("warp-exit-before-barrier");
            let w = self.range(0, warps - 1);
            self.line(&format!("if ((tid >> 5) == {w}u) return;"));
        }
        self.use_si = if self.ss > 0 { Use::Write } else { Use::None };
        self.use_sf = if self.has_sf { Use::Write } else { Use::None };
        let ctx = Ctx { depth: 0, in_for: false, may_return: !has_stages };
        let n = self.range(2, 5);
        self.block_stmts(ctx, n);
        if has_stages {
            self.features.insert("barrier");
            let n = self.range(1, 3);
            for _ in 0..n {
                self.stage_or_group(0);
            }
            // Epilogue: after the last barrier; threads may return early.
            self.barrier();
            self.choose_uses();
            let n = self.range(2, 5);
            self.block_stmts(Ctx { depth: 0, in_for: false, may_return: true }, n);
        }
        // Every thread's variables end in its own slots.
        for i in 0..self.nvi {
            let slot = self.oslot(i % self.ki, self.ki);
            self.line(&format!("oi[{slot}] += (int)a{i};"));
        }
        for i in 0..self.nvf {
            let slot = self.oslot(i % self.kf, self.kf);
            self.line(&format!("of[{slot}] = of[{slot}] * 0.5f + f{i};"));
        }
        self.indent = 0;
        self.line("}");
        self.out = self.helpers() + &self.out;
        let launch = self.launch_file();
        Generated {
            seed: self.seed,
            size: self.size,
            cuda: std::mem::take(&mut self.out),
            launch,
            features: std::mem::take(&mut self.features),
        }
    }

    fn shape(&mut self) {
        if self.chance(0.35) {
            let bx = *self.pick(&[4, 8, 16, 32, 5, 12, 33]);
            let by = self.range(2, (256 / bx).min(8));
            self.block = [bx, by];
            self.features.insert("block-2d");
        } else {
            self.block = [*self.pick(&[1, 7, 32, 33, 64, 96, 100, 128, 160, 250, 256]), 1];
        }
        // Small blocks get more CTAs: more than the SM's CTA slots, so CTAs
        // start as others finish.
        let small = self.block[0] * self.block[1] <= 64;
        self.grid = if self.chance(0.25) {
            self.features.insert("grid-2d");
            [self.range(2, 3), self.range(2, if small { 5 } else { 3 })]
        } else {
            [self.range(1, if small { 12 } else { 6 }), 1]
        };
        self.bs = self.block[0] * self.block[1];
        self.total = self.bs * self.grid[0] * self.grid[1];
        if !self.bs.is_multiple_of(32) {
            self.features.insert("partial-warp");
        }
        if self.grid[0] * self.grid[1] > 1 {
            self.features.insert("multi-cta");
        }
    }

    /// A CTA barrier: `__syncthreads()`, or (second stream) a named
    /// barrier of the whole CTA, `bar.sync k` (the same semantics under
    /// another of the 16 barriers).
    fn barrier(&mut self) {
        if self.ext.random_bool(0.3) {
            self.features.insert("named-barrier");
            let k = self.ext.random_range(0..16u32);
            self.line(&format!("asm volatile(\"bar.sync {k};\" ::: \"memory\");"));
        } else {
            self.line("__syncthreads();");
        }
    }

    /// The out-of-line device functions the kernel calls (`call` with
    /// `.param` passing; pure functions of their arguments, an early
    /// return in divergent code).
    fn helpers(&self) -> String {
        let mut s = String::new();
        if self.shuffles {
            // Reading a lane that does not execute is undefined in CUDA
            // (its register may hold anything: seed 1054 read an atomic's
            // old value there): a lane whose source lane does not execute
            // keeps its own value.
            s += "__device__ __forceinline__ unsigned wf_lane() { unsigned l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); return l; }\n";
            s += "__device__ __forceinline__ unsigned wf_shfl_idx(unsigned v, unsigned src) { unsigned m = __activemask(); unsigned r = __shfl_sync(m, v, src); return (m >> (src & 31u)) & 1u ? r : v; }\n";
            s += "__device__ __forceinline__ unsigned wf_shfl_down(unsigned v, unsigned d) { unsigned m = __activemask(); unsigned r = __shfl_down_sync(m, v, d); unsigned l = wf_lane() + d; return l < 32u && (m >> l) & 1u ? r : v; }\n";
            s += "__device__ __forceinline__ unsigned wf_shfl_xor(unsigned v, unsigned d) { unsigned m = __activemask(); unsigned r = __shfl_xor_sync(m, v, d); return (m >> ((wf_lane() ^ d) & 31u)) & 1u ? r : v; }\n";
            s += "__device__ __forceinline__ unsigned wf_shfl_up(unsigned v, unsigned d, unsigned w) { unsigned m = __activemask(); unsigned r = __shfl_up_sync(m, v, d, w); unsigned l = wf_lane(); return l % w >= d && (m >> (l - d)) & 1u ? r : v; }\n";
        }
        if self.calls[0] {
            s += "__device__ __noinline__ unsigned wf_mix(unsigned a, unsigned b) {\n  if (a & 1u) return (a * 2654435761u) ^ b;\n  for (unsigned i = 0; i < (b & 3u); i++) a = ((a << 3) ^ (a >> 2)) + i;\n  return a + b;\n}\n";
        }
        if self.calls[1] {
            s += "__device__ __noinline__ float wf_blend(float x, float y) { return x > y ? fmaf(x, 0.5f, y) : y - x * 0.25f; }\n";
        }
        s
    }

    fn header(&mut self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "// warpforge random kernel, seed {} size {} (kernel::gen). Deterministic under any", self.seed, self.size);
        let _ = writeln!(s, "// interleaving: own output slots, read-only inputs, commutative integer");
        let _ = writeln!(s, "// atomics, shared memory read only after a barrier, barriers in CTA-uniform code.");
        let _ = writeln!(
            s,
            "__global__ void {KERNEL_NAME}(const int *gi, const float *gf, const int *ix, int *oi, float *of, int *cnt, unsigned n, unsigned p{}) {{",
            if self.tex > 0 { ", cudaTextureObject_t tf" } else { "" }
        );
        s
    }

    fn launch_file(&mut self) -> String {
        let total = self.total as u64;
        let mut s = String::new();
        let _ = writeln!(s, "# warpforge random kernel, seed {} size {}: launch (buffers from seeded random data).", self.seed, self.size);
        if self.grid[1] > 1 {
            let _ = writeln!(s, "grid = [{}, {}]", self.grid[0], self.grid[1]);
        } else {
            let _ = writeln!(s, "grid = [{}]", self.grid[0]);
        }
        if self.block[1] > 1 {
            let _ = writeln!(s, "block = [{}, {}]", self.block[0], self.block[1]);
        } else {
            let _ = writeln!(s, "block = [{}]", self.block[0]);
        }
        let tf = if self.tex > 0 { ", { texture = \"tf\" }" } else { "" };
        let _ = writeln!(s, "args = [\"gi\", \"gf\", \"ix\", \"oi\", \"of\", \"cnt\", {}, {}{tf}]", self.n, self.p);
        if self.shared_bytes > 0 {
            let _ = writeln!(s, "shared_bytes = {}", self.shared_bytes);
        }
        let wide = self.chance(0.3);
        let bufs: [(&str, &str, u64, String, String); 6] = [
            (
                "gi",
                "i32",
                self.ni as u64,
                if wide { "-2000000000".into() } else { "-1000".into() },
                if wide { "2000000000".into() } else { "1000".into() },
            ),
            ("gf", "f32", self.nf as u64, "-4.0".into(), "4.0".into()),
            ("ix", "i32", self.nx as u64, "0".into(), (self.ni - 1).to_string()),
            ("oi", "i32", total * self.ki as u64, "-100".into(), "100".into()),
            ("of", "f32", total * self.kf as u64, "-1.0".into(), "1.0".into()),
            ("cnt", "i32", 3 * NC as u64, "-50".into(), "50".into()),
        ];
        for (name, ty, len, min, max) in bufs {
            let seed = self.rng.random::<u32>();
            let _ = writeln!(
                s,
                "\n[buffers.{name}]\ntype = \"{ty}\"\nlen = {len}\ninit = {{ random = {{ seed = {seed}, min = {min}, max = {max} }} }}"
            );
        }
        match self.tex {
            1 => s += "\n[textures.tf]\nbuffer = \"gf\"\n",
            2 => {
                let (w, filter, address) = self.tex2d;
                let _ = write!(s, "\n[textures.tf]\nbuffer = \"gf\"\nwidth = {w}\nheight = {}\nfilter = \"{filter}\"\naddress = \"{address}\"\n", self.nf / w);
            }
            _ => {}
        }
        s
    }

    // ---- barrier stages (CTA-uniform control flow) ---------------------------

    /// A barrier followed by a body, or a uniform `if`/loop around stages.
    fn stage_or_group(&mut self, depth: u32) {
        if self.budget <= 0 {
            return;
        }
        match if depth >= 2 { 0 } else { self.weighted(&[5, 2, 2]) } {
            0 => {
                self.barrier();
                self.choose_uses();
                let n = self.range(1, 4);
                self.block_stmts(Ctx { depth: 0, in_for: false, may_return: false }, n);
            }
            1 => {
                self.features.insert("barrier-in-if");
                let c = self.ucond();
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                let n = self.range(1, 2);
                for _ in 0..n {
                    self.stage_or_group(depth + 1);
                }
                self.indent -= 1;
                if self.chance(0.5) {
                    self.line("} else {");
                    self.indent += 1;
                    self.stage_or_group(depth + 1);
                    self.indent -= 1;
                }
                self.line("}");
            }
            _ => {
                self.features.insert("barrier-in-loop");
                let v = self.fresh("u");
                let (bound, max) = self.ubound();
                self.line(&format!("for (unsigned {v} = 0; {v} < {bound}; ++{v}) {{"));
                self.indent += 1;
                self.scope.push((v, true));
                let saved = self.mult;
                self.mult *= max as i64;
                let n = self.range(1, 2);
                for _ in 0..n {
                    self.stage_or_group(depth + 1);
                }
                self.mult = saved;
                self.scope.pop();
                self.indent -= 1;
                self.line("}");
            }
        }
    }

    /// How the next body uses each shared array.
    fn choose_uses(&mut self) {
        self.use_si = if self.ss == 0 {
            Use::None
        } else if self.chance(0.5) {
            Use::Write
        } else {
            Use::Read
        };
        self.use_sf = if !self.has_sf {
            Use::None
        } else if self.chance(0.5) {
            Use::Write
        } else {
            Use::Read
        };
        self.use_sc = if !self.has_sc {
            Use::None
        } else if self.chance(0.6) {
            Use::Atomic
        } else {
            Use::Read
        };
    }

    /// A CTA-uniform trip count and its maximum.
    fn ubound(&mut self) -> (String, u32) {
        match self.range(0, 3) {
            0 => {
                let c = self.range(1, 3);
                (format!("{c}u"), c)
            }
            1 => ("(bid % 3u) + 1u".to_string(), 3),
            2 => ("(p + bid) % 2u + 1u".to_string(), 2),
            _ => (format!("((unsigned)gi[(bid * 7u + {}u) % {}u] & 1u) + 1u", self.range(0, 9), self.ni), 2),
        }
    }

    /// A CTA-uniform condition.
    fn ucond(&mut self) -> String {
        let uvars: Vec<String> = self.scope.iter().filter(|(_, u)| *u).map(|(v, _)| v.clone()).collect();
        let k = if uvars.is_empty() { self.range(0, 3) } else { self.range(0, 4) };
        match k {
            0 => format!("(bid & 1u) == {}u", self.range(0, 1)),
            1 => format!("bid < {}u", self.range(1, 4)),
            2 => format!("p > {}u", self.range(0, 100)),
            3 => format!("((unsigned)gi[(bid + {}u) % {}u] & 3u) != 0u", self.range(0, 20), self.ni),
            _ => format!("{} == {}u", self.pick(&uvars).clone(), self.range(0, 1)),
        }
    }

    // ---- bodies (no barriers) ------------------------------------------------

    fn block_stmts(&mut self, ctx: Ctx, n: u32) {
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.stmt(ctx);
        }
    }

    fn stmt(&mut self, ctx: Ctx) {
        // Compound statements get rarer with depth.
        let nest = if ctx.depth >= 4 { 0 } else { 6u32.saturating_sub(ctx.depth) };
        let shared_w = self.use_si == Use::Write || self.use_sf == Use::Write;
        let weights = [
            8,                                              // 0 int assignment
            5,                                              // 1 float assignment
            3,                                              // 2 global store to an own slot
            2,                                              // 3 global atomic
            if shared_w { 4 } else { 0 },                   // 4 shared write (own slot)
            if self.use_sc == Use::Atomic { 4 } else { 0 }, // 5 shared atomic
            if self.use_sc == Use::Read { 2 } else { 0 },   // 6 flush shared counters to global
            nest * 2,                                       // 7 if / if-else
            nest,                                           // 8 counted loop
            nest / 2,                                       // 9 do-while loop
            if ctx.may_return { 2 } else { 0 },             // 10 early return
            if ctx.in_for { 3 } else { 0 },                 // 11 break / continue
        ];
        match self.weighted(&weights) {
            0 => {
                self.spend();
                let v = format!("a{}", self.range(0, self.nvi - 1));
                let e = self.iexpr(DEPTH[self.size as usize]);
                let op = *self.pick(&["=", "+=", "^=", "-=", "*="]);
                self.line(&format!("{v} {op} {e};"));
            }
            1 => {
                self.spend();
                self.features.insert("float");
                let v = format!("f{}", self.range(0, self.nvf - 1));
                let e = self.fexpr(DEPTH[self.size as usize]);
                let op = *self.pick(&["=", "+=", "-=", "*="]);
                self.line(&format!("{v} {op} {e};"));
            }
            2 => {
                self.spend();
                if self.chance(0.5) {
                    let j = self.range(0, self.ki - 1);
                    let slot = self.oslot(j, self.ki);
                    let e = self.iexpr(2);
                    let op = *self.pick(&["=", "+="]);
                    self.line(&format!("oi[{slot}] {op} (int)({e});"));
                } else {
                    let j = self.range(0, self.kf - 1);
                    let slot = self.oslot(j, self.kf);
                    let e = self.fexpr(2);
                    let op = *self.pick(&["=", "+="]);
                    self.line(&format!("of[{slot}] {op} {e};"));
                }
            }
            3 => {
                self.spend();
                self.features.insert("atomic-global");
                let (f, region) = *self.pick(&[("atomicAdd", 0), ("atomicAdd", 0), ("atomicMax", 1), ("atomicMin", 2)]);
                let i = self.iexpr(1);
                let v = self.iexpr(2);
                self.line(&format!("{f}(&cnt[{}u + ({i}) % {NC}u], (int)({v}));", region * NC));
            }
            4 => {
                self.spend();
                let si = self.use_si == Use::Write && (self.use_sf != Use::Write || self.chance(0.5));
                if si {
                    let j = self.range(0, self.ss - 1);
                    let slot = self.si_own(j);
                    let e = self.iexpr(2);
                    let op = *self.pick(&["=", "+=", "^="]);
                    self.line(&format!("si[{slot}] {op} (int)({e});"));
                } else {
                    let e = self.fexpr(2);
                    self.line(&format!("sf[tid] = {e};"));
                }
            }
            5 => {
                self.spend();
                self.features.insert("atomic-shared");
                let (f, region) = *self.pick(&[("atomicAdd", 0), ("atomicMax", 1), ("atomicMin", 2)]);
                let i = self.iexpr(1);
                let v = self.iexpr(2);
                self.line(&format!("{f}((int *)&sc[{}u + ({i}) % {NC}u], (int)({v}));", region * NC));
            }
            6 => {
                self.spend();
                self.line(&format!("if (tid < {NC}u) {{"));
                self.indent += 1;
                self.line("atomicAdd(&cnt[tid], sc[tid]);");
                self.line(&format!("atomicMax(&cnt[{NC}u + tid], sc[{NC}u + tid]);"));
                self.line(&format!("atomicMin(&cnt[{}u + tid], sc[{}u + tid]);", 2 * NC, 2 * NC));
                self.indent -= 1;
                self.line("}");
            }
            7 => {
                self.spend();
                let c = self.cond(2);
                if ctx.depth > 0 {
                    self.features.insert("nested-if");
                }
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                let inner = Ctx { depth: ctx.depth + 1, ..ctx };
                let n = self.range(1, 3);
                self.block_stmts(inner, n);
                self.indent -= 1;
                if self.chance(0.5) {
                    self.line("} else {");
                    self.indent += 1;
                    let n = self.range(1, 3);
                    self.block_stmts(inner, n);
                    self.indent -= 1;
                }
                self.line("}");
            }
            8 => {
                let (bound, max) = self.bound();
                if self.budget < self.mult * max as i64 * 2 {
                    return;
                }
                self.spend();
                self.features.insert("loop");
                if self.scope.iter().any(|(_, u)| !*u) {
                    self.features.insert("nested-loop");
                }
                let v = self.fresh("i");
                let e = self.fresh("e");
                self.line(&format!("for (unsigned {v} = 0, {e} = {bound}; {v} < {e}; ++{v}) {{"));
                self.indent += 1;
                self.scope.push((v, false));
                let saved = self.mult;
                self.mult *= max as i64;
                let n = self.range(1, 4);
                self.block_stmts(Ctx { depth: ctx.depth + 1, in_for: true, ..ctx }, n);
                self.mult = saved;
                self.scope.pop();
                self.indent -= 1;
                self.line("}");
            }
            9 => {
                let max = self.range(2, 4);
                if self.budget < self.mult * max as i64 * 2 {
                    return;
                }
                self.spend();
                self.features.insert("do-while");
                let v = self.fresh("w");
                let start = self.iexpr(1);
                self.line(&format!("unsigned {v} = ({start}) % {max}u;"));
                self.line("do {");
                self.indent += 1;
                let saved = self.mult;
                self.mult *= max as i64;
                // `break`/`continue` here would skip the counter: not allowed.
                let n = self.range(1, 3);
                self.block_stmts(Ctx { depth: ctx.depth + 1, in_for: false, ..ctx }, n);
                self.mult = saved;
                self.line(&format!("{v} += 1u;"));
                self.indent -= 1;
                self.line(&format!("}} while ({v} < {max}u);"));
            }
            10 => {
                self.spend();
                self.features.insert("early-return");
                let c = self.cond(1);
                self.line(&format!("if ({c}) return;"));
            }
            _ => {
                self.spend();
                self.features.insert("break-continue");
                let c = self.cond(1);
                let what = *self.pick(&["break", "continue"]);
                self.line(&format!("if ({c}) {what};"));
            }
        }
    }

    /// A per-thread trip count (evaluated once before the loop) and its maximum.
    fn bound(&mut self) -> (String, u32) {
        if self.chance(0.5) {
            let c = self.range(1, 5);
            (format!("{c}u"), c)
        } else {
            self.features.insert("data-trip-count");
            let m = self.range(2, 5);
            let e = self.iexpr(2);
            (format!("({e}) % {m}u + {}u", self.range(0, 1)), m)
        }
    }

    // ---- expressions -----------------------------------------------------------

    fn fconst(&mut self) -> String {
        self.pick(&["0.5f", "1.25f", "-2.0f", "3.0f", "0.1f", "-0.75f", "7.5f", "1.0f"]).to_string()
    }

    /// Own slot `j` of this thread in `si`.
    fn si_own(&self, j: u32) -> String {
        if self.si_strided {
            format!("tid * {}u + {j}u", self.ss)
        } else {
            format!("{}u + tid", j * self.bs)
        }
    }

    /// Own output slot `j` of `k` per thread.
    fn oslot(&self, j: u32, k: u32) -> String {
        if self.soa {
            format!("{}u + gid", j * self.total)
        } else {
            format!("gid * {k}u + {j}u")
        }
    }

    /// An index into `gi` (length `ni`) of some access pattern.
    fn gindex(&mut self, d: u32, len: u32) -> String {
        match self.range(0, 4) {
            0 => {
                self.features.insert("strided-load");
                let s = *self.pick(&[1, 2, 3, 4, 8, 16, 32, 33]);
                format!("(gid * {s}u + {}u) % {len}u", self.range(0, 63))
            }
            1 => {
                self.features.insert("indirect-load");
                let i = if self.chance(0.5) {
                    format!("(gid + {}u) % {}u", self.range(0, 31), self.nx)
                } else {
                    format!("({}) % {}u", self.iexpr(d), self.nx)
                };
                format!("(unsigned)ix[{i}] % {len}u")
            }
            2 => format!("({}) % {len}u", self.iexpr(d)),
            3 => format!("(bid + {}u) % {len}u", self.range(0, 40)),
            _ => format!("(tid + {}u) % {len}u", self.range(0, 40)),
        }
    }

    fn ileaf(&mut self) -> String {
        let k = self.weighted(&[10, 3, 2, 2, 1, 1, if self.scope.is_empty() { 0 } else { 4 }, 1]);
        match k {
            0 => format!("a{}", self.range(0, self.nvi - 1)),
            1 => format!("{}u", self.range(0, 100)),
            2 => "tid".into(),
            3 => "gid".into(),
            4 => "bid".into(),
            5 => {
                if self.block[1] > 1 {
                    "threadIdx.y".into()
                } else {
                    "threadIdx.x".into()
                }
            }
            6 => {
                let i = self.rng.random_range(0..self.scope.len());
                self.scope[i].0.clone()
            }
            _ => "p".into(),
        }
    }

    /// An unsigned expression.
    fn iexpr(&mut self, d: u32) -> String {
        if d == 0 || self.chance(LEAF[self.size as usize]) {
            return self.ileaf();
        }
        let si_any = self.use_si != Use::None;
        let sc_r = self.use_sc == Use::Read;
        let k = self.weighted(&[10, 2, 2, 2, 2, 4, 2, 2, if si_any { 3 } else { 0 }, if sc_r { 2 } else { 0 }]);
        let (a, b) = (self.iexpr(d - 1), self.iexpr(d - 1));
        let e = self.iexpr_main(k, d, a, b);
        self.warp_wrap(e)
    }

    /// With a small chance (from the second stream), a warp-level function
    /// of an unsigned expression: a shuffle of it (index, down, xor, up;
    /// member mask the active lanes, so divergent code is legal), or a vote
    /// or ballot on one of its bits. Any execution order gives the same
    /// values: the lanes of a warp run in lockstep.
    fn warp_wrap(&mut self, e: String) -> String {
        if self.ext.random_bool(0.03) {
            self.features.insert("device-call");
            self.calls[0] = true;
            let b = self.ext_ileaf();
            return format!("wf_mix({e}, {b})");
        }
        if !self.ext.random_bool(0.05) {
            return e;
        }
        self.features.insert("warp-intrinsics");
        let lane = self.ext.random_range(0..32u32);
        let kind = self.ext.random_range(0..6u32);
        self.shuffles |= kind < 4;
        match kind {
            0 => format!("wf_shfl_idx({e}, (tid * {}u + {lane}u) & 31u)", self.ext.random_range(1..8u32)),
            1 => format!("wf_shfl_down({e}, {}u)", lane % 16 + 1),
            2 => format!("wf_shfl_xor({e}, {}u)", lane % 31 + 1),
            3 => format!("wf_shfl_up({e}, {}u, {})", lane % 8 + 1, [8, 16, 32][lane as usize % 3]),
            4 => format!("__ballot_sync(__activemask(), (({e}) & {}u) != 0u)", 1u32 << (lane % 4)),
            _ => format!("(unsigned)__{}_sync(__activemask(), (({e}) & 1u) != 0u)", ["any", "all", "uni"][lane as usize % 3]),
        }
    }

    /// The non-leaf unsigned expression of kind `k` over `a` and `b`.
    fn iexpr_main(&mut self, k: usize, d: u32, a: String, b: String) -> String {
        let si_r = self.use_si == Use::Read;
        match k {
            0 => format!("({a} {} {b})", self.pick(&["+", "-", "*", "^", "&", "|", "+", "*"])),
            1 => format!("({a} {} ({b} & 31u))", self.pick(&["<<", ">>"])),
            2 => format!("({a} {} ({b} | 1u))", self.pick(&["/", "%"])),
            3 => format!("{}({a}, {b})", self.pick(&["min", "max"])),
            4 => {
                let c = self.cond(d - 1);
                format!("({c} ? {a} : {b})")
            }
            5 => {
                let i = self.gindex(d - 1, self.ni);
                format!("(unsigned)gi[{i}]")
            }
            6 => {
                let f = self.fexpr(d - 1);
                format!("(unsigned)(int)fminf(fmaxf({f}, -1.0e6f), 1.0e6f)")
            }
            7 => format!("(unsigned)ix[({a}) % {}u]", self.nx),
            8 => {
                let len = self.bs * self.ss;
                if si_r && self.chance(0.8) {
                    self.features.insert("shared-cross-read");
                    let i = match self.range(0, 3) {
                        0 => format!("({a}) % {len}u"),
                        1 => format!("(tid + {}u) % {len}u", self.range(1, 40)),
                        2 => format!("(tid * {}u) % {len}u", self.pick(&[2, 4, 8, 16, 32, 33])),
                        _ => format!("{}u - tid", len - 1),
                    };
                    format!("(unsigned)si[{i}]")
                } else {
                    let j = self.range(0, self.ss - 1);
                    let slot = self.si_own(j);
                    format!("(unsigned)si[{slot}]")
                }
            }
            _ => format!("(unsigned)sc[{}u]", self.range(0, 3 * NC - 1)),
        }
    }

    /// A float expression.
    fn fexpr(&mut self, d: u32) -> String {
        if d == 0 || self.chance(LEAF[self.size as usize]) {
            return if self.chance(0.7) { format!("f{}", self.range(0, self.nvf - 1)) } else { self.fconst() };
        }
        let sf = self.use_sf;
        let k = self.weighted(&[10, 3, 2, 1, 1, 3, 3, 1, if sf != Use::None { 3 } else { 0 }]);
        let (a, b) = (self.fexpr(d - 1), self.fexpr(d - 1));
        // Directed rounding (second stream) on + - *, fmaf and sqrtf.
        let rounded = self.ext.random_bool(0.1).then(|| ["rd", "ru", "rz"][self.ext.random_range(0..3usize)]);
        if rounded.is_some() && matches!(k, 0 | 1 | 4) {
            self.features.insert("directed-rounding");
        }
        let e = self.fexpr_main(k, d, a.clone(), b.clone(), rounded);
        self.f_wrap(e, a, b)
    }

    /// An unsigned leaf drawn from the second stream.
    fn ext_ileaf(&mut self) -> String {
        match self.ext.random_range(0..4u32) {
            0 => "tid".into(),
            1 => "gid".into(),
            2 => "p".into(),
            _ => format!("a{}", self.ext.random_range(0..self.nvi)),
        }
    }

    /// With small chances (second stream): a call of an out-of-line
    /// helper, a round trip through half precision (`__hadd`, `__hmul`,
    /// `__hfma` of the operands), a texture fetch added.
    fn f_wrap(&mut self, e: String, a: String, b: String) -> String {
        match self.ext.random_range(0..100u32) {
            0..3 => {
                self.features.insert("device-call");
                self.calls[1] = true;
                format!("wf_blend({e}, {a})")
            }
            3..7 => {
                self.features.insert("half");
                let h = |x: &str| format!("__float2half_rn({x})");
                let op = match self.ext.random_range(0..4u32) {
                    0 => format!("__hadd({}, {})", h(&e), h(&b)),
                    1 => format!("__hmul({}, {})", h(&e), h(&b)),
                    2 => format!("__hsub({}, __float2half_rz({b}))", h(&e)),
                    _ => format!("__hfma({}, {}, {})", h(&e), h(&a), h(&b)),
                };
                format!("__half2float({op})")
            }
            7..12 if self.tex > 0 => {
                self.features.insert("texture");
                if self.tex == 1 {
                    // Integer coordinates, some outside the texture (zero).
                    let i = self.ext_ileaf();
                    format!("({e} + tex1Dfetch<float>(tf, (int)(({i}) % {}u) - 32))", self.nf + 64)
                } else {
                    // Float coordinates a little beyond the edges (the address mode).
                    let (w, h) = (self.tex2d.0, self.nf / self.tex2d.0);
                    format!("({e} + tex2D<float>(tf, fminf(fmaxf({a}, -4.0f), 4.0f) * {}.0f, fminf(fmaxf({b}, -4.0f), 4.0f) * {}.0f))", w / 4 + 1, h / 4 + 1)
                }
            }
            _ => e,
        }
    }

    /// The non-leaf float expression of kind `k` over `a` and `b`.
    fn fexpr_main(&mut self, k: usize, d: u32, a: String, b: String, rounded: Option<&'static str>) -> String {
        let sf = self.use_sf;
        match k {
            0 => {
                let op = *self.pick(&["+", "-", "*"]);
                match (rounded, op) {
                    (Some(m), "+") => format!("__fadd_{m}({a}, {b})"),
                    (Some(m), "-") => format!("__fadd_{m}({a}, -({b}))"),
                    (Some(m), _) => format!("__fmul_{m}({a}, {b})"),
                    (None, _) => format!("({a} {op} {b})"),
                }
            }
            1 => {
                let c = self.fexpr(d - 1);
                match rounded {
                    Some(m) => format!("__fmaf_{m}({a}, {b}, {c})"),
                    None => format!("fmaf({a}, {b}, {c})"),
                }
            }
            2 => format!("{}({a}, {b})", self.pick(&["fminf", "fmaxf"])),
            3 => format!("({a} / (fabsf({b}) + 1.0f))"),
            4 => match rounded {
                Some(m) => format!("__fsqrt_{m}(fabsf({a}))"),
                None => format!("sqrtf(fabsf({a}))"),
            },
            5 => {
                let i = self.gindex(d - 1, self.nf);
                format!("gf[{i}]")
            }
            6 => {
                let i = self.iexpr(d - 1);
                format!("(float)(int)({i} % 1000u)")
            }
            7 => {
                let c = self.cond(d - 1);
                format!("({c} ? {a} : {b})")
            }
            _ => {
                if sf == Use::Read && self.chance(0.8) {
                    self.features.insert("shared-cross-read");
                    let i = self.iexpr(d - 1);
                    format!("sf[({i}) % {}u]", self.bs)
                } else {
                    "sf[tid]".into()
                }
            }
        }
    }

    /// A per-thread condition (divergent on thread indices or on data).
    fn cond(&mut self, d: u32) -> String {
        let k = self.weighted(&[4, 4, 1, if d > 0 { 2 } else { 0 }, if d > 0 { 1 } else { 0 }]);
        match k {
            0 => {
                self.features.insert("divergence-tid");
                let bs = self.bs;
                match self.range(0, 4) {
                    0 => format!("(threadIdx.x & {}u) == {}u", self.pick(&[1, 3, 7]), self.range(0, 1)),
                    1 => format!("tid < {}u", self.range(0, bs)),
                    2 => format!("tid % {}u == {}u", self.range(2, 5), self.range(0, 1)),
                    3 => format!("((tid >> 5) & 1u) == {}u", self.range(0, 1)),
                    _ => {
                        if self.block[1] > 1 {
                            format!("threadIdx.y > {}u", self.range(0, self.block[1] - 1))
                        } else {
                            format!("gid < {}u", self.range(0, self.total))
                        }
                    }
                }
            }
            1 => {
                self.features.insert("divergence-data");
                let a = self.iexpr(d.max(1));
                match self.range(0, 3) {
                    0 => format!("({a} & {}u) != 0u", self.pick(&[1, 2, 4, 8])),
                    1 => {
                        let b = self.iexpr(d.max(1));
                        format!("{a} {} {b}", self.pick(&["<", ">", "<=", "!="]))
                    }
                    2 => format!("{a} % {}u == 0u", self.range(2, 4)),
                    _ => {
                        let (f, g) = (self.fexpr(d.max(1)), self.fexpr(d.max(1)));
                        format!("{f} {} {g}", self.pick(&["<", ">"]))
                    }
                }
            }
            2 => format!("(int)a{} < 0", self.range(0, self.nvi - 1)),
            3 => {
                self.features.insert("short-circuit");
                let (a, b) = (self.cond(d - 1), self.cond(d - 1));
                format!("({a}) {} ({b})", self.pick(&["&&", "||"]))
            }
            _ => {
                let a = self.cond(d - 1);
                format!("!({a})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_kernel() {
        for seed in 0..20 {
            let (a, b) = (generate(seed), generate(seed));
            assert_eq!(a.cuda, b.cuda);
            assert_eq!(a.launch, b.launch);
        }
        assert_ne!(generate(1).cuda, generate(2).cuda);
    }

    /// The syntactic rules the determinism argument rests on.
    #[test]
    fn barriers_returns_and_shared_declarations_follow_the_rules() {
        for seed in 0..200 {
            let g = generate(seed);
            // The kernel's lines (the helpers before it return freely).
            let lines: Vec<&str> = g.cuda.lines().skip_while(|l| !l.contains("__global__")).collect();
            let last_bar = lines.iter().rposition(|l| l.contains("__syncthreads") || l.contains("bar.sync"));
            // Besides a whole warp's exit (`if ((tid >> 5) == K) return;`).
            let first_ret = lines.iter().position(|l| l.contains("return") && !l.contains("(tid >> 5) =="));
            if let (Some(b), Some(r)) = (last_bar, first_ret) {
                assert!(r > b, "seed {seed}: a return before a barrier\n{}", g.cuda);
            }
            assert!(!g.cuda.contains("atomicAdd(&of"), "no float atomics");
            for l in &lines {
                if l.contains("__shared__") {
                    assert!(l.contains("volatile") || l.contains("extern"), "seed {seed}: `{l}` is neither volatile nor extern");
                }
            }
        }
    }
}
