//! `mshr_table` — the L1 data cache's miss status holding registers with request merging
//! (Turner, MASc thesis, UBC 2012, seed 004: §1.1.7 "Hazards in the Pipeline", Figures
//! 1.5-1.6 and the MSHR hazard; 32 MSHRs per L1 data cache in Table 4.2).
//!
//! One request per cycle comes from the memory stage (the one MEM unit of Table 4.2) after
//! a cache miss: it merges into the entry already pending for its line, or allocates a new
//! entry, or is rejected — the MSHR hazard that makes the load replay. A fill (the line
//! returning from the interconnect, identified by the entry index the request carried)
//! frees the entry and wakes every request merged into it.
//!
//! # Parameters
//!
//! | name          | default | range    | meaning |
//! |---------------|---------|----------|---------|
//! | `entries`     | 32      | 1..=256  | MSHRs (Table 4.2, L1 data cache) |
//! | `merge_limit` | 8       | 1..=64   | requests one entry can hold, the allocating one included |
//! | `line_bits`   | 25      | 1..=64   | line address width: 32-bit byte address, 128-byte lines (Table 4.2) |
//! | `id_bits`     | 8       | 1..=32   | width of the opaque request tag woken at fill |
//!
//! The thesis gives neither a merge limit nor what a merged request stores ("which threads
//! requested it, which parts of the load these threads needed, and where to write the
//! results", §1.1.7). `merge_limit = 8` is GPGPU-Sim 3.x's L1D setting (`A:32:8`: 32
//! associative MSHRs, 8 merged requests), the simulator the thesis extends. A request is
//! an opaque `id_bits` tag (by default an index into a 256-entry pending-load buffer that
//! holds thread masks, word offsets and the destination register — outside this block).
//!
//! Notation: `E = clog2(entries)`, `M = merge_limit`, `L = line_bits`, `I = id_bits`.
//!
//! # Ports
//!
//! | port          | dir | width            | meaning |
//! |---------------|-----|------------------|---------|
//! | `rst`         | in  | 1                | synchronous active-high reset |
//! | `req_valid`   | in  | 1                | a missing load asks for an MSHR this cycle |
//! | `req_addr`    | in  | L                | its line address (also the probe address) |
//! | `req_id`      | in  | I                | its tag |
//! | `fill_valid`  | in  | 1                | a line returns this cycle |
//! | `fill_entry`  | in  | E                | the entry it belongs to |
//! | `probe_hit`   | out | 1                | a valid entry holds `req_addr` (looked up whether or not `req_valid`) |
//! | `probe_entry` | out | E                | that entry (0 when no hit) |
//! | `req_ok`      | out | 1                | the request is accepted (merged or allocated) |
//! | `req_merged`  | out | 1                | accepted into an existing entry |
//! | `req_entry`   | out | E                | the entry merged into or allocated (0 when not accepted) |
//! | `full`        | out | 1                | no free entry (`free_count == 0`) |
//! | `free_count`  | out | clog2(entries+1) | free entries at the start of this cycle |
//! | `fill_ok`     | out | 1                | the fill names a valid entry and frees it |
//! | `fill_addr`   | out | L                | line address of the filled entry (0 when not `fill_ok`) |
//! | `wake_valid`  | out | M                | bit k: request k of the filled entry is valid (k < count) |
//! | `wake_ids`    | out | M*I              | bits [k*I, (k+1)*I): tag of request k, oldest first; 0 beyond count |
//!
//! # State
//!
//! Per entry: `valid` (one `entries`-bit register, so the lowest free entry, the free count
//! and `full` are a priority encoder, a population count and an AND over it), the line
//! address in the register array `addr` (L bits; every word is compared with `req_addr`
//! each cycle, the associative search) and `more` = requests - 1 in the register array
//! `more` (E_m = clog2(M) bits; read at the probed and at the filled entry); the request
//! tags in `M` RAMs `tags0 .. tags{M-1}` of `entries x I` bits, RAM `k` holding request `k`
//! of every entry (one write port each, used only by the one allocate/merge of a cycle;
//! one read port each, all read at `fill_entry`). Reset clears `valid` (and `addr`,
//! `more`); the tag RAMs are not reset: a tag is always written before any read of it can
//! be unmasked (the wake-up outputs AND each tag with its valid bit).
//!
//! # Cycle semantics
//!
//! Combinational:
//! * probe: `probe_hit` / `probe_entry` from comparing `req_addr` with every valid entry
//!   (at most one can match: a line is only allocated on a probe miss).
//! * `fill_ok = fill_valid & fill_entry < entries & valid[fill_entry]`; the fill outputs
//!   show that entry's address and tags.
//! * request (when `req_valid`):
//!   - probe hit and the entry is being filled this cycle (`fill_ok` and `fill_entry ==
//!     probe_entry`): **rejected** — the line arrives now and will be in the cache next
//!     cycle, so the load replays and hits (no wake-up bypass, no second entry per line);
//!   - probe hit and `more + 1 < M`: **merged** (`req_entry = probe_entry`);
//!   - probe hit at the merge limit: **rejected** (GPGPU-Sim's "MSHR full" for the line;
//!     a second entry for the same line is never allocated);
//!   - probe miss and a free entry: **allocated**, the lowest-index free entry as seen at
//!     the start of the cycle (an entry freed by this cycle's fill is allocatable from the
//!     next cycle on; `free_count` is also taken from the registers);
//!   - probe miss and none free: **rejected** (the MSHR hazard).
//!
//! At the rising edge (`rst` overrides): merge writes `req_id` to `tags_more+1[e]` and
//! increments `more`; allocate sets `valid`, `addr`, `more = 0` and writes `tags_0[e]`;
//! `fill_ok` clears `valid[fill_entry]`. A merge and a fill never touch the same entry
//! (rejected above); an allocation never takes the entry being filled (it is not free at
//! the start of the cycle).
//!
//! Out of range: `fill_entry >= entries` (non-power-of-two `entries`) or a fill of a free
//! entry does nothing (`fill_ok = 0`).
//!
//! # Storage
//!
//! `entries * (1 + L + clog2(M))` flip-flops + `M * entries * I` memory bits =
//! 32 * 29 + 8 * 32 * 8 = 928 + 2048 = **2976 bits** at the defaults. The thesis gives only
//! the number of MSHRs, no bit figure, so there is no `paper_storage` for this block.

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::params::clog2;
use crate::registry::{Block, StorageAccount};
use crate::util::gate;
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "mshr_table";

