//! The compiled engine: a block's optimised netlist as native code.
//!
//! The flattened netlist goes through the optimisation passes
//! ([`crate::netlist::opt`]), then [`cgen`] writes it as C — all state in one
//! flat arena of 64-bit words, temporaries as C locals, `wf_eval` split into
//! functions of bounded size, values above 64 bits as word arrays — and the
//! system C compiler turns it into a shared library that is loaded with
//! `dlopen`. Libraries are cached by content hash under
//! `$WARPFORGE_CACHE/compiled` (default `~/.cache/warpforge`), so a module is
//! compiled once per machine. The arena layout matches the interpreter's
//! conventions (inputs contiguous in port order, `rst` first), so stimulus
//! frames are one copy, and every port, kept signal and memory word is read
//! in place.
//!
//! Why C and the system compiler rather than a JIT library: measured on
//! this project's blocks (docs/engines.md), gcc -O2 code ran 1.0–1.4x faster
//! than Cranelift's, its compile time stays far below Verilator's build, it
//! adds no Rust dependency (Verilator already needs the same compiler), and
//! the cache keeps the compile to once per module.

mod build;
pub(crate) mod cgen;

use crate::component::{top_mask, Component, PortId, PortSpec};
use crate::engine::{Engine, EngineError, RtlSim, Visibility};
use crate::inspect::{Inspect, Scope, SimMem, SimSignal};
use crate::netlist::flatten::Flat;
use hw::ir::Module;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub use build::{compiler, compiler_identity};
pub use cgen::CodeStats;

/// How the compiled engine generates and compiles code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Run the netlist optimisation passes first.
    pub optimize: bool,
    /// C compiler flags (optimisation level).
    pub cflags: Vec<String>,
    /// Work per generated function (units of a simple 64-bit operation):
    /// bounds the C compiler's time on large designs.
    pub chunk_cost: u32,
    /// Lower muxes with expensive arms to branches.
    pub lower_muxes: bool,
    /// Least work in an arm for its mux to become a branch.
    pub branch_cost: u32,
    /// Test hook: turn the n-th single-word AND the generator emits into an
    /// OR (a deliberate miscompilation the exactness tests must catch).
    #[doc(hidden)]
    pub miscompile: Option<usize>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            optimize: true,
            cflags: vec!["-O2".into()],
            chunk_cost: 1000,
            lower_muxes: true,
            branch_cost: 12,
            miscompile: None,
        }
    }
}

/// How a compiled model was obtained.
#[derive(Clone, Debug)]
pub struct BuildInfo {
    /// Wall time of code generation plus compilation (or the cache lookup)
    /// and loading.
    pub seconds: f64,
    /// Found in the cache (nothing compiled).
    pub cached: bool,
    /// The cache folder with `model.c`, `model.so` and the compiler log.
    pub dir: PathBuf,
    pub stats: CodeStats,
}

type Fn1 = unsafe extern "C" fn(*mut u64);

/// A block compiled to native code; see the module documentation.
#[derive(Clone)]
pub struct CompiledSim {
    name: String,
    ports: Vec<PortSpec>,
    locs: Vec<(u32, u32)>,
    arena: Vec<u64>,
    /// `None` when the generated function does nothing.
    eval_fn: Option<Fn1>,
    tick_fn: Option<Fn1>,
    _lib: Arc<build::Library>,
    inputs_base: u32,
    inputs_words: u32,
    scopes: Vec<Scope>,
    signals: Vec<SimSignal>,
    mems: Vec<SimMem>,
    cycle: u64,
    info: BuildInfo,
}

impl std::fmt::Debug for CompiledSim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSim").field("name", &self.name).field("cycle", &self.cycle).field("info", &self.info).finish()
    }
}

impl CompiledSim {
    /// Compile a finished module with every signal visible (like the
    /// interpreter) and default options.
    pub fn new(top: &Module) -> Result<CompiledSim, EngineError> {
        CompiledSim::with_options(top, Visibility::Full, &CompileOptions::default())
    }

