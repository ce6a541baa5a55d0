//! `credit_tracker` — the credit MSHR tracker (Turner, MASc thesis, UBC 2012, seed 004:
//! §6.0.1 "MSHR Trackers" and Figure 6.3 "Overview of credit transactions and storage";
//! results in §7.2.2).
//!
//! The issue stage holds a pool of credits, one per MSHR. A load predicted to need an MSHR
//! may issue only if it takes a credit; the credit travels down the pipeline with the load
//! (one bit per in-flight memory instruction, in the pipeline registers, not in this
//! block). At the memory stage:
//! * a credited load that does not obtain a new MSHR (it hits, merges into a pending entry,
//!   or fails on an MSHR/COMQ/RSV hazard) returns its credit;
//! * a credited load that allocates an MSHR keeps its credit in that MSHR;
//! * an uncredited load that allocates an MSHR gets a *virtual credit*: one credit is taken
//!   from the pool even if that makes the pool negative ("the system is not strict");
//! * whenever an MSHR is freed its credit (real or virtual) returns to the pool.
//!
//! Every MSHR in use therefore holds exactly one credit, and the tracker never needs to
//! know which kind: both return +1 on free.
//!
//! # Parameters
//!
//! | name    | default | range    | meaning |
//! |---------|---------|----------|---------|
//! | `mshrs` | 32      | 1..=1024 | MSHRs = credits (Table 4.2) |
//! | `delay` | 0       | 0..=16   | cycles for a memory-stage event to reach the issue-stage pool beyond the edge that registers it |
//!
//! `delay = 0` is what the thesis simulated; §5.1 and §8.1 argue that signals across a core
//! take several cycles, and §6.0.1 states the credit scheme stays correct "even when the
//! credit counter update is delayed by signaling latency".
//!
//! Notation: `P = clog2(mshrs + 1) + 1` (two's complement; legal pools lie in `-mshrs..=mshrs`).
//!
//! # Ports
//!
//! | port            | dir | width | meaning |
//! |-----------------|-----|-------|---------|
//! | `rst`           | in  | 1     | synchronous active-high reset |
//! | `iss_take`      | in  | 1     | a load issues this cycle holding a credit |
//! | `mem_valid`     | in  | 1     | a load is resolved at the memory stage this cycle |
//! | `mem_credited`  | in  | 1     | it carries a credit |
//! | `mem_alloc`     | in  | 1     | it allocated a new MSHR |
//! | `mshr_free`     | in  | 1     | an MSHR was freed this cycle |
//! | `credit_avail`  | out | 1     | `pool > 0`: a load predicted to miss may issue |
//! | `pool`          | out | P     | the credit pool, two's complement |
//!
//! # State and cycle semantics
//!
//! Registers: the `P`-bit pool `credits` (reset: `mshrs`; the output `pool` is a wire of
//! it) and, for `delay > 0`, three `delay`-bit shift registers `ret_line`, `virt_line`,
//! `free_line` (reset: 0; bit 0 takes the new event, bit `delay - 1` is the oldest)
//! carrying the memory-stage events
//! `ret = mem_valid & mem_credited & !mem_alloc`, `virt = mem_valid & !mem_credited &
//! mem_alloc`, `free = mshr_free`.
//!
//! Combinational: `credit_avail = pool > 0` and `pool` come from the register only (so the
//! scheduler can use them in the cycle it decides to issue).
//!
//! At the rising edge: `pool' = pool - iss_take + ret_d - virt_d + free_d`, where `x_d` is
//! the event presented `delay` cycles earlier (with `delay = 0`, this cycle's inputs).
//! The shift registers advance. `mem_*` with `mem_valid = 0` are ignored.
//!
//! Illegal use: `iss_take` while `credit_avail = 0` still takes the credit (the pool goes
//! down by one): the load carries a credit bit either way, and counting it keeps the
//! accounting below exact. The pool is a `P`-bit two's-complement counter that wraps;
//! wrapping needs more than `mshrs` such violations (or more frees than MSHRs) and never
//! happens in legal use.
//!
//! # Accounting invariant (property-tested)
//!
//! On every cycle: `pool + credited loads between issue and memory stage + MSHRs in use +
//! (net credits in the delay line) = mshrs`, where MSHRs in use counts both those held by
//! credited loads and those held under virtual credits. With `delay = 0` that is the
//! issue's "pool + credits held by in-flight loads + MSHRs held under virtual credits =
//! number of MSHRs". Consequence: with every load credited (an always-miss predictor), a
//! credited load always finds a free MSHR at the memory stage (for any `delay`, since a
//! delay only holds returned credits back).
//!
//! # Storage
//!
//! `P + 3 * delay` flip-flops = **7 bits** at the defaults. The thesis gives no figure
//! ("a few bits of state for each memory instruction, and a small amount of logic",
//! §7.2.4): the per-instruction credit bit lives in the pipeline registers; no
//! `paper_storage`.

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, ParamSpec};
use crate::registry::{Block, StorageAccount};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "credit_tracker";

