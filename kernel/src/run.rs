//! The whole-launch functional runner, built on [`exec`]: CTAs one after
//! another in linear order (x fastest); within a CTA, warps in round-robin
//! order, each running until it reaches a barrier, exits, or is found
//! spinning ([`crate::progress`]: its state recurs with memory unchanged);
//! a spinning warp runs again once another warp has changed memory. A
//! barrier releases its warps when it completes ([`crate::barrier`]); when
//! every warp is spinning or waiting and memory no longer changes, the
//! kernel can never finish and the run stops with a no-progress error.
//! Shared and local memory start zeroed for every CTA.

use crate::barrier::CtaBarriers;
use crate::error::RunError;
use crate::exec::{exec, ExecCtx, WarpState};
use crate::inst::WARP_SIZE;
use crate::kernel::Kernel;
use crate::launch::Launch;
use crate::memory::Memory;
use crate::progress::SpinDetector;
use std::path::Path;

/// Options of a functional run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Warp instructions allowed per launch before the run is stopped with
    /// an error (a kernel that loops forever stops here).
    pub max_warp_insts: u64,
    /// Global loads outside every allocation read zero (see
    /// [`ExecCtx::unmapped_reads_zero`]); by default they are errors.
    pub unmapped_reads_zero: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { max_warp_insts: 1 << 30, unmapped_reads_zero: false }
    }
}

/// The functional model has no cycles: `%clock` is the count of warp
/// instructions executed so far, `%globaltimer` that count in ns at 1 GHz.
pub const FUNCTIONAL_CLOCK_HZ: u64 = 1_000_000_000;

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub ctas: u64,
    pub warps: u64,
    /// Warp instructions executed.
    pub warp_insts: u64,
    /// Thread instructions: active threads (before guards) summed over warp instructions.
    pub thread_insts: u64,
    /// Warp instructions executed with some of the warp's live threads
    /// inactive (divergence time, in warp instructions).
    pub divergent_warp_insts: u64,
    /// Deepest SIMT stack of any warp.
    pub max_stack_depth: u32,
    /// `bar.sync`s reached with part of a warp's live threads inactive
    /// (undefined behaviour in CUDA; released here as pre-Volta hardware
    /// does, counting the warp as arrived).
    pub partial_barriers: u64,
    /// The first of them: (pc, source line, CTA, warp).
    pub first_partial_barrier: Option<(u32, u32, [u32; 3], u32)>,
    /// Lane-elements of global loads that read unmapped memory as zero.
    pub unmapped_reads: u64,
}

impl RunStats {
    /// A warning line about partial barriers, if the run had any.
    pub fn barrier_warning(&self, kernel: &str) -> Option<String> {
        let (pc, line, c, w) = self.first_partial_barrier?;
        Some(format!(
            "warning: kernel `{kernel}`: {} bar.sync executed by only part of a warp's live threads (first at pc {pc:#06x}, line {line}, CTA ({}, {}, {}), warp {w}): undefined behaviour in CUDA; warpforge counts the warp as arrived, as pre-Volta GPUs do",
            self.partial_barriers, c[0], c[1], c[2]
        ))
    }
}

/// The final memory image and counts.
#[derive(Clone, Debug)]
pub struct FunctionalResult {
    pub memory: Memory,
    pub stats: RunStats,
}

/// Run every thread of a launch to completion.
pub fn run_functional(k: &Kernel, launch: &Launch, opts: &RunOptions) -> Result<FunctionalResult, RunError> {
    let mut memory = launch.memory.clone();
    let stats = run_on(k, launch, &mut memory, opts)?;
    Ok(FunctionalResult { memory, stats })
}

/// Run a launch on a given memory image (updated in place).
pub fn run_on(k: &Kernel, launch: &Launch, memory: &mut Memory, opts: &RunOptions) -> Result<RunStats, RunError> {
    run_observed(k, launch, memory, opts, &mut |_| {})
}

/// Why a warp stopped running for now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    Running,
    /// At a barrier.
    Barrier,
    /// Spinning since memory generation `g`.
    Spinning(u64),
}

