//! Every kernel of the suite on the timing SM leaves the functional model's
//! final memory.

use kernel::{load, CompileOptions, LaunchFile, RunOptions};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

fn run(name: &str, cfg: &Config, engine: Engine) -> sm::Stats {
    run_with(name, cfg, engine, Outputs::default())
}

fn run_with(name: &str, cfg: &Config, engine: Engine, outputs: Outputs) -> sm::Stats {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let launch = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&module, &k).unwrap();
    let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap();
    let out = sm::run::simulate(Arc::new(k), Arc::new(launch), cfg, engine, outputs).unwrap();
    assert!(out.memory == golden.memory, "{name}: final memory differs from the functional model");
    // Instruction counts can differ where threads race benignly (BFS: which
    // thread finds a node unvisited first); the final memory cannot. A
    // decoupled kernel executes fewer instructions.
    if name != "bfs" && cfg.mode != sm::Mode::Dac {
        assert_eq!(out.stats.thread_insts, golden.stats.thread_insts, "{name}");
    }
    out.stats
}

#[test]
fn vecadd_netlist() {
    let s = run("vecadd", &Config::preset("hpca16_pmode").single_sm(), Engine::Netlist);
    println!("{}", s.table());
}

/// Statistics without the engine's name.
fn same(mut s: sm::Stats) -> String {
    s.engine.clear();
    s.json()
}

/// Every kernel gives identical cycles and statistics with its blocks on the
/// reference models and on their netlists (interpreted and compiled).
#[test]
fn suite_engines_agree() {
    let c = Config::preset("hpca16_pmode").single_sm();
    for name in SUITE {
        let m = same(run(name, &c, Engine::Model));
        for e in [Engine::Netlist, Engine::Compiled] {
            assert_eq!(same(run(name, &c, e)), m, "{name} on {e}");
        }
    }
}

const SUITE: &[&str] = &[
    "vecadd", "saxpy", "reduction", "histogram", "scan", "transpose_naive", "transpose_tiled", "sgemm", "stencil2d", "spmv", "bfs",
    "pathfinder", "pmode_loop", "dac_fig4",
];

#[test]
fn suite_all_presets_and_policies() {
    for name in SUITE {
        for preset in ["hpca16_pmode", "isca17_dac", "ubc12_replay"] {
            for policy in sm::Policy::ALL {
                let c = Config::preset(preset).single_sm().with_override(&format!("core.policy=\"{policy}\"")).unwrap();
                let t = std::time::Instant::now();
                let s = run(name, &c, Engine::Model);
                println!("{name:16} {preset:13} {policy:9} cycles {:8} ipc {:6.2} ({:?})", s.cycles, s.ipc, t.elapsed());
            }
        }
    }
}

