//! Replay in the SM: seed 004's Figure 5.4 walk-through (one warp's warp
//! buffer: partial completion, total squash, oldest first) on
//! kernels/micro/replay_fig54.cu, as clang compiles it:
//!
//! | PC | instruction | Figure 5.4 |
//! |---|---|---|
//! | 0x00, 0x08 | ld.param.u64 (the pointers; one pass each) | |
//! | 0x40 | ld.global.f64 R0:R1, [R0:R1] (32 lanes x 8 B: two lines) | A |
//! | 0x58 | @P0 bra 0x88 (lanes 16-31 take it) | B |
//! | 0x60 | ld.param.u64 (lanes 0-15) | (one pass) |
//! | 0x80 | ld.global.f32 R5, [R4:R5+4096] (lanes 0-15: one line) | C |
//! | 0xa8 | st.global.f32 (after reconvergence) | D, E |
//!
//! One scheduler and one MSHR: A's first pass takes the MSHR for its first
//! line and completes lanes 0-15 (the rest: a DIV squash); C finds no MSHR
//! and completes nothing (an MSHR squash, known to miss).

use kernel::{load, CompileOptions, LaunchFile};
use sm::core::replay::ReplayEventKind::{self, *};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

const A: u32 = 0x40;
const PARAM: u32 = 0x60;
const C: u32 = 0x80;
const STORE: u32 = 0xa8;
const LO: u32 = 0x0000_ffff;
const HI: u32 = 0xffff_0000;

fn fig54(engine: Engine, sets: &[&str]) -> Vec<(u32, ReplayEventKind)> {
    let o = fig54_run(engine, sets).unwrap();
    o.replay_events.iter().map(|e| (e.pc, e.kind)).collect()
}

fn fig54_run(engine: Engine, sets: &[&str]) -> Result<sm::run::Outcome, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/micro");
    let m = load(&root.join("replay_fig54.cu"), &CompileOptions::default()).unwrap();
    let k = m.only_kernel().unwrap().clone();
    let launch = "grid = [1]\nblock = [32]\nargs = [\"a\", \"c\", \"out\"]\n\
        [buffers.a]\ntype = \"f64\"\nlen = 32\ninit = { random = { seed = 3, min = -4.0, max = 4.0 } }\n\
        [buffers.c]\ntype = \"f32\"\nlen = 1056\ninit = { random = { seed = 4, min = -4.0, max = 4.0 } }\n\
        [buffers.out]\ntype = \"f32\"\nlen = 32\n";
    let l = LaunchFile::parse(launch, &root.join("replay_fig54.toml")).unwrap().bind(&m, &k).unwrap();
    let golden = kernel::run_functional(&k, &l, &kernel::RunOptions::default()).unwrap();
    let mut cfg = Config::preset("ubc12_replay").single_sm();
    for s in ["core.schedulers=1", "core.max_threads=256", "core.max_warps=8", "l1.mshrs=1", "mode=\"replay\""].iter().chain(sets) {
        cfg = cfg.with_override(s).unwrap();
    }
    let o = sm::run::simulate(Arc::new(k), Arc::new(l), &cfg, engine, Outputs { log_replay: true, ..Outputs::default() })?;
    assert!(o.memory == golden.memory);
    Ok(o)
}