/// [`run_on`], calling `observe` with the counts after every CTA (for a
/// progress display).
pub fn run_observed(k: &Kernel, launch: &Launch, memory: &mut Memory, opts: &RunOptions, observe: &mut dyn FnMut(&RunStats)) -> Result<RunStats, RunError> {
    run_inner(k, launch, memory, opts, observe, None)
}

/// [`run_on`], counting every instruction's executions, divergent
/// executions and branch outcomes into `profile` (trace scheduling's
/// training run, [`crate::tsched`]).
pub fn run_profiled(k: &Kernel, launch: &Launch, memory: &mut Memory, opts: &RunOptions, profile: &mut crate::tsched::InstProfile) -> Result<RunStats, RunError> {
    run_inner(k, launch, memory, opts, &mut |_| {}, Some(profile))
}

fn run_inner(
    k: &Kernel,
    launch: &Launch,
    memory: &mut Memory,
    opts: &RunOptions,
    observe: &mut dyn FnMut(&RunStats),
    mut profile: Option<&mut crate::tsched::InstProfile>,
) -> Result<RunStats, RunError> {
    let threads = launch.threads_per_cta();
    let nwarps = threads.div_ceil(WARP_SIZE as u32);
    let shared_bytes = k.dynamic_shared_base() as usize + launch.dynamic_shared as usize;
    let local_total = (threads as usize).checked_mul(k.local_bytes as usize).filter(|&n| n <= 1 << 28);
    let Some(local_total) = local_total else {
        return Err(RunError::Launch { kernel: k.base_name.clone(), msg: "local memory of the CTA exceeds 256 MiB".into() });
    };
    if launch.params.len() != k.param_bytes as usize {
        return Err(RunError::Launch {
            kernel: k.base_name.clone(),
            msg: format!("the launch's parameter buffer has {} bytes, the kernel takes {}", launch.params.len(), k.param_bytes),
        });
    }
    let mut shared = vec![0u8; shared_bytes];
    let mut local = vec![0u8; local_total];
    let mut stats = RunStats::default();
    let [gx, gy, gz] = launch.grid;
    let fresh: Vec<WarpState> = (0..nwarps).map(|w| WarpState::new(k, w, launch.block)).collect();
    let mut warps = fresh.clone();
    let mut held = vec![Held::Running; nwarps as usize];
    let mut spin = vec![SpinDetector::default(); nwarps as usize];
    // Instructions so far that changed memory.
    let mut generation = 0u64;
    for cz in 0..gz {
        for cy in 0..gy {
            for cx in 0..gx {
                let ctaid = [cx, cy, cz];
                shared.fill(0);
                local.fill(0);
                warps.clone_from(&fresh);
                held.fill(Held::Running);
                spin.iter_mut().for_each(SpinDetector::reset);
                let mut bars = CtaBarriers::default();
                let mut running = nwarps;
                // bar.red: each reducing warp's instruction and lanes, and
                // its result once the barrier completes.
                let mut reduced: Vec<Option<(usize, u32)>> = vec![None; nwarps as usize];
                let mut results: Vec<Option<u32>> = vec![None; nwarps as usize];
                let mut ctx = ExecCtx {
                    global: crate::memory::Global::Direct(memory),
                    shared: &mut shared,
                    local: &mut local,
                    params: &launch.params,
                    ntid: launch.block,
                    ctaid,
                    nctaid: launch.grid,
                    side_effects: true,
                    unmapped_reads_zero: opts.unmapped_reads_zero,
                    clock: 0,
                    clock_hz: FUNCTIONAL_CLOCK_HZ,
                    textures: &launch.textures,
                };
                loop {
                    for (wi, w) in warps.iter_mut().enumerate() {
                        match held[wi] {
                            Held::Barrier => continue,
                            Held::Spinning(g) if g == generation => continue,
                            _ => {}
                        }
                        if w.done {
                            continue;
                        }
                        held[wi] = Held::Running;
                        loop {
                            if let (Some(v), Some((inst, mask))) = (results[wi].take(), reduced[wi]) {
                                crate::exec::write_barrier_result(k, w, inst, mask, v);
                                reduced[wi] = None;
                            }
                            if stats.warp_insts >= opts.max_warp_insts {
                                return Err(RunError::Budget { kernel: k.base_name.clone(), budget: opts.max_warp_insts, cta: ctaid });
                            }
                            ctx.clock = stats.warp_insts;
                            let live = w.lanes & !w.exited;
                            let ex = exec(k, w, &mut ctx)?;
                            if let Some(p) = profile.as_deref_mut() {
                                p.record(&ex, live);
                            }
                            stats.warp_insts += 1;
                            stats.thread_insts += ex.active.count_ones() as u64;
                            stats.divergent_warp_insts += (ex.active != live) as u64;
                            generation += ex.wrote as u64;
                            stats.unmapped_reads += ex.unmapped_lanes as u64;
                            if ex.partial_barrier {
                                stats.partial_barriers += 1;
                                stats.first_partial_barrier.get_or_insert((ex.pc, k.line_at(ex.pc), ctaid, w.warp_id));
                            }
                            if ex.warp_done {
                                running -= 1;
                                for r in bars.exited(running) {
                                    held[r as usize] = Held::Running;
                                }
                                for (r, v) in bars.take_results() {
                                    results[r as usize] = Some(v);
                                }
                                break;
                            }
                            if let Some(a) = ex.barrier {
                                if a.wait {
                                    held[wi] = Held::Barrier;
                                }
                                if a.red.is_some() {
                                    reduced[wi] = Some((ex.inst as usize, ex.exec_mask));
                                }
                                for r in bars.arrive(wi as u32, a, running) {
                                    held[r as usize] = Held::Running;
                                }
                                for (r, v) in bars.take_results() {
                                    results[r as usize] = Some(v);
                                }
                                if held[wi] == Held::Barrier {
                                    break;
                                }
                            }
                            if spin[wi].step(w, generation) {
                                held[wi] = Held::Spinning(generation);
                                break;
                            }
                        }
                    }
                    if warps.iter().all(|w| w.done) {
                        break;
                    }
                    // Barriers release their warps as they complete: when no
                    // warp can run, none will.
                    if held.iter().zip(&warps).all(|(h, w)| w.done || *h == Held::Barrier || *h == Held::Spinning(generation)) {
                        return Err(no_progress(k, ctaid, &warps, &held, &bars));
                    }
                }
                stats.ctas += 1;
                stats.warps += nwarps as u64;
                stats.max_stack_depth = stats.max_stack_depth.max(warps.iter().map(|w| w.max_depth).max().unwrap_or(0));
                observe(&stats);
            }
        }
    }
    Ok(stats)
}