/// DAC mode (seed 003): every kernel decoupled, under every policy, on one
/// SM and on the whole GPU, leaves the functional model's memory; a
/// decoupled kernel's non-affine warps dequeue every global load of Figure
/// 4's kernel, and it runs in fewer warp instructions and cycles.
#[test]
fn suite_dac_every_policy() {
    let base = Config::preset("isca17_dac").single_sm();
    for name in SUITE {
        for policy in sm::Policy::ALL {
            let c = base.with_override(&format!("core.policy=\"{policy}\"")).unwrap().with_override("mode=dac").unwrap();
            let s = run(name, &c, Engine::Model);
            assert!(s.dac.unchanged.is_empty(), "{name}: {}", s.dac.unchanged);
            assert!(s.dac.affine_insts > 0 && s.dac.records > 0, "{name} {policy}");
            assert_eq!(s.dac.locks_left, 0, "{name} {policy}: every prefetch lock was taken off by its dequeue");
            assert_eq!(s.dac.tuple_mismatches, 0, "{name} {policy}: every enqueued address is its affine tuple's value");
            assert_eq!(s.dac.expansion_mismatches, 0, "{name} {policy}: the dac_unit's records and masks are the functional model's");
            println!("{name:16} {policy:9} cycles {:8} warp insts {:7} affine {:6} loads {:5} dequeued {:5}", s.cycles, s.warp_insts, s.dac.affine_insts, s.dac.loads, s.dac.decoupled_loads);
        }
    }
    let gpu = Config::preset("isca17_dac");
    let b = run("dac_fig4", &gpu, Engine::Model);
    let d = run("dac_fig4", &gpu.with_override("mode=dac").unwrap(), Engine::Model);
    assert_eq!(d.dac.decoupled_loads, d.dac.loads);
    assert!(d.dac.loads > 0);
    assert!(d.warp_insts + d.dac.affine_insts < b.warp_insts, "{} + {} vs {}", d.warp_insts, d.dac.affine_insts, b.warp_insts);
    assert!(d.cycles < b.cycles, "{} vs {} cycles", d.cycles, b.cycles);
    // Section 4.2: the next tile's loads wait for the CTA's barrier.
    let s = run("sgemm", &gpu.with_override("mode=dac").unwrap(), Engine::Model);
    assert!(s.dac.barrier_waits > 0);
    // One affine warp per batch of CTAs (section 4.1): on one SM the CTAs
    // launched together share its instructions and tuples; each CTA still
    // executes its whole affine stream, as with an affine warp per CTA.
    let dac1 = base.with_override("mode=dac").unwrap();
    for name in ["sgemm", "transpose_tiled"] {
        let (b, c) = (run(name, &dac1, Engine::Model), run(name, &dac1.with_override("dac.batches=false").unwrap(), Engine::Model));
        assert_eq!(c.dac.affine_ctas, c.dac.affine_insts, "{name}: one CTA per instruction");
        assert_eq!(b.dac.affine_ctas, c.dac.affine_ctas, "{name}: every CTA's affine stream, whole");
        assert!(b.dac.affine_insts < c.dac.affine_insts, "{name}: {} vs {}", b.dac.affine_insts, c.dac.affine_insts);
        assert!(b.dac.enq.iter().sum::<u64>() < c.dac.enq.iter().sum::<u64>(), "{name}: tuples for several CTAs");
        assert_eq!((b.dac.records, b.dac.expansion_mismatches), (c.dac.records, 0), "{name}");
    }
    // Section 4.2 both ways: the AEU holds a CTA past a barrier (the
    // paper), or the affine context's `enq` waits; the same records.
    for name in ["sgemm", "reduction"] {
        let (a, e) = (run(name, &dac1, Engine::Model), run(name, &dac1.with_override("dac.barrier_hold=\"enq\"").unwrap(), Engine::Model));
        assert!(a.dac.barrier_waits > 0 && e.dac.barrier_waits > 0, "{name}: the barrier rule applies");
        assert_eq!((a.dac.records, a.dac.expansion_mismatches, e.dac.expansion_mismatches), (e.dac.records, 0, 0), "{name}");
        assert_ne!(a.cycles, e.cycles, "{name}: the two holds are different hardware");
    }
    // The dac_unit on its netlist decides the same cycles as its model.
    for name in ["dac_fig4", "pathfinder"] {
        let (m, n) = (run(name, &dac1, Engine::Model), run(name, &dac1, Engine::Netlist));
        assert_eq!((m.cycles, m.dac.records, m.dac.peu_paths), (n.cycles, n.dac.records, n.dac.peu_paths), "{name}");
        assert_eq!(n.dac.expansion_mismatches, 0);
    }
}

/// Figure 16's comparators (seed 003 section 5.1.1) leave the functional
/// model's memory and its instruction counts on every kernel, on one SM and
/// on the whole GPU. CAE's affine units compute only values that are one
/// base and stride over the warp, and relieve the 16-lane SP units on the
/// kernels they cover; MTA's prefetch buffer serves demand loads.
#[test]
fn suite_cae_and_mta() {
    let sm1 = Config::preset("isca17_dac").single_sm();
    let gpu = Config::preset("isca17_dac");
    let (mut useful, mut faster) = (0, 0);
    for name in SUITE {
        let b = run(name, &sm1, Engine::Model);
        let c = run(name, &sm1.with_override("mode=cae").unwrap(), Engine::Model);
        let m = run(name, &sm1.with_override("mode=mta").unwrap(), Engine::Model);
        assert_eq!(c.cae.tag_mismatches, 0, "{name}: an affine-unit result is not one base and stride");
        assert!(c.cae.affine_insts > 0, "{name}: address arithmetic on the thread index is affine");
        faster += (c.cycles < b.cycles) as u32;
        useful += m.mta.useful;
        println!(
            "{name:16} cycles {:8}  CAE {:8} ({:5.1}% affine)  MTA {:8} (prefetches {:5}, useful {:5})",
            b.cycles,
            c.cycles,
            100.0 * c.cae.affine_insts as f64 / c.warp_insts as f64,
            m.cycles,
            m.mta.inter_warp + m.mta.intra_warp,
            m.mta.useful
        );
    }
    assert!(faster as usize > SUITE.len() / 2, "CAE is faster on {faster} of {} kernels", SUITE.len());
    assert!(useful > 0);
    for mode in ["cae", "mta"] {
        run("stencil2d", &gpu.with_override(&format!("mode={mode}")).unwrap(), Engine::Model);
    }
}