/// The rules of §5.2–5.3 on the log: first issues in program order with the
/// warp's lanes as their private masks; every replay carries exactly the
/// threads not yet completed; every thread completes once; while A and C
/// are both marked for replay, A (the older) goes first.
fn check_rules(log: &[(u32, ReplayEventKind)]) {
    let firsts: Vec<(u32, u32)> = log.iter().filter_map(|&(pc, k)| matches!(k, Issue { .. }).then_some((pc, if let Issue { pam } = k { pam } else { 0 }))).collect();
    assert_eq!(firsts, [(0x0, u32::MAX), (0x8, u32::MAX), (A, u32::MAX), (PARAM, LO), (C, LO), (STORE, u32::MAX)]);
    for &(pc, _) in &firsts {
        let mut pending = firsts.iter().find(|f| f.0 == pc).unwrap().1;
        let mut ready = false;
        for &(_, k) in log.iter().filter(|e| e.0 == pc) {
            match k {
                Issue { .. } => {}
                Replay { pam } => {
                    assert!(ready && pam == pending, "{pc:#x}: replay of {pam:#x}, pending {pending:#x}");
                    ready = false;
                }
                Checkpoint { completed, .. } => {
                    assert_eq!(completed & !pending, 0, "{pc:#x}: threads {completed:#x} complete twice");
                    pending &= !completed;
                    ready = pending != 0;
                }
            }
        }
        assert_eq!(pending, 0, "{pc:#x} never completed");
    }
    // Oldest first: no replay of C while A is marked for replay.
    let mut a_ready = false;
    for &(pc, k) in log {
        match (pc, k) {
            (A, Checkpoint { completed, .. }) => a_ready = completed != HI,
            (A, Replay { .. }) => a_ready = false,
            (C, Replay { .. }) => assert!(!a_ready, "C replayed while A, older, waited"),
            _ => {}
        }
    }
}

#[test]
fn figure_5_4_walk_through() {
    for engine in [Engine::Model, Engine::Compiled] {
        // Plain replay: A and C replay, oldest first, until the MSHR frees.
        let log = fig54(engine, &[]);
        check_rules(&log);
        let first_checkpoint = |pc: u32| log.iter().find_map(|&(p, k)| (p == pc && matches!(k, Checkpoint { .. })).then_some(k)).unwrap();
        // A: the DIV hazard completes the first line's lanes, the rest replay (not a known miss).
        assert_eq!(first_checkpoint(A), Checkpoint { completed: LO, miss: false });
        // C: no free MSHR, nothing completes; known to miss.
        assert_eq!(first_checkpoint(C), Checkpoint { completed: 0, miss: true });
        assert_eq!(first_checkpoint(PARAM), Checkpoint { completed: LO, miss: false });
        // A's remaining lanes complete before C's (it was first in line for the MSHR).
        let done = |pc: u32, m: u32| log.iter().position(|&(p, k)| p == pc && k == Checkpoint { completed: m, miss: false }).unwrap();
        assert!(done(A, HI) < done(C, LO));
        // Without a tracker both replay into the full table until the MSHR frees.
        let replays = |log: &[(u32, ReplayEventKind)], pc: u32| log.iter().filter(|&&(p, k)| p == pc && matches!(k, Replay { .. })).count();
        assert!(replays(&log, A) > 2 && replays(&log, C) > 2, "{engine}: A {} C {}", replays(&log, A), replays(&log, C));

        // The credit tracker (one credit) with the always-hit predictor: a
        // replay known to miss waits for the credit instead of replaying
        // into a full MSHR table. A's DIV squash is not a known miss, so A
        // replays once into the busy MSHR; from then on A and C are known
        // misses and each replays exactly once more, when the credit is
        // back: A three passes, C two.
        let log = fig54(engine, &["replay.tracker=\"credit\""]);
        check_rules(&log);
        let passes = |pc: u32| log.iter().filter(|&&(p, k)| p == pc && matches!(k, Checkpoint { .. })).count();
        assert_eq!((passes(A), passes(C), passes(PARAM), passes(STORE)), (3, 2, 1, 1), "{engine}: {log:?}");
    }
}

/// A replay storm is no progress: while the only MSHR waits on a slow DRAM,
/// A and C replay into the full table again and again; with a no-progress
/// limit shorter than the wait the run stops with the deadlock report, with
/// a longer one it finishes and reports the storm (the most passes of one
/// instruction).
#[test]
fn replay_storm_is_not_progress() {
    let slow = ["memory.dram_latency=6000"];
    let e = fig54_run(Engine::Model, &[slow[0], "limits.deadlock_cycles=2000"]).err().expect("stopped");
    assert!(e.contains("deadlock: no progress for 2000 cycles") && e.contains("warp 0"), "{e}");
    let o = fig54_run(Engine::Model, &[slow[0], "limits.deadlock_cycles=20000"]).unwrap();
    let r = &o.stats.replay;
    assert!(r.max_passes > 100 && r.replays == r.squashed.iter().sum::<u64>(), "{r:?}");
}