/// The no-progress error: which warps spin where, which wait at a barrier.
fn no_progress(k: &Kernel, cta: [u32; 3], warps: &[WarpState], held: &[Held], bars: &CtaBarriers) -> RunError {
    let at = |w: &WarpState| k.where_is(w.pc().unwrap_or(0));
    let mut parts = Vec::new();
    for (w, h) in warps.iter().zip(held) {
        match h {
            _ if w.done => {}
            Held::Spinning(_) => parts.push(format!("warp {} loops at {} with memory unchanged", w.warp_id, at(w))),
            Held::Barrier => {
                let id = bars.waiting(w.warp_id).unwrap_or(0);
                parts.push(format!("warp {} waits at barrier {id} before {}", w.warp_id, at(w)))
            }
            Held::Running => {}
        }
    }
    RunError::NoProgress { kernel: k.base_name.clone(), cta, detail: parts.join("; ") }
}

/// Write every buffer of the launch as `DIR/NAME.bin` (raw little-endian).
pub fn dump(launch: &Launch, memory: &Memory, dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for b in &launch.buffers {
        let path = dir.join(format!("{}.bin", b.name));
        let data = launch.buffer(memory, &b.name).unwrap_or(&[]);
        std::fs::write(&path, data)?;
        out.push(path);
    }
    Ok(out)
}