crate::block_params! {
    /// Parameters of the MSHR table.
    pub struct MshrTableParams {
        entries: u32 = shared(super::credit_tracker::MSHRS.renamed("entries")),
        merge_limit: u32 = spec {
            8, 1..=64,
            "requests per entry, the allocating one included",
            "GPGPU-Sim 3.x L1D: 8 (the thesis gives none)"
        },
        line_bits: u32 = spec { 25, 1..=64, "line address bits", "32-bit addresses, 128-byte lines" },
        id_bits: u32 = spec { 8, 1..=32, "width of the request tag woken at fill", "not in the thesis: 8 bits" },
    }
}

impl MshrTableParams {
    /// Width of an entry index.
    pub fn entry_bits(&self) -> u32 {
        clog2(self.entries as u64)
    }
    /// Width of `free_count` (0..=entries).
    pub fn count_bits(&self) -> u32 {
        clog2(self.entries as u64 + 1)
    }
    /// Width of the per-entry `more` field (requests - 1).
    pub fn more_bits(&self) -> u32 {
        clog2(self.merge_limit as u64)
    }
}

/// The MSHR table's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MshrTableIo<H> {
    pub rst: H,
    pub req_valid: H,
    pub req_addr: H,
    pub req_id: H,
    pub fill_valid: H,
    pub fill_entry: H,
    pub probe_hit: H,
    pub probe_entry: H,
    pub req_ok: H,
    pub req_merged: H,
    pub req_entry: H,
    pub full: H,
    pub free_count: H,
    pub fill_ok: H,
    pub fill_addr: H,
    pub wake_valid: H,
    pub wake_ids: H,
}

impl Interface for MshrTableParams {
    type Io<H> = MshrTableIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> MshrTableIo<B::H> {
        let (e, l, i, mm) = (self.entry_bits(), self.line_bits, self.id_bits, self.merge_limit);
        MshrTableIo {
            rst: b.reset(),
            req_valid: b.input("req_valid", 1),
            req_addr: b.input("req_addr", l),
            req_id: b.input("req_id", i),
            fill_valid: b.input("fill_valid", 1),
            fill_entry: b.input("fill_entry", e),
            probe_hit: b.output("probe_hit", 1),
            probe_entry: b.output("probe_entry", e),
            req_ok: b.output("req_ok", 1),
            req_merged: b.output("req_merged", 1),
            req_entry: b.output("req_entry", e),
            full: b.output("full", 1),
            free_count: b.output("free_count", self.count_bits()),
            fill_ok: b.output("fill_ok", 1),
            fill_addr: b.output("fill_addr", l),
            wake_valid: b.output("wake_valid", mm),
            wake_ids: b.output("wake_ids", mm * i),
        }
    }
}

