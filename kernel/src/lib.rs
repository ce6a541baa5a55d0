//! warpforge kernels: CUDA C and PTX in, per-thread functional execution out.
//!
//! The front end of the SM and its golden model:
//!
//! 1. [`compile`]: `.cu` files through clang-14's NVPTX back end with the
//!    project's CUDA prelude ([`compile::PRELUDE`]), or through NVIDIA's nvcc.
//! 2. [`ptx`]: the PTX parser, to the typed [`Inst`] representation;
//!    errors name `file:line:column`.
//! 3. [`regalloc`]: liveness-based allocation onto at most 63 architected
//!    32-bit registers (64-bit values in aligned pairs) and 7 predicates.
//! 4. [`mod@cfg`]: basic blocks and immediate post-dominators (reconvergence).
//! 5. [`mod@exec`]: the functional model, one warp-instruction at a time, with
//!    a per-warp SIMT stack in the P-mode `simt_stack` block's format.
//! 6. [`launch`] and [`run`]: TOML launch files and the whole-launch runner.
//!
//! Beside them: [`half`] (half-precision arithmetic), [`texture`]
//! (textures over launch buffers), [`mod@barrier`] (a CTA's named
//! barriers, shared with the timing SM), [`round`] (directed rounding),
//! [`spill`] (spilling), [`progress`] (spinning warps), [`gen`] (the random
//! kernel generator).
//!
//! # The API the timing SM uses
//!
//! - [`Module`] (`Module::from_ptx`, [`load`]) holds [`Kernel`]s;
//!   `Module::kernel(name)` accepts the PTX name or the demangled base name.
//! - [`Kernel`]: `name`, `base_name`, `params`, `insts` (instruction `i` at
//!   PC `i * 8`), `regs_used`, `preds_used`, `shared_bytes`, `local_bytes`,
//!   `frame_bytes` (one call level's locals),
//!   `cfg` (blocks, each with its immediate post-dominator), and per branch
//!   its reconvergence PC in `Op::Bra { reconv, .. }`.
//! - [`Inst`]: `op` (typed [`Op`]), `guard`, `reads` / `writes` (the
//!   architected registers, [`ArchReg::R`] for each 32-bit half of a pair
//!   and each vector element, [`ArchReg::P`] for predicates; guard and
//!   address registers included), `unit` ([`Unit`]: SP, SFU, LDST, CTRL),
//!   `mem` ([`MemInfo`]: space as written, load/store/atomic, element bytes,
//!   vector count), `is_branch()`, `is_barrier()`, `is_exit()`, `line`.
//! - [`WarpState`]: per-lane registers (`regs[r][lane]`), predicate lane
//!   masks, SIMT stack ([`StackEntry`]: pc, rpc, mask), `exited`, `done`,
//!   `warp_id`, `lanes`, per-lane local frames and open calls (recursion).
//!   `Clone` for speculative pre-execution.
//! - [`exec`](exec::exec)`(kernel, &mut warp, &mut ctx) -> Result<Executed, ExecError>`:
//!   executes the next instruction; [`Executed`] has the instruction index
//!   and PC, active and executed lane masks, per-lane addresses
//!   ([`MemAccess`], space resolved), the branch outcome
//!   ([`BranchOutcome`]), barrier arrival, exited lanes, and `suppressed`
//!   when [`ExecCtx::side_effects`] is false (stores and atomics not
//!   performed; loads still read). [`skip`] advances past a
//!   non-control instruction without executing it.
//! - [`ExecCtx`]: global memory ([`Memory`]), the CTA's shared and local
//!   memory, the parameter buffer, `ntid`/`ctaid`/`nctaid`, the launch's
//!   textures.
//! - [`run_functional`]: every CTA, warps round-robin to each barrier; an
//!   instruction budget ([`RunOptions`]).
//!
//! Decisions where the PTX ISA leaves freedom are listed in `docs/kernels.md`.

pub mod barrier;
pub mod cfg;
pub mod compile;
pub mod dac;
pub mod error;
pub mod exec;
pub mod gen;
pub mod half;
pub mod input;
pub mod inst;
pub mod kernel;
pub mod launch;
pub mod memory;
pub mod progress;
pub mod ptx;
pub mod regalloc;
pub mod round;
pub mod spill;
pub mod texture;
pub mod tsched;
pub mod run;

pub use cfg::{Block, Cfg, RPC_NONE};
pub use compile::{compile_cuda, CompileOptions, Compiler};
pub use error::{AllocError, CompileError, ExecError, Fault, KernelError, LaunchError, ParseError, RunError};
pub use exec::{exec, skip, BranchOutcome, ExecCtx, Executed, Lanes, MemAccess, StackEntry, WarpState};
pub use inst::{ArchReg, Inst, MemInfo, MemKind, Op, Opnd, Space, Ty, Unit, INST_BYTES, MAX_PREDS, MAX_REGS, WARP_SIZE};
pub use kernel::{Kernel, Module, RegFile};
pub use launch::{BufferInfo, ElemType, Launch, LaunchFile};
pub use memory::Memory;
pub use run::{dump, run_functional, run_observed, run_on, run_profiled, FunctionalResult, RunOptions, RunStats};

use std::path::Path;

/// Load a kernel file: `.cu` is compiled first (by `opts.compiler`), anything else is
/// read as PTX.
pub fn load(path: &Path, opts: &CompileOptions) -> Result<Module, KernelError> {
    let (ptx, file) = source(path, opts)?;
    Module::from_ptx(&ptx, &file)
}

/// The PTX of a `.cu` (compiled) or `.ptx` file, and the name its
/// messages give it.
pub fn source(path: &Path, opts: &CompileOptions) -> Result<(String, String), KernelError> {
    let file = path.display().to_string();
    if path.extension().is_some_and(|e| e == "cu") {
        let ptx = compile_cuda(path, opts)?;
        Ok((ptx, format!("{file} (PTX from {})", opts.compiler.name())))
    } else {
        let src = input::read_text(path).map_err(|e| KernelError::Io { path: path.into(), err: e.into() })?;
        Ok((src, file))
    }
}

#[cfg(test)]
mod tests {
    /// The SM may share modules and launches between threads (e.g. sweeps).
    #[test]
    fn shareable_between_threads() {
        fn sync<T: Send + Sync>() {}
        sync::<crate::Module>();
        sync::<crate::Kernel>();
        sync::<crate::Launch>();
        sync::<crate::Memory>();
        sync::<crate::WarpState>();
    }
}