/// Seed 000's DirectPrefetch: every suite kernel leaves the functional
/// memory and instruction count; prefetches fill L1 without counting as
/// N-mode accesses (Figure 14 counts the warps' own); histogram's strided
/// loop trains it and its prefetches turn demand misses into hits or merges.
#[test]
fn suite_direct_prefetch() {
    let base = Config::preset("hpca16_pmode").single_sm();
    let pf = base.with_override("mode=prefetch").unwrap();
    for name in SUITE {
        let b = run(name, &base, Engine::Model);
        let p = run(name, &pf, Engine::Model);
        // bfs's frontier flags race: its instruction count follows timing.
        if *name != "bfs" {
            assert_eq!((p.warp_insts, p.pmode.n_l1_accesses), (b.warp_insts, b.pmode.n_l1_accesses), "{name}");
        }
        let f = &p.prefetch;
        assert!(f.issued + f.redundant <= f.queued, "{name}: only queued lines are sent or found redundant");
        println!(
            "{name:16} cycles {:8} -> {:8}  queued {:5} sent {:5}  N-mode hit-or-merge {:5} -> {:5}",
            b.cycles, p.cycles, f.queued, f.issued, b.pmode.n_l1_hit_or_merge, p.pmode.n_l1_hit_or_merge
        );
        if *name == "histogram" {
            assert!(f.issued > 0, "a strided loop trains the prefetcher");
            assert!(p.pmode.n_l1_hit_or_merge > b.pmode.n_l1_hit_or_merge, "prefetched lines serve demand loads");
        }
    }
    run("stencil2d", &Config::preset("hpca16_pmode").with_override("mode=prefetch").unwrap(), Engine::Model);
}

/// Seed 000's 2xTLP (96 warps, twice the registers, scratchpad, threads
/// and CTAs) on one SM: every suite kernel, in baseline and prefetch modes,
/// leaves the functional memory; the 96-warp scoreboard's netlist agrees
/// with its model; P-mode refuses it by name.
#[test]
fn two_x_tlp_runs_96_warps() {
    let tlp = ["core.max_warps=96", "core.max_threads=3072", "core.max_ctas=16", "core.registers=65536", "core.shared_memory=98304"]
        .iter()
        .fold(Config::preset("hpca16_pmode").single_sm(), |c, s| c.with_override(s).unwrap());
    let pf = tlp.with_override("mode=prefetch").unwrap();
    let base = Config::preset("hpca16_pmode").single_sm();
    for name in SUITE {
        let (b, t) = (run(name, &base, Engine::Model), run(name, &tlp, Engine::Model));
        run(name, &pf, Engine::Model);
        println!("{name:16} cycles {:8} -> 2xTLP {:8}", b.cycles, t.cycles);
    }
    assert_eq!(same(run("vecadd", &tlp, Engine::Compiled)), same(run("vecadd", &tlp, Engine::Model)));
    assert!(tlp.with_override("mode=pmode").unwrap_err().to_string().contains("core.max_warps"));
}

/// The idle-scheduler shortcut changes nothing: same statistics as
/// scanning every scheduler every cycle (stalling, and replaying with and
/// without a tracker).
#[test]
fn idle_shortcut_is_exact() {
    let replay = Config::preset("ubc12_replay").single_sm().with_override("mode=\"replay\"").unwrap();
    let credit = replay.with_override("replay.tracker=\"credit\"").unwrap();
    let dac = Config::preset("isca17_dac").single_sm().with_override("mode=dac").unwrap();
    let cae = Config::preset("isca17_dac").single_sm().with_override("mode=cae").unwrap();
    let mta = Config::preset("isca17_dac").single_sm().with_override("mode=mta").unwrap();
    let prefetch = Config::preset("hpca16_pmode").single_sm().with_override("mode=prefetch").unwrap();
    let pmode = Config::preset("hpca16_pmode").single_sm().with_override("mode=pmode").unwrap();
    for name in SUITE {
        let stalling = sm::Policy::ALL.map(|policy| Config::preset("hpca16_pmode").single_sm().with_override(&format!("core.policy=\"{policy}\"")).unwrap());
        for c in stalling.iter().chain([&replay, &credit, &dac, &cae, &mta, &prefetch, &pmode]) {
            let a = run(name, c, Engine::Model);
            let b = run_with(name, c, Engine::Model, Outputs { exhaustive: true, ..Outputs::default() });
            assert_eq!(a.json(), b.json(), "{name} {} {} {}", c.core.policy, c.mode, c.replay.variant());
        }
    }
}

