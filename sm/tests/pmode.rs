//! Warp pre-execution in the SM: the single-warp walk-through of seed 000
//! Figure 5 (slides: seed 001) as a golden trace of the P-mode unit's
//! decisions, instance by instance.

use kernel::{load, CompileOptions, LaunchFile};
use sm::blocks::Action::{self, *};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

/// kernels/micro/fig5.cu as clang compiles it (one warp, four iterations,
/// every load to a new line). The loop body and the paper's names:
///
/// | PC | instruction | paper (Figure 5) |
/// |---|---|---|
/// | 0x58 | mul.wide R10:R11, R8, 4 | (address) |
/// | 0x60 | add.s64 R10:R11, R2:R3, R10:R11 | (address) |
/// | 0x68 | ld.global R10, [R10:R11] | 0x80 ld.global $r0, [$r1] |
/// | 0x70 | add.s32 R9, R9, 1 | 0x88 add $r2, $r2, #1 |
/// | 0x78 | mad.lo R7, R10, R9, R7 | 0x90 mul $r3, $r0, $r2 |
/// | 0x80 | add.s32 R8, R8, R0 | 0x98 sub $r1, $r2, $r5 |
/// | 0x88 | setp.ne P0, R1, R9 | 0xA0 set.lt $r4, $r1, $r2 |
/// | 0x90 | @P0 bra 0x58 | 0xA8 $r4 br 0x80 |
fn fig5(engine: Engine) -> sm::run::Outcome {
    fig5_with(engine, &[]).0
}

/// fig5 under the P-mode preset with `overrides`; also the kernel.
fn fig5_with(engine: Engine, overrides: &[&str]) -> (sm::run::Outcome, kernel::Kernel) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/micro");
    let m = load(&root.join("fig5.cu"), &CompileOptions::default()).unwrap();
    let k = m.only_kernel().unwrap().clone();
    let launch = "grid = [1]\nblock = [32]\nargs = [\"a\", \"out\", 4, 64]\n\
        [buffers.a]\ntype = \"i32\"\nlen = 320\ninit = { random = { seed = 5, min = 1, max = 9 } }\n\
        [buffers.out]\ntype = \"i32\"\nlen = 32\n";
    let l = LaunchFile::parse(launch, &root.join("fig5.toml")).unwrap().bind(&m, &k).unwrap();
    let golden = kernel::run_functional(&k, &l, &kernel::RunOptions::default()).unwrap();
    let mut cfg = Config::preset("hpca16_pmode").single_sm().with_override("mode=\"pmode\"").unwrap();
    for o in overrides {
        cfg = cfg.with_override(o).unwrap();
    }
    let o = sm::run::simulate(Arc::new(k.clone()), Arc::new(l), &cfg, engine, Outputs { log_actions: true, ..Outputs::default() }).unwrap();
    assert!(o.memory == golden.memory);
    (o, k)
}