impl Block for MshrTableParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str = "L1D MSHRs with request merging: probe, allocate / merge / reject, fill and wake-up";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, section 1.1.7 (MSHR hazard), Table 4.2";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        mshr_table(self, name)
    }

    /// The thesis gives no bit figure.
    fn storage(&self) -> StorageAccount {
        let e = self.entries as i64;
        StorageAccount::default()
            .differs(e * (1 + self.line_bits as i64 + self.more_bits() as i64), "per entry: valid, line address, merge count (no thesis figure)")
            .differs(e * self.merge_limit as i64 * self.id_bits as i64, "per entry: one request tag per merge position")
    }
}

/// Generate the MSHR table.
pub fn mshr_table(p: &MshrTableParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "L1D miss status holding registers with request merging (Turner, MASc thesis, UBC 2012, section 1.1.7): \
         {} entries of a {}-bit line address, up to {} merged {}-bit request tags each.",
        p.entries, p.line_bits, p.merge_limit, p.id_bits
    ));
    let (ne, e, l, i, mm) = (p.entries, p.entry_bits(), p.line_bits, p.id_bits, p.merge_limit);

    let io = p.decls();
    let req_valid = m.port(&io.req_valid);
    let req_addr = m.port(&io.req_addr);
    let req_id = m.port(&io.req_id);
    let fill_valid = m.port(&io.fill_valid);
    let fill_entry = m.port(&io.fill_entry);

    // Valid bits as one vector (free search, count, full); addresses and merge counts in
    // register arrays; the request tags in one RAM per merge position.
    let valid = m.reg("valid", ne, 0);
    let addr = m.reg_array("addr", ne, l, 0);
    let more = m.reg_array("more", ne, p.more_bits(), 0);
    let tags: Vec<_> = (0..mm).map(|k| m.mem(&format!("tags{k}"), ne, i)).collect();

    // Associative probe: every entry compares its line with the request's.
    let hits: Vec<Sig> = (0..ne).rev().map(|x| valid.bit(x) & addr.at(x).eq(req_addr)).collect();
    let hits = cat(&hits).named("probe_hits");
    let probe_hit = hits.any();
    let probe_entry = hits.ffs().resize(e).named("probe_entry_w");
    m.port(&io.probe_hit).set(probe_hit);
    m.port(&io.probe_entry).set(probe_entry);

    // Fill.
    let fill_ok = (fill_valid & valid.bit_at(fill_entry)).named("fill_ok_w");
    let fill_more = more.read(fill_entry);

    // Request decision.
    let free = !valid;
    let any_free = free.any();
    let free_entry = free.ffs().resize(e).named("free_entry");
    let probe_more = more.read(probe_entry);
    let filling = fill_ok & fill_entry.eq(probe_entry);
    // Room for one more request (never with a merge limit of 1: no constant compare).
    let room = if mm == 1 { lit(0, 1) } else { probe_more.lt((mm - 1) as u64) };
    let merge = (req_valid & probe_hit & !filling & room).named("merge");
    let alloc = (req_valid & !probe_hit & any_free).named("alloc");
    let req_ok = merge | alloc;
    m.port(&io.req_ok).set(req_ok);
    m.port(&io.req_merged).set(merge);
    m.port(&io.req_entry).set(gate(merge, probe_entry) | gate(alloc, free_entry));
    m.port(&io.full).set(!any_free);
    m.port(&io.free_count).set(free.count_ones().resize(p.count_bits()));

    // Writes: an allocation fills tag 0 and resets the count, a merge appends its tag.
    let slot = (probe_more + 1u64).named("merge_pos");
    for (k, t) in tags.iter().enumerate() {
        if k == 0 {
            t.write(free_entry, req_id, alloc);
        } else {
            t.write(probe_entry, req_id, merge & slot.eq(k as u64));
        }
    }
    addr.write(free_entry, req_addr, alloc);
    more.write(free_entry, lit(0, p.more_bits()), alloc);
    more.write(probe_entry, slot, merge);
    valid.set((valid | gate(alloc, onehot(free_entry, ne))) & !gate(fill_ok, onehot(fill_entry, ne)));

    // Fill outputs: the entry's line and its requests, oldest first.
    m.port(&io.fill_ok).set(fill_ok);
    m.port(&io.fill_addr).set(gate(fill_ok, addr.read(fill_entry)));
    let wake: Vec<Sig> = (0..mm).map(|k| if k == 0 { fill_ok } else { fill_ok & fill_more.ge(k as u64) }).collect();
    let wake_rev: Vec<Sig> = wake.iter().rev().copied().collect();
    m.port(&io.wake_valid).set(cat(&wake_rev));
    let ids: Vec<Sig> = (0..mm as usize).rev().map(|k| gate(wake[k], tags[k].read(fill_entry))).collect();
    m.port(&io.wake_ids).set(cat(&ids));
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<MshrTableParams>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_storage() {
        assert_eq!(MshrTableParams::default().storage().expected_bits(), 2976);
    }
}
