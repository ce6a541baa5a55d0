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
    /// The caches as this launch left them, for the program's next launch.
    pub warm: Warm,
}

/// The caches a kernel launch leaves to the next launch of the same
/// program, as GPGPU-Sim keeps them (between kernels it invalidates L1D
/// only): the L2 slices' lines and each SM's instruction and constant
/// caches (used as `gpu.warm_l2` and `l1.warm_read_only` say). Each
/// kernel's code gets its own addresses, so that two kernels' instructions
/// are different lines. A launch's `Outcome::warm` goes into the next one's
/// [`simulate_warm`].
#[derive(Clone, Debug, Default)]
pub struct Warm {
    pub(crate) sms: Vec<SmCaches>,
    pub(crate) l2: Vec<crate::gpu::l2::L2Lines>,
    /// Kernels by name with the addresses of their first instruction and
    /// past their last.
    code: Vec<(String, u64, u64)>,
    /// Device memory the program copied to or from the host since the last
    /// launch, in order: (address, bytes) (`gpu.copies_fill_l2`).
    pub(crate) copies: Vec<(u64, u64)>,
    /// The SM the GPU's CTA scheduler gave the last CTA to
    /// (`gpu.carry_cta_order`).
    pub(crate) last_sm: Option<usize>,
}

/// One SM's read-only caches.
#[derive(Clone, Debug)]
pub(crate) struct SmCaches {
    pub icache: Option<crate::mem::cache::FillCache>,
    pub const_cache: Option<crate::mem::cache::FillCache>,
}

impl Warm {
    /// The program copied `bytes` at device address `addr` to or from the
    /// host: GPGPU-Sim's copies leave those lines in L2
    /// (`-gpgpu_perf_sim_memcpy`), and so does the next launch here.
    pub fn copied(&mut self, addr: u64, bytes: u64) {
        if bytes > 0 {
            self.copies.push((addr, bytes));
        }
    }

    /// Where `k`'s instructions start: the first kernel at 0, each new one
    /// after the last, 4 KB aligned.
    pub(crate) fn code_base(&mut self, k: &Kernel) -> u64 {
        if let Some(&(_, b, _)) = self.code.iter().find(|(n, _, _)| *n == k.name) {
            return b;
        }
        let base = self.code.last().map_or(0, |&(_, _, end)| end.next_multiple_of(0x1000));
        let end = base + k.insts.len() as u64 * kernel::INST_BYTES as u64;
        self.code.push((k.name.clone(), base, end));
        base
    }
}

/// Run `kernel` with `launch` on the SM of `cfg`, its blocks on `engine`.
/// With `gpu.sms` above 1, the whole GPU (`crate::gpu`) on `out.threads`
/// threads; its VCD, pipeline log and event logs are SM 0's.
pub fn simulate(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: Outputs) -> Result<Outcome, String> {
    simulate_warm(kernel, launch, cfg, engine, out, Warm::default())
}

/// [`simulate`], starting from the caches an earlier launch of the same
/// program left (its `Outcome::warm`; `Warm::default()`: cold).
pub fn simulate_warm(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: Outputs, warm: Warm) -> Result<Outcome, String> {
    // DAC mode runs the kernel decoupled (`kernel::dac`), or as it is when
    // nothing can be (the statistics say why).
    let (kernel, unchanged) = match cfg.mode {
        crate::config::Mode::Dac if kernel.affine.is_none() => decoupled(&kernel),
        _ => (kernel, None),
    };
    let mut outcome = simulate_kernel(kernel, launch, cfg, engine, out, warm)?;
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

fn simulate_kernel(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: Outputs, mut warm: Warm) -> Result<Outcome, String> {
    let code = warm.code_base(&kernel);
    if cfg.gpu.sms > 1 {
        return crate::gpu::simulate(kernel, launch, cfg, engine, out, warm, code);
    }
    let mut func = Functional::new(kernel, launch, cfg.core.max_warps, cfg.core.max_ctas)?;
    func.read_unmapped_as_zero(cfg.memory.unmapped_reads == crate::config::UnmappedReads::Zero);
    func.set_clock_hz(cfg.core.clock_mhz as u64 * 1_000_000);
    let mut sm = Sm::new(cfg.clone(), func, engine, out)?;
    sm.warm_up(warm.sms.first(), code);
    sm.run().map_err(|e| e.to_string())?;
    warm.sms = vec![sm.caches()];
    warm.copies.clear(); // one SM has no L2
    let stats = sm.stats.clone();
    let replay_events = sm.replay_events();
    let dac_tuples = sm.dac_tuples();
    let (memory, actions) = sm.finish();
    let memory = memory.expect("a single SM owns its memory");
    Ok(Outcome { stats, memory, actions, replay_events, dac_tuples, warm })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kernel_has_its_own_code_addresses() {
        let ptx = kernel::Module::from_ptx(
            ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry a() { ret; }\n.visible .entry b() { ret; }\n",
            "t.ptx",
        )
        .unwrap();
        let (a, b) = (&ptx.kernels[0], &ptx.kernels[1]);
        let mut w = Warm::default();
        assert_eq!(w.code_base(a), 0, "the first kernel where a single launch has it");
        assert_eq!(w.code_base(b), 0x1000, "the next after it, 4 KB aligned");
        assert_eq!(w.code_base(a), 0, "the same kernel, the same place");
    }
}