#[test]
fn figure_5_walk_through() {
    for engine in [Engine::Model, Engine::Compiled] {
        let o = fig5(engine);
        let loop_events: Vec<(bool, u32, Action)> =
            o.actions.iter().filter(|a| (0x58..=0x90).contains(&a.pc)).map(|a| (a.pmode, a.pc, a.action)).collect();
        const N: bool = false;
        const P: bool = true;
        let want: &[(bool, u32, Action)] = &[
            // N-mode, first iteration: the load issues (it will miss), the
            // independent add issues, and the load's first consumer finds its
            // source pending on a long-latency load: the warp enters P-mode.
            (N, 0x58, Issue),
            (N, 0x60, Issue),
            (N, 0x68, Issue),
            (N, 0x70, Issue),
            (N, 0x78, Trigger),
            // P-mode: the consumer is skipped; the next five instructions are
            // independent and pre-executed ("sub", "set.lt", "br" and the next
            // iteration's address), the second load becomes a pre-load, its
            // add is pre-executed, and the second consumer is skipped again.
            (P, 0x78, Skip),
            (P, 0x80, Preexec),
            (P, 0x88, Preexec),
            (P, 0x90, Preexec),
            (P, 0x58, Preexec),
            (P, 0x60, Preexec),
            (P, 0x68, Preload),
            (P, 0x70, Preexec),
            (P, 0x78, Skip),
            // The 8-entry P-queue fills (8 recorded instructions; branches are
            // not recorded); pre-execution goes on unrecorded (§5.1: with a
            // full queue P-mode is "only useful for pre-loading"): the third
            // and fourth iterations' loads are pre-loaded too, up to the
            // loop's last branch.
            (P, 0x80, Preexec),
            (P, 0x88, Preexec),
            (P, 0x90, Preexec),
            (P, 0x58, Preexec),
            (P, 0x60, Preexec),
            (P, 0x68, Preload),
            (P, 0x70, Preexec),
            (P, 0x78, Skip),
            (P, 0x80, Preexec),
            (P, 0x88, Preexec),
            (P, 0x90, Preexec),
            (P, 0x58, Preexec),
            (P, 0x60, Preexec),
            (P, 0x68, Preload),
            (P, 0x70, Preexec),
            (P, 0x78, Skip),
            (P, 0x80, Preexec),
            (P, 0x88, Preexec),
            (P, 0x90, Preexec),
            // The first load returns: back in N-mode at the blocked
            // instruction. The recorded instructions are reused in order; the
            // branch executes (branches are not recorded); the pre-loaded load
            // issues again (and hits or merges).
            (N, 0x78, Issue),
            (N, 0x80, Reuse),
            (N, 0x88, Reuse),
            (N, 0x90, Issue),
            (N, 0x58, Reuse),
            (N, 0x60, Reuse),
            (N, 0x68, Issue),
            (N, 0x70, Reuse),
            // The second consumer waits on the pre-loaded load (an L1 hit, but
            // a global load: long-latency on the scoreboard) and triggers
            // again once the first episode's results are all written back.
            // The new episode drops the three entries left (their offsets are
            // from the old base) and pre-executes them anew until the load
            // returns.
            (N, 0x78, Trigger),
            (P, 0x78, Skip),
            (P, 0x80, Preexec),
            (P, 0x88, Preexec),
            (P, 0x90, Preexec),
            (P, 0x58, Preexec),
            (N, 0x78, Issue),
            (N, 0x80, Reuse),
            (N, 0x88, Reuse),
            (N, 0x90, Issue),
            (N, 0x58, Reuse),
            // The P-queue is empty again: the third iteration runs as the
            // baseline would, its load pre-loaded, until its consumer
            // triggers a new episode.
            (N, 0x60, Issue),
            (N, 0x68, Issue),
            (N, 0x70, Issue),
            (N, 0x78, Trigger),
        ];
        assert!(loop_events.len() >= want.len(), "{engine}: {loop_events:?}");
        for (i, (got, want)) in loop_events.iter().zip(want).enumerate() {
            assert_eq!(got, want, "{engine}: event {i} of the loop: {loop_events:?}");
        }
        // The pre-loaded second and third loads: their consumers issue an L1
        // hit's time after them (not a DRAM round trip).
        let t = |pc: u32, n: usize| o.actions.iter().filter(|a| !a.pmode && a.pc == pc && a.action == Issue).nth(n).unwrap().cycle;
        for n in [1, 2] {
            assert!(t(0x78, n) - t(0x68, n) < 40, "{engine}: consumer {n} waited {} cycles", t(0x78, n) - t(0x68, n));
        }
        assert!(t(0x78, 0) - t(0x68, 0) > 400, "{engine}: the first load missed to DRAM");
        let p = &o.stats.pmode;
        assert_eq!(p.reuse_mismatches, 0);
        assert!(p.n_l1_hit_or_merge >= 1);
    }
}

