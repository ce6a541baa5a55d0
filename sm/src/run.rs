//! One timing run: a kernel, a launch, a configuration and an engine in;
//! statistics and the final memory out.

use crate::blocks::Engine;
use crate::config::Config;
use crate::core::{Outputs, Sm};
use crate::func::Functional;
use crate::stats::Stats;
use kernel::{Kernel, Launch, Memory};
use std::sync::Arc;

/// The result of a timing run.
pub struct Outcome {
    pub stats: Stats,
    pub memory: Memory,
    /// P-mode decisions, with `Outputs::log_actions`.
    pub actions: Vec<crate::core::pmode::ActionEvent>,
    /// Replay-mode warp-buffer events, with `Outputs::log_replay`.
    pub replay_events: Vec<crate::core::replay::ReplayEvent>,
    /// DAC mode's enqueued address tuples, with `Outputs::log_dac`.
    pub dac_tuples: Vec<crate::core::dac::TupleEvent>,
}

/// Run `kernel` with `launch` on the SM of `cfg`, its blocks on `engine`.
/// With `gpu.sms` above 1, the whole GPU (`crate::gpu`) on `out.threads`
/// threads; its VCD, pipeline log and event logs are SM 0's.
pub fn simulate(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: Outputs) -> Result<Outcome, String> {
    // DAC mode runs the kernel decoupled (`kernel::dac`), or as it is when
    // nothing can be (the statistics say why).
    let (kernel, unchanged) = match cfg.mode {
        crate::config::Mode::Dac if kernel.affine.is_none() => decoupled(&kernel),
        _ => (kernel, None),
    };
    let mut outcome = simulate_kernel(kernel, launch, cfg, engine, out)?;
    outcome.stats.dac.unchanged = unchanged.unwrap_or_default();
    Ok(outcome)
}

/// The kernel decoupled, once per kernel of a program (a program launches
/// its kernels many times).
fn decoupled(kernel: &Arc<Kernel>) -> (Arc<Kernel>, Option<String>) {
    type Done = Vec<(Arc<Kernel>, Arc<Kernel>, Option<String>)>;
    static DONE: std::sync::Mutex<Done> = std::sync::Mutex::new(Vec::new());
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, d, why)) = done.iter().find(|(k, _, _)| Arc::ptr_eq(k, kernel)) {
        return (Arc::clone(d), why.clone());
    }
    let d = kernel::dac::decouple(kernel);
    let out = (Arc::new(d.kernel), d.unchanged);
    if done.len() >= 64 {
        done.clear();
    }
    done.push((Arc::clone(kernel), Arc::clone(&out.0), out.1.clone()));
    out
}

fn simulate_kernel(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: Outputs) -> Result<Outcome, String> {
    if cfg.gpu.sms > 1 {
        return crate::gpu::simulate(kernel, launch, cfg, engine, out);
    }
    let mut func = Functional::new(kernel, launch, cfg.core.max_warps, cfg.core.max_ctas)?;
    func.read_unmapped_as_zero(cfg.memory.unmapped_reads == crate::config::UnmappedReads::Zero);
    func.set_clock_hz(cfg.core.clock_mhz as u64 * 1_000_000);
    let mut sm = Sm::new(cfg.clone(), func, engine, out)?;
    sm.run().map_err(|e| e.to_string())?;
    let stats = sm.stats.clone();
    let replay_events = sm.replay_events();
    let dac_tuples = sm.dac_tuples();
    let (memory, actions) = sm.finish();
    let memory = memory.expect("a single SM owns its memory");
    Ok(Outcome { stats, memory, actions, replay_events, dac_tuples })
}
