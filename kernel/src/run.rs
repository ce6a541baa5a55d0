//! The whole-launch functional runner, built on [`exec`]: CTAs one after
//! another in linear order (x fastest); within a CTA, warps in round-robin
//! order, each running until it reaches a barrier or exits; when every
//! warp still running waits at the barrier, all are released. Shared and
//! local memory start zeroed for every CTA.

use crate::error::RunError;
use crate::exec::{exec, ExecCtx, WarpState};
use crate::inst::WARP_SIZE;
use crate::kernel::Kernel;
use crate::launch::Launch;
use crate::memory::Memory;
use std::path::Path;

/// Options of a functional run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Warp instructions allowed per launch before the run is stopped with
    /// an error (a kernel that loops forever stops here).
    pub max_warp_insts: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { max_warp_insts: 1 << 30 }
    }
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub ctas: u64,
    pub warps: u64,
    /// Warp instructions executed.
    pub warp_insts: u64,
    /// Thread instructions: active threads (before guards) summed over warp instructions.
    pub thread_insts: u64,
    /// Deepest SIMT stack of any warp.
    pub max_stack_depth: u32,
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
    let mut waiting = vec![false; nwarps as usize];
    for cz in 0..gz {
        for cy in 0..gy {
            for cx in 0..gx {
                let ctaid = [cx, cy, cz];
                shared.fill(0);
                local.fill(0);
                warps.clone_from(&fresh);
                waiting.fill(false);
                let mut ctx = ExecCtx {
                    global: memory,
                    shared: &mut shared,
                    local: &mut local,
                    params: &launch.params,
                    ntid: launch.block,
                    ctaid,
                    nctaid: launch.grid,
                    side_effects: true,
                };
                loop {
                    for (wi, w) in warps.iter_mut().enumerate() {
                        if w.done || waiting[wi] {
                            continue;
                        }
                        loop {
                            if stats.warp_insts >= opts.max_warp_insts {
                                return Err(RunError::Budget { kernel: k.base_name.clone(), budget: opts.max_warp_insts, cta: ctaid });
                            }
                            let ex = exec(k, w, &mut ctx)?;
                            stats.warp_insts += 1;
                            stats.thread_insts += ex.active.count_ones() as u64;
                            if ex.warp_done {
                                break;
                            }
                            if ex.barrier {
                                waiting[wi] = true;
                                break;
                            }
                        }
                    }
                    // Every warp still running waits at the barrier: release.
                    if warps.iter().all(|w| w.done) {
                        break;
                    }
                    waiting.fill(false);
                }
                stats.ctas += 1;
                stats.warps += nwarps as u64;
                stats.max_stack_depth = stats.max_stack_depth.max(warps.iter().map(|w| w.max_depth).max().unwrap_or(0));
            }
        }
    }
    Ok(stats)
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