/// Entering P-mode costs no other warp its issue slot (a TRIGGER is
/// deferred behind every N-mode warp that can issue): one scheduler, loose
/// round-robin, CTA 0's warp loads and needs the load at once, CTAs 1-3 have
/// 32 independent multiply-adds each. From the load's issue on, the
/// multiply-add warps issue in every cycle of their run; the load warp
/// enters P-mode when they stall, not in its round-robin turn.
#[test]
fn trigger_takes_no_issue_slot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/micro");
    let m = load(&root.join("trigger_slot.cu"), &CompileOptions::default()).unwrap();
    let k = m.only_kernel().unwrap().clone();
    let launch = "grid = [4]\nblock = [32]\nargs = [\"a\", \"out\", 3]\n\
        [buffers.a]\ntype = \"i32\"\nlen = 32\ninit = { random = { seed = 5, min = 1, max = 9 } }\n\
        [buffers.out]\ntype = \"i32\"\nlen = 128\n";
    let l = LaunchFile::parse(launch, &root.join("trigger_slot.toml")).unwrap().bind(&m, &k).unwrap();
    let golden = kernel::run_functional(&k, &l, &kernel::RunOptions::default()).unwrap();
    let mut cfg = Config::preset("hpca16_pmode").single_sm();
    for o in ["mode=\"pmode\"", "core.schedulers=1", "core.policy=\"lrr\""] {
        cfg = cfg.with_override(o).unwrap();
    }
    let o = sm::run::simulate(Arc::new(k), Arc::new(l), &cfg, Engine::Model, Outputs { log_actions: true, ..Outputs::default() }).unwrap();
    assert!(o.memory == golden.memory);
    let trigger = o.actions.iter().find(|a| a.action == Trigger).expect("the load warp enters P-mode");
    assert_eq!(trigger.warp, 0);
    let load = o.actions.iter().rfind(|a| a.warp == 0 && a.action == Issue && a.cycle < trigger.cycle).unwrap().cycle;
    for c in load + 1..=load + 20 {
        assert!(
            o.actions.iter().any(|a| a.cycle == c && a.warp != 0 && a.action == Issue),
            "cycle {c}: no multiply-add warp issued (TRIGGER at {}): {:?}",
            trigger.cycle,
            o.actions.iter().filter(|a| (load..=load + 20).contains(&a.cycle)).collect::<Vec<_>>()
        );
    }
}

/// Reused instructions come from the P-queue at fetch (§5.2): the head
/// entry moves into the instruction buffer, bypassing fetch and decode. With
/// a 30-cycle fetch and decode, Figure 5's reused instructions issue within
/// a few cycles of each other, where fetched ones wait for the fetch; every
/// reuse was moved at fetch.
#[test]
fn reuse_bypasses_fetch_and_decode() {
    for engine in [Engine::Model, Engine::Compiled] {
        let (o, _) = fig5_with(engine, &["core.fetch_latency=30"]);
        let p = &o.stats.pmode;
        assert!(p.reused >= 3 && p.fetch_moved >= p.reused, "{engine}: {p:?}");
        let n: Vec<(u64, Action)> = o.actions.iter().filter(|a| !a.pmode).map(|a| (a.cycle, a.action)).collect();
        let reuse_runs: Vec<u64> = n.windows(2).filter(|w| w[0].1 == Reuse && w[1].1 == Reuse).map(|w| w[1].0 - w[0].0).collect();
        assert!(!reuse_runs.is_empty(), "{engine}: consecutive reuses");
        assert!(reuse_runs.iter().all(|&d| d < 10), "{engine}: cycles between consecutive reuses {reuse_runs:?}");
        let issue_runs: Vec<u64> = n.windows(2).filter(|w| w[0].1 == Issue && w[1].1 == Issue).map(|w| w[1].0 - w[0].0).collect();
        assert!(issue_runs.iter().any(|&d| d >= 15), "{engine}: fetched instructions wait for the fetch {issue_runs:?}");
    }
}