/// P-mode leaves the same memory (and reuses only values equal to N-mode's)
/// on every kernel and policy.
#[test]
fn suite_pmode_every_policy() {
    for name in SUITE {
        for policy in sm::Policy::ALL {
            let c = Config::preset("hpca16_pmode").single_sm().with_override(&format!("core.policy=\"{policy}\"")).unwrap().with_override("mode=\"pmode\"").unwrap();
            let t = std::time::Instant::now();
            let s = run(name, &c, Engine::Model);
            assert_eq!(s.pmode.reuse_mismatches, 0, "{name} {policy}");
            println!("{name:16} {policy:9} cycles {:8} switches {:6} reused {:6} ({:?})", s.cycles, s.pmode.switches, s.pmode.reused, t.elapsed());
        }
    }
}

/// With warp pre-execution on, the P-mode unit on its compiled netlist gives
/// the reference models' cycles and statistics, decision for decision.
#[test]
fn pmode_engines_agree() {
    let c = Config::preset("hpca16_pmode").single_sm().with_override("mode=\"pmode\"").unwrap();
    for name in ["pmode_loop", "histogram", "spmv", "pathfinder"] {
        let t = std::time::Instant::now();
        let m = same(run(name, &c, Engine::Model));
        assert_eq!(same(run(name, &c, Engine::Compiled)), m, "{name} on the compiled engine");
        println!("{name:16} ({:?})", t.elapsed());
    }
}

/// NVIDIA's nvcc beside clang: every kernel of the suite compiled by nvcc
/// (sm_75, PTX ISA 9) leaves the byte-identical final memory of the clang
/// path on the functional model, and on the SM in baseline and P-mode.
/// nvcc comes from `make setup` (or CUDA_HOME, WARPFORGE_NVCC, the PATH).
#[test]
fn suite_by_nvcc_equals_suite_by_clang() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let cache = Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("nvcc-ptx"));
    let nvcc = CompileOptions { compiler: kernel::Compiler::Nvcc, cache_dir: cache, ..Default::default() };
    let base = Config::preset("hpca16_pmode").single_sm();
    let pmode = base.with_override("mode=pmode").unwrap();
    for name in SUITE {
        let clang_m = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
        let nvcc_m = load(&root.join(format!("{name}.cu")), &nvcc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(nvcc_m.target, "sm_75", "{name}");
        let file = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap();
        let golden = |m: &kernel::Module| {
            let k = m.only_kernel().unwrap();
            let l = file.bind(m, k).unwrap();
            (kernel::run_functional(k, &l, &RunOptions::default()).unwrap().memory, Arc::new(k.clone()), Arc::new(l))
        };
        let (want, _, _) = golden(&clang_m);
        let (got, k, l) = golden(&nvcc_m);
        assert_eq!(want.difference(&got), None, "{name}: nvcc's PTX on the functional model");
        for cfg in [&base, &pmode] {
            let o = sm::run::simulate(Arc::clone(&k), Arc::clone(&l), cfg, Engine::Model, Outputs::default()).unwrap();
            assert_eq!(want.difference(&o.memory), None, "{name}: nvcc's PTX on the SM, {}", cfg.mode);
        }
    }
    // Warp shuffles and votes (they come from CUDA's headers), out-of-line
    // device functions (inlined calls, `.param` traffic in local memory) and
    // named barriers, half precision, texture objects, recursion.
    let dir = root.join("nvcc");
    for name in ["warp_ops", "calls", "named_barriers", "sync_reductions", "halves", "textures", "recursion"] {
        let m = load(&dir.join(format!("{name}.cu")), &nvcc).unwrap_or_else(|e| panic!("{e}"));
        let k = m.only_kernel().unwrap();
        let l = LaunchFile::load(&dir.join(format!("{name}.toml"))).unwrap().bind(&m, k).unwrap();
        let want = kernel::run_functional(k, &l, &RunOptions::default()).unwrap().memory;
        let (k, l) = (Arc::new(k.clone()), Arc::new(l));
        // Recursion 37 calls deep needs more SIMT stack than the P-mode
        // unit's block holds (pmode.stack_depth, at most 32): that run stops
        // with the block's overflow error.
        let cfgs = if name == "recursion" { vec![&base] } else { vec![&base, &pmode] };
        for cfg in cfgs {
            for engine in [Engine::Model, Engine::Compiled] {
                let o = sm::run::simulate(Arc::clone(&k), Arc::clone(&l), cfg, engine, Outputs::default()).unwrap();
                assert_eq!(want.difference(&o.memory), None, "{name} on the SM, {} on {engine}", cfg.mode);
            }
        }
    }
}