/// MSHRs = credits: one spec for the MSHR table (`entries`), both trackers'
/// pool and `replay_unit`. The range is the table's (1..=256; the credit
/// tracker alone allowed 1024, more MSHRs than any L1 has).
pub const MSHRS: ParamSpec =
    ParamSpec { name: "mshrs", default: 32, min: 1, max: 256, doc: "MSHRs = credits", source: "thesis Table 4.2: 32" };

/// Signalling delay between the memory stage and the issue stage (shared
/// with `naive_tracker` and `replay_unit`).
pub const DELAY: ParamSpec = ParamSpec {
    name: "delay",
    default: 0,
    min: 0,
    max: 16,
    doc: "extra cycles between the memory stage and the issue stage",
    source: "thesis: 0 (the tracker sits beside the issue stage)",
};

crate::block_params! {
    /// Parameters of the credit MSHR tracker.
    pub struct CreditTrackerParams {
        mshrs: u32 = shared(MSHRS),
        delay: u32 = shared(DELAY),
    }
}

impl CreditTrackerParams {
    /// Width of the two's-complement pool.
    pub fn pool_bits(&self) -> u32 {
        clog2(self.mshrs as u64 + 1) + 1
    }
}

/// The credit tracker's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreditTrackerIo<H> {
    pub rst: H,
    pub iss_take: H,
    pub mem_valid: H,
    pub mem_credited: H,
    pub mem_alloc: H,
    pub mshr_free: H,
    pub credit_avail: H,
    pub pool: H,
}

impl Interface for CreditTrackerParams {
    type Io<H> = CreditTrackerIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> CreditTrackerIo<B::H> {
        CreditTrackerIo {
            rst: b.reset(),
            iss_take: b.input("iss_take", 1),
            mem_valid: b.input("mem_valid", 1),
            mem_credited: b.input("mem_credited", 1),
            mem_alloc: b.input("mem_alloc", 1),
            mshr_free: b.input("mshr_free", 1),
            credit_avail: b.output("credit_avail", 1),
            pool: b.output("pool", self.pool_bits()),
        }
    }
}

impl Block for CreditTrackerParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "credit MSHR tracker: a credit pool, one credit per MSHR, virtual credits, delayed returns";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, section 6.0.1, Figure 6.3";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        credit_tracker(self, name)
    }

    /// The thesis gives no bit figure ("a few bits of state", section 7.2.4).
    fn storage(&self) -> StorageAccount {
        StorageAccount::default()
            .differs(self.pool_bits() as i64, "the credit pool, two's complement (no thesis figure)")
            .differs(3 * self.delay as i64, "three delay lines of `delay` bits (returns, virtual credits, frees)")
    }
}

/// Generate the credit tracker.
pub fn credit_tracker(p: &CreditTrackerParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Credit MSHR tracker (Turner, MASc thesis, UBC 2012, section 6.0.1, Figure 6.3): a pool of {} credits, \
         one per MSHR; memory-stage events reach the pool {} cycle(s) after the edge that registers them.",
        p.mshrs, p.delay
    ));
    let pb = p.pool_bits();
    let io = p.decls();
    let iss_take = m.port(&io.iss_take);
    let mem_valid = m.port(&io.mem_valid);
    let mem_credited = m.port(&io.mem_credited);
    let mem_alloc = m.port(&io.mem_alloc);
    let mshr_free = m.port(&io.mshr_free);

    let pool = m.reg("credits", pb, p.mshrs as u64);
    // pool > 0, two's complement.
    m.port(&io.credit_avail).set(!pool.msb() & pool.any());
    m.port(&io.pool).set(pool);

    let ret = (mem_valid & mem_credited & !mem_alloc).named("ret");
    let virt = (mem_valid & !mem_credited & mem_alloc).named("virt");
    // The delay lines: bit 0 takes this cycle's event, bit delay-1 is the oldest.
    let delayed = |name: &str, now: Sig| -> Sig {
        if p.delay == 0 {
            return now;
        }
        let line = m.reg(name, p.delay, 0);
        line.set(if p.delay == 1 { now } else { cat(&[line.trunc(p.delay - 1), now]) });
        line.msb()
    };
    let ret_d = delayed("ret_line", ret);
    let virt_d = delayed("virt_line", virt);
    let free_d = delayed("free_line", mshr_free);
    let up = |b: Sig| b.zext(pb);
    pool.set(pool - up(iss_take) + up(ret_d) - up(virt_d) + up(free_d));
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<CreditTrackerParams>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_storage() {
        let d = CreditTrackerParams::default();
        assert_eq!(d.pool_bits(), 7);
        assert_eq!(d.storage().expected_bits(), 7);
    }
}