/// The P-mode statistics count what the paper's figures count: Figure 11's
/// long-latency row is the N-mode global loads (shared, param and const
/// loads are short-latency), every N-mode instruction is in one row, and a
/// scheduler-cycle counts as issued when an instruction entered the
/// pipeline or was reused — a TRIGGER, SKIP or HALT issues nothing.
#[test]
fn pmode_accounting() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    for name in ["transpose_tiled", "reduction", "pmode_loop", "spmv"] {
        let m = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
        let k = m.only_kernel().unwrap().clone();
        let l = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&m, &k).unwrap();
        let mut prof = kernel::tsched::InstProfile::new(&k);
        kernel::run_profiled(&k, &l, &mut l.memory.clone(), &kernel::RunOptions::default(), &mut prof).unwrap();
        let global_loads: u64 = k
            .insts
            .iter()
            .zip(&prof.counts)
            .filter(|(i, _)| i.mem.is_some_and(|m| m.kind == kernel::MemKind::Load && matches!(m.space, kernel::Space::Global | kernel::Space::Generic)))
            .map(|(_, c)| c.execs)
            .sum();
        let cfg = Config::preset("hpca16_pmode").single_sm().with_override("mode=\"pmode\"").unwrap();
        let o = sm::run::simulate(Arc::new(k), Arc::new(l), &cfg, Engine::Model, Outputs::default()).unwrap();
        let (s, p) = (&o.stats, &o.stats.pmode);
        assert!(p.switches > 0 && p.skipped > 0, "{name}: P-mode ran ({p:?})");
        assert_eq!(p.reuse_mismatches, 0, "{name}");
        assert_eq!(p.cover_long.iter().sum::<u64>(), global_loads, "{name}: Figure 11's long row is the global loads");
        assert_eq!(p.cover_short.iter().sum::<u64>() + global_loads, s.warp_insts, "{name}: every N-mode instruction in a row");
        let issued = s.breakdown.get(sm::stats::Stall::Issued);
        assert_eq!(issued, s.warp_insts + p.pre_executed + p.pre_loads, "{name}: issued scheduler-cycles");
    }
}

/// A warp enters P-mode again while its P-queue still holds entries of the
/// last episode (Figure 5's second consumer above; with 16 entries the queue
/// records further past it): the new episode drops them, and the SM's count
/// of dropped entries is what the decisions imply.
#[test]
fn trigger_drops_entries_left() {
    for entries in ["pmode.pqueue_entries=8", "pmode.pqueue_entries=16"] {
        let (o, _) = fig5_with(Engine::Model, &[entries]);
        let (mut left, mut dropped, mut triggers) = (0u64, 0u64, 0);
        for a in &o.actions {
            match a.action {
                Trigger => {
                    triggers += (left > 0) as u32;
                    dropped += left;
                    left = 0;
                }
                Reuse => left -= 1,
                Preexec if a.recorded => left += 1,
                _ => {}
            }
        }
        assert!(triggers >= 1, "{entries}: no trigger with entries left");
        assert_eq!(o.stats.pmode.pqueue_dropped, dropped, "{entries}");
        assert_eq!(o.stats.pmode.reuse_mismatches, 0);
    }
}

/// Without a P-queue (`pmode.pqueue_entries = 0`, the paper's NoPQ) P-mode
/// still pre-executes — renamed, never recorded or reused — so that the
/// loads whose addresses it computes are pre-loaded (§5.1: "P-mode is only
/// useful for pre-loading cache lines"). In Figure 5's loop every later
/// iteration's load is pre-loaded and its consumer waits an L1 hit's time.
#[test]
fn no_pqueue_pre_executes_for_pre_loads() {
    for engine in [Engine::Model, Engine::Compiled] {
        let (o, k) = fig5_with(engine, &["pmode.pqueue_entries=0"]);
        let p = &o.stats.pmode;
        let count = |f: &dyn Fn(&sm::core::pmode::ActionEvent) -> bool| o.actions.iter().filter(|a| f(a)).count() as u64;
        let unrecorded = count(&|a| a.action == Preexec && !a.recorded && !k.insts[(a.pc / kernel::INST_BYTES) as usize].is_branch());
        assert!(unrecorded > 0 && p.pqueue_full == unrecorded, "{engine}: {p:?}");
        assert_eq!((p.reused, count(&|a| a.action == Reuse)), (0, 0), "{engine}");
        assert!(count(&|a| a.action == Preload) >= 3, "{engine}: {:?}", o.actions);
        let t = |pc: u32, n: usize| o.actions.iter().filter(|a| !a.pmode && a.pc == pc && a.action == Issue).nth(n).unwrap().cycle;
        assert!(t(0x78, 1) - t(0x68, 1) < 40, "{engine}: second consumer waited {} cycles", t(0x78, 1) - t(0x68, 1));
    }
}