    pub fn with_options(top: &Module, vis: Visibility, opts: &CompileOptions) -> Result<CompiledSim, EngineError> {
        let start = Instant::now();
        let mut flat = Flat::new(top);
        if opts.optimize {
            crate::netlist::opt::optimize(&mut flat);
        }
        let g = cgen::generate(&flat, top, vis, opts);
        let (lib, dir, built) = build::build(&top.name, &g.source, &opts.cflags)?;
        let sym = |name: &std::ffi::CStr| {
            lib.symbol(name).ok_or_else(|| EngineError::Load {
                path: dir.join("model.so").display().to_string(),
                reason: format!("symbol `{}` missing", name.to_string_lossy()),
            })
        };
        let (eval, tick, words) = (sym(c"wf_eval")?, sym(c"wf_tick")?, sym(c"wf_arena_words")?);
        // SAFETY: `wf_arena_words` is a `const u64` the generated code exports.
        let words = unsafe { *(words as *const u64) } as usize;
        if words != g.init.len() {
            return Err(EngineError::Load {
                path: dir.join("model.so").display().to_string(),
                reason: format!("arena of {words} words, expected {}", g.init.len()),
            });
        }
        // SAFETY: both symbols are `void f(u64 *)` functions of the generated
        // code, which only touch the `wf_arena_words` words of its argument.
        let (eval_fn, tick_fn) = unsafe { (std::mem::transmute::<*mut std::ffi::c_void, Fn1>(eval), std::mem::transmute::<*mut std::ffi::c_void, Fn1>(tick)) };
        let info = BuildInfo { seconds: start.elapsed().as_secs_f64(), cached: !built, dir, stats: g.stats };
        Ok(CompiledSim {
            name: top.name.clone(),
            ports: g.ports,
            locs: g.locs,
            arena: g.init,
            eval_fn: (!g.eval_empty).then_some(eval_fn),
            tick_fn: (!g.tick_empty).then_some(tick_fn),
            _lib: Arc::new(lib),
            inputs_base: g.inputs_base,
            inputs_words: g.inputs_words,
            scopes: g.scopes,
            signals: g.signals,
            mems: g.mems,
            cycle: 0,
            info,
        })
    }

    /// How this model was built (time, cache hit, code figures).
    pub fn info(&self) -> &BuildInfo {
        &self.info
    }

    /// Number of clock edges since construction.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
}

impl Component for CompiledSim {
    fn name(&self) -> &str {
        &self.name
    }

    fn ports(&self) -> &[PortSpec] {
        &self.ports
    }

    fn set(&mut self, port: PortId, value: &[u64]) {
        let width = self.ports[port.0 as usize].width;
        let (slot, words) = self.locs[port.0 as usize];
        let (s, n) = (slot as usize, words as usize);
        for k in 0..n {
            self.arena[s + k] = value.get(k).copied().unwrap_or(0);
        }
        self.arena[s + n - 1] &= top_mask(width);
    }

    fn get(&self, port: PortId) -> &[u64] {
        let (slot, words) = self.locs[port.0 as usize];
        &self.arena[slot as usize..(slot + words) as usize]
    }

    /// Inputs occupy consecutive words in port order (`rst` first): one copy.
    fn set_inputs(&mut self, words: &[u64]) {
        let base = self.inputs_base as usize;
        debug_assert_eq!(words.len(), self.inputs_words as usize, "internal: input frame of the wrong size");
        self.arena[base..base + words.len()].copy_from_slice(words);
    }

    fn eval(&mut self) {
        if let Some(f) = self.eval_fn {
            // SAFETY: the arena has the `wf_arena_words` words the code was
            // generated for (checked when it was loaded).
            unsafe { f(self.arena.as_mut_ptr()) }
        }
    }

    fn tick(&mut self) {
        if let Some(f) = self.tick_fn {
            // SAFETY: as for `eval`.
            unsafe { f(self.arena.as_mut_ptr()) }
        }
        self.cycle += 1;
    }
}

impl Inspect for CompiledSim {
    fn scopes(&self) -> &[Scope] {
        &self.scopes
    }
    fn signals(&self) -> &[SimSignal] {
        &self.signals
    }
    fn memories(&self) -> &[SimMem] {
        &self.mems
    }
    fn slot_words(&self, slot: u32, n: usize) -> &[u64] {
        &self.arena[slot as usize..slot as usize + n]
    }
    fn mem_word(&self, m: &SimMem, i: u32) -> &[u64] {
        let o = m.base + i as usize * m.stride;
        &self.arena[o..o + m.stride]
    }
}

impl RtlSim for CompiledSim {
    fn engine(&self) -> Engine {
        Engine::Compiled
    }
    fn build_info(&self) -> Option<&BuildInfo> {
        Some(&self.info)
    }
    fn cycle(&self) -> u64 {
        self.cycle
    }
}