/// Spilling (kernel::spill), checked by squeezing the register file: every
/// kernel of the suite allocated into 8 registers and 2 predicates (most
/// spill registers to local memory and predicates to registers) leaves the
/// byte-identical final memory of its normal allocation, on the functional
/// model and on the SM, where the spill code is local-memory traffic.
#[test]
fn spilled_suite_equals_the_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let cfg = Config::preset("hpca16_pmode").single_sm();
    let small = kernel::RegFile { regs: 8, preds: 2 };
    let mut spilled_kernels = 0;
    for name in SUITE {
        let ptx = kernel::compile_cuda(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
        let file = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap();
        let run = |m: &kernel::Module| {
            let k = m.only_kernel().unwrap();
            let l = file.bind(m, k).unwrap();
            (kernel::run_functional(k, &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}")).memory, Arc::new(k.clone()), Arc::new(l))
        };
        let (want, _, _) = run(&kernel::Module::from_ptx(&ptx, "k.ptx").unwrap());
        let m = kernel::Module::from_ptx_within(&ptx, "k.ptx", small).unwrap_or_else(|e| panic!("{name}: {e}"));
        let k = m.only_kernel().unwrap();
        assert!(k.regs_used <= 8 && k.preds_used <= 2, "{name}");
        spilled_kernels += (k.spills > 0) as u32;
        let (got, k, l) = run(&m);
        assert_eq!(want.difference(&got), None, "{name}: spilled, on the functional model");
        let o = sm::run::simulate(k, l, &cfg, Engine::Model, Outputs::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(want.difference(&o.memory), None, "{name}: spilled, on the SM");
    }
    assert!(spilled_kernels >= 10, "only {spilled_kernels} kernels spilled");
}

/// Replay mode (seed 004) under every MSHR tracker and predictor, with and
/// without squashing, leaves the functional model's memory on every kernel;
/// every squash is replayed once;
/// and where the instruction stream cannot depend on timing, a replayed
/// access passes the memory stage once per line (per bank cycle) exactly as
/// the stalling pipeline takes one cycle per line, so the squashes for DIV
/// and BANK equal the stalling pipeline's DIV and BANK cycles.
#[test]
fn suite_replay_every_tracker_and_predictor() {
    let base = Config::preset("ubc12_replay").single_sm();
    let variants: &[&[&str]] = &[
        &["replay.tracker=\"none\""],
        &["replay.tracker=\"none\"", "core.policy=\"gto\""],
        &["replay.tracker=\"none\"", "core.policy=\"two_level\""],
        &["replay.tracker=\"naive\""],
        &["replay.tracker=\"credit\""],
        &["replay.tracker=\"credit\"", "replay.predictor=\"always_miss\""],
        &["replay.tracker=\"credit\"", "replay.predictor=\"counter\"", "replay.delay=2"],
        &["replay.tracker=\"credit\"", "replay.predictor=\"oracle\""],
        &["replay.tracker=\"naive\"", "replay.predictor=\"counter\"", "l1.mshrs=2", "l1.merge=1", "memory.icnt_queue=1"],
        &["replay.squash=false", "replay.tracker=\"credit\"", "replay.predictor=\"always_miss\""],
        &["replay.squash=false", "replay.tracker=\"naive\"", "replay.predictor=\"counter\"", "replay.delay=1"],
        &["replay.squash=false", "replay.retain=true", "replay.tracker=\"credit\"", "replay.predictor=\"counter\""],
    ];
    for name in SUITE {
        let stalling = run(name, &base, Engine::Model);
        for sets in variants {
            let mut c = base.with_override("mode=\"replay\"").unwrap();
            for s in *sets {
                c = c.with_override(s).unwrap();
            }
            let t = std::time::Instant::now();
            let s = run(name, &c, Engine::Model);
            let r = &s.replay;
            assert_eq!(r.replays, r.squashed.iter().sum::<u64>(), "{name} {sets:?}: every squash replays once");
            if sets.contains(&"replay.squash=false") {
                // Hazard prediction without replay: the stage stalls as in the baseline.
                assert_eq!(r.replays, 0, "{name} {sets:?}");
                assert_eq!(r.first_issues > 0, sets.contains(&"replay.retain=true"), "{name} {sets:?}");
                if *name != "bfs" {
                    assert_eq!((s.hazards.div, s.hazards.bank), (stalling.hazards.div, stalling.hazards.bank), "{name} {sets:?}");
                }
            } else if *name != "bfs" && !sets.contains(&"l1.mshrs=2") {
                assert!(r.max_passes >= 1 && r.first_issues > 0, "{name} {sets:?}: {r:?}");
                assert_eq!((r.squashed[0], r.squashed[1]), (stalling.hazards.div, stalling.hazards.bank), "{name} {sets:?}");
            }
            if sets.contains(&"replay.tracker=\"none\"") {
                assert_eq!(r.credited + r.held + r.refused, 0, "{name} {sets:?}: no tracker, no avoidance");
            }
            println!(
                "{name:16} {:60} cycles {:8} (stalling {:8}) replays {:6} ({:?})",
                sets.join(" "),
                s.cycles,
                stalling.cycles,
                r.replays,
                t.elapsed()
            );
        }
    }
}

/// The replay units on their compiled netlists give the reference models'
/// cycles and statistics.
#[test]
fn replay_engines_agree() {
    let c = Config::preset("ubc12_replay").single_sm()
        .with_override("mode=\"replay\"")
        .and_then(|c| c.with_override("replay.tracker=\"credit\""))
        .and_then(|c| c.with_override("replay.predictor=\"counter\""))
        .unwrap();
    for name in ["transpose_naive", "histogram", "spmv"] {
        let m = same(run(name, &c, Engine::Model));
        assert_eq!(same(run(name, &c, Engine::Compiled)), m, "{name} on the compiled engine");
    }
}

/// Every suite kernel trace-scheduled (seed 002's pass, trained on its own
/// launch) runs on the timing SM — in the baseline, P-mode or replay mode,
/// rotating over the suite — and leaves the original kernel's final memory.
#[test]
fn suite_trace_scheduled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let cases = [("hpca16_pmode", "baseline"), ("hpca16_pmode", "pmode"), ("ubc12_replay", "replay")];
    let mut faster = 0;
    for (i, name) in SUITE.iter().enumerate() {
        let cu = root.join(format!("{name}.cu"));
        let (ptx, file) = kernel::source(&cu, &CompileOptions::default()).unwrap();
        let module = kernel::Module::from_ptx(&ptx, &file).unwrap();
        let k = module.only_kernel().unwrap();
        let lf = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap();
        let launch = lf.bind(&module, k).unwrap();
        let golden = kernel::run_functional(k, &launch, &RunOptions::default()).unwrap();
        let mut profile = kernel::tsched::Profile::default();
        kernel::tsched::train(k, &launch, &RunOptions::default(), &mut profile).unwrap();
        let s = kernel::tsched::schedule(&ptx, &file, &profile, &Default::default()).unwrap();
        let m2 = kernel::Module::from_ptx(&s.ptx, &file).unwrap();
        let k2 = m2.only_kernel().unwrap().clone();
        let l2 = lf.bind(&m2, &k2).unwrap();
        let (preset, mode) = cases[i % cases.len()];
        let cfg = Config::preset(preset).single_sm().with_override(&format!("mode={mode}")).unwrap();
        let before = sm::run::simulate(Arc::new(k.clone()), Arc::new(launch.clone()), &cfg, Engine::Model, Outputs::default()).unwrap();
        let after = sm::run::simulate(Arc::new(k2.clone()), Arc::new(l2.clone()), &cfg, Engine::Model, Outputs::default()).unwrap();
        assert!(after.memory == golden.memory, "{name} trace-scheduled, {preset} {mode}: final memory differs");
        faster += (after.stats.cycles < before.stats.cycles) as usize;
    }
    assert!(faster > 0, "the pass never shortened a run");
}
