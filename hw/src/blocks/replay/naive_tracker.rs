//! `naive_tracker` — the naive MSHR tracker (Turner, MASc thesis, UBC 2012, seed 004:
//! §6.0.1 "MSHR Trackers", compared with the credit tracker in §7.2.2).
//!
//! "The naive merely checks the current number of MSHRs and only schedules warps that are
//! predicted to need an MSHR when an MSHR is available." It keeps no account of the loads
//! it has already let into the pipeline, so with a pipeline between issue and memory stage
//! it oversubscribes the MSHRs. The thesis simulated it with no signalling delay and notes
//! that "such a delay could only make this tracker worse" (§6.0.1, §8.1): `delay` adds it.
//!
//! The memory stage only needs to send one bit (`free_count > 0` of the MSHR table), so the
//! block is a `delay`-stage delay line of that bit.
//!
//! # Parameters
//!
//! | name    | default | range  | meaning |
//! |---------|---------|--------|---------|
//! | `delay` | 0       | 0..=16 | register stages between the memory stage and the issue stage |
//!
//! # Ports
//!
//! | port            | dir | width | meaning |
//! |-----------------|-----|-------|---------|
//! | `rst`           | in  | 1     | synchronous active-high reset (only with `delay > 0`) |
//! | `mshr_avail`    | in  | 1     | the memory stage currently shows a free MSHR |
//! | `miss_issue_ok` | out | 1     | a load predicted to miss may issue |
//!
//! # Cycle semantics
//!
//! `delay = 0`: `miss_issue_ok = mshr_avail`, combinationally (the thesis's instant view).
//! The block then has no state and, as every stateless module of the IR, no `clk` and no
//! `rst` port. (`keep_clock_and_reset` would keep the port list parameter-independent, but
//! the registry's storage check requires a clocked block to have storage; `replay_unit`
//! does not care, its instances get `rst` only when they have state.)
//! `delay = d > 0`: `miss_issue_ok` is `mshr_avail` of `d` cycles earlier, through a
//! `d`-stage shift register whose reset value is 1 (after reset every MSHR is free), so
//! for the first `d` cycles after reset `miss_issue_ok = 1`.
//!
//! # Storage
//!
//! `delay` flip-flops: **0 bits** at the default. No thesis figure; no `paper_storage`.

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, HwError, Module, ModuleBuilder};
use crate::registry::{Block, StorageAccount};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "naive_tracker";

crate::block_params! {
    /// Parameters of the naive MSHR tracker.
    pub struct NaiveTrackerParams {
        delay: u32 = shared(super::credit_tracker::DELAY),
    }
}

impl NaiveTrackerParams {
    /// Whether the block has registers (and therefore `clk` and `rst`).
    pub fn has_state(&self) -> bool {
        self.delay > 0
    }
}

/// The naive tracker's ports: `rst` only with state (`delay > 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveTrackerIo<H> {
    pub rst: Option<H>,
    pub mshr_avail: H,
    pub miss_issue_ok: H,
}

impl Interface for NaiveTrackerParams {
    type Io<H> = NaiveTrackerIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> NaiveTrackerIo<B::H> {
        NaiveTrackerIo {
            rst: self.has_state().then(|| b.reset()),
            mshr_avail: b.input("mshr_avail", 1),
            miss_issue_ok: b.output("miss_issue_ok", 1),
        }
    }
}

impl Block for NaiveTrackerParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str = "naive MSHR tracker: issue loads predicted to miss while the memory stage shows a free MSHR";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, section 6.0.1";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        naive_tracker(self, name)
    }

    /// No thesis figure.
    fn storage(&self) -> StorageAccount {
        StorageAccount::default().differs(self.delay as i64, "the MSHR-available delay line (no thesis figure)")
    }
}

/// Generate the naive tracker.
pub fn naive_tracker(p: &NaiveTrackerParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Naive MSHR tracker (Turner, MASc thesis, UBC 2012, section 6.0.1): the memory stage's \
         MSHR-available bit, {} register stage(s) late.",
        p.delay
    ));
    let io = p.decls();
    let avail = m.port(&io.mshr_avail);
    let ok = m.port(&io.miss_issue_ok);
    if p.delay == 0 {
        ok.set(avail);
    } else {
        // Bit 0 takes this cycle's value, bit delay-1 is the oldest; reset: all free.
        let line = m.reg("avail_line", p.delay, (1u64 << p.delay) - 1);
        line.set(if p.delay == 1 { avail } else { cat(&[line.trunc(p.delay - 1), avail]) });
        ok.set(line.msb());
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<NaiveTrackerParams>();
