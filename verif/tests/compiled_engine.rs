//! The compiled engine is exact: cycle by cycle equal to the netlist
//! interpreter and the reference model on every block at default and odd
//! sizes, to the bit-serial evaluator on random netlists (with and without
//! the optimisation passes, every signal visible or ports only), and to
//! Verilator in co-simulation; its VCD is byte-identical to the
//! interpreter's; and a deliberately miscompiled model is caught.

use hw::registry::BlockInfo;
use hw::Params;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::compiled::CompileOptions;
use sim::trace::{TraceOptions, Tracer};
use sim::{CompiledSim, Component, Engine, Inspect, NetlistSim, Visibility};
use verif::bitref::BitRef;
use verif::cosim::{cosim_with, Simulator};
use verif::fuzz::{random_module, FuzzShape};
use verif::run::{first_mismatch, run, run_traced};
use verif::stimulus::{InputLayout, RandomDriver, Stimulus};

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compiled-engine").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compiled(m: &hw::ir::Module, vis: Visibility) -> CompiledSim {
    CompiledSim::with_options(m, vis, &CompileOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", m.name))
}

/// A parameter set of `info` other than the defaults, drawn from `seed`:
/// each parameter kept, at its minimum, one off its default, or random up to
/// one above the default (so designs stay about the default size).
fn odd_params(info: &BlockInfo, seed: u64) -> Params {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..200 {
        let mut ov: Vec<(String, String)> = Vec::new();
        for s in info.params {
            if rng.random_bool(0.3) {
                continue;
            }
            let hi = s.max.min(s.default + 1).max(s.min);
            let v = match rng.random_range(0..4) {
                0 => s.min,
                1 => s.default.saturating_sub(1).max(s.min),
                2 => hi,
                _ => rng.random_range(s.min..=hi),
            };
            ov.push((s.name.to_string(), v.to_string()));
        }
        let Ok(p) = info.params(&ov) else { continue };
        let v = verif::registry::find(info.name).unwrap();
        if p != info.default_params() && info.elaborate(&p).is_ok() && models::model(info.name, &p).is_ok() && (v.driver)(&p, 1).is_ok() {
            return p;
        }
    }
    panic!("{}: no odd parameter set found", info.name);
}

/// Compiled (both visibilities) = interpreter = reference model on the
/// block's own constrained-random traffic.
fn three_engines_agree(info: &BlockInfo, p: &Params, seed: u64, cycles: u64) {
    let m = info.elaborate(p).unwrap();
    let v = verif::registry::find(info.name).unwrap();
    let mut d = (v.driver)(p, seed).unwrap();
    let stim = Stimulus::record(d.as_mut(), cycles);
    let interp = run(&mut NetlistSim::new(&m), &stim).unwrap();
    let model = run(models::model(info.name, p).unwrap().as_mut(), &stim).unwrap();
    assert_eq!(first_mismatch(&model, &interp), None, "{} ({p}): interpreter vs reference model", info.name);
    for vis in [Visibility::Full, Visibility::Ports] {
        let got = run(&mut compiled(&m, vis), &stim).unwrap();
        assert_eq!(first_mismatch(&interp, &got), None, "{} ({p}), {vis:?}: compiled engine vs interpreter", info.name);
    }
}

#[test]
fn every_block_at_default_parameters() {
    for info in hw::registry::blocks() {
        three_engines_agree(info, &info.default_params(), 3, 2000);
    }
}

#[test]
fn every_block_at_an_odd_size() {
    for (k, info) in hw::registry::blocks().into_iter().enumerate() {
        let p = odd_params(info, 0x5eed + k as u64);
        three_engines_agree(info, &p, 4, 600);
    }
}

fn random_stim(ports: &[sim::PortSpec], seed: u64, cycles: u64) -> Stimulus {
    let mut d = RandomDriver::new(InputLayout::of(ports), seed, 0.05);
    Stimulus::record(&mut d, cycles)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

    #[test]
    fn blocks_at_random_sizes(block in 0usize..19, seed in any::<u64>()) {
        let blocks = hw::registry::blocks();
        let info = blocks[block % blocks.len()];
        three_engines_agree(info, &odd_params(info, seed), seed, 300);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn random_netlists_equal_the_bit_serial_evaluator(seed in any::<u64>(), small in any::<bool>(), constants in any::<bool>(),
                                                      optimize in any::<bool>(), full in any::<bool>()) {
        let shape = FuzzShape { constants, max_width: if small { 20 } else { 130 }, ..FuzzShape::default() };
        let m = random_module("fuzz_compiled", seed, shape).unwrap();
        let opts = CompileOptions { optimize, ..CompileOptions::default() };
        let vis = if full { Visibility::Full } else { Visibility::Ports };
        let mut c = CompiledSim::with_options(&m, vis, &opts).unwrap();
        let s = random_stim(c.ports(), seed ^ 1, 40);
        let a = run(&mut c, &s).unwrap();
        let b = run(&mut BitRef::new(&m), &s).unwrap();
        prop_assert_eq!(first_mismatch(&b, &a), None);
    }
}

#[test]
fn compiled_engine_matches_verilator() {
    // Default-size blocks whose Verilator harnesses other tests build too,
    // and a random netlist with every operator.
    for block in ["scoreboard", "dac_unit", "replay_unit"] {
        let info = hw::registry::find(block).unwrap();
        let p = info.default_params();
        let m = info.elaborate(&p).unwrap();
        let mut d = (verif::registry::find(block).unwrap().driver)(&p, 9).unwrap();
        let stim = Stimulus::record(d.as_mut(), 3000);
        let r = cosim_with(&m, None, &stim, Simulator::Verilator, &work(block), Engine::Compiled, None).unwrap();
        assert_eq!(r.engine, Engine::Compiled);
        assert!(r.mismatch.is_none(), "{block}: {}", r.mismatch.unwrap());
    }
    let m = random_module("fuzz_v11", 11, FuzzShape { ops: 200, ..FuzzShape::default() }).unwrap();
    let stim = random_stim(NetlistSim::new(&m).ports(), 11, 2000);
    let r = cosim_with(&m, None, &stim, Simulator::Verilator, &work("fuzz"), Engine::Compiled, None).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn a_miscompiled_model_is_caught() {
    // The generator's test hook turns one AND into an OR: the comparison the
    // property tests run must see it, on a block and on a random netlist.
    let info = hw::registry::find("scoreboard").unwrap();
    let p = info.default_params();
    let m = info.elaborate(&p).unwrap();
    let mut d = (verif::registry::find("scoreboard").unwrap().driver)(&p, 3).unwrap();
    let stim = Stimulus::record(d.as_mut(), 2000);
    let interp = run(&mut NetlistSim::new(&m), &stim).unwrap();
    let good = run(&mut compiled(&m, Visibility::Ports), &stim).unwrap();
    assert_eq!(first_mismatch(&interp, &good), None);
    let bad_opts = CompileOptions { miscompile: Some(0), ..CompileOptions::default() };
    let mut bad = CompiledSim::with_options(&m, Visibility::Ports, &bad_opts).unwrap();
    assert!(bad.info().dir != compiled(&m, Visibility::Ports).info().dir, "the altered model is cached apart");
    let got = run(&mut bad, &stim).unwrap();
    let mm = first_mismatch(&interp, &got).expect("a flipped operator in the generated code goes unnoticed");
    assert!(mm.cycle < 2000);

    let fm = random_module("fuzz_mutant", 5, FuzzShape::default()).unwrap();
    let s = random_stim(NetlistSim::new(&fm).ports(), 5, 200);
    let reference = run(&mut BitRef::new(&fm), &s).unwrap();
    let caught = (0..4).any(|nth| {
        let opts = CompileOptions { miscompile: Some(nth), ..CompileOptions::default() };
        let mut c = CompiledSim::with_options(&fm, Visibility::Ports, &opts).unwrap();
        first_mismatch(&reference, &run(&mut c, &s).unwrap()).is_some()
    });
    assert!(caught, "no flipped AND of the random netlist was detected");
}

#[test]
fn compiled_waves_are_byte_identical_to_the_interpreters() {
    for block in ["pmode_unit", "replay_unit"] {
        let info = hw::registry::find(block).unwrap();
        let p = info.default_params();
        let m = info.elaborate(&p).unwrap();
        let mut d = (verif::registry::find(block).unwrap().driver)(&p, 5).unwrap();
        let stim = Stimulus::record(d.as_mut(), 300);
        let opts = TraceOptions { memories: true, ..Default::default() };
        let dir = work(&format!("{block}-waves"));
        let (a, b) = (dir.join("interp.vcd"), dir.join("compiled.vcd"));
        let mut interp = NetlistSim::new(&m);
        let mut t = Tracer::create(&a, &interp, opts.clone()).unwrap();
        run_traced(&mut interp, &stim, &mut t, 100, 299).unwrap();
        t.finish().unwrap();
        let mut comp = compiled(&m, Visibility::Full);
        assert_eq!(comp.signals().len(), interp.signals().len(), "{block}: every signal kept");
        let mut t = Tracer::create(&b, &comp, opts).unwrap();
        run_traced(&mut comp, &stim, &mut t, 100, 299).unwrap();
        t.finish().unwrap();
        let (ta, tb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert!(ta.len() > 10_000, "{block}: a real trace");
        assert!(ta == tb, "{block}: {} and {} differ", a.display(), b.display());
        // Every signal readable by path, with the interpreter's value.
        for s in interp.signals().iter().step_by(7) {
            let path = interp.path(s);
            assert_eq!(comp.peek_path(&path), Some(interp.value(s)), "{block}: {path}");
        }
    }
}

#[test]
fn compiled_models_are_cached_by_content() {
    let a = random_module("fuzz_cache", 77, FuzzShape::default()).unwrap();
    let b = random_module("fuzz_cache", 78, FuzzShape::default()).unwrap();
    let first = compiled(&a, Visibility::Ports);
    let again = compiled(&a, Visibility::Ports);
    assert!(again.info().cached, "the second build of one module comes from the cache");
    assert_eq!(first.info().dir, again.info().dir);
    assert!(std::fs::read_to_string(again.info().dir.join("model.c")).unwrap().contains("wf_eval"));
    assert_ne!(compiled(&b, Visibility::Ports).info().dir, first.info().dir, "another module, another entry");
}

#[test]
fn rtl_sim_builds_every_rtl_engine_and_refuses_the_model() {
    let info = hw::registry::find("warp_buffer").unwrap();
    let m = info.elaborate(&info.default_params()).unwrap();
    let opts = sim::EngineOptions::default();
    assert_eq!(sim::rtl_sim(&m, Engine::Netlist, &opts).unwrap().engine(), Engine::Netlist);
    assert_eq!(sim::rtl_sim(&m, Engine::Compiled, &opts).unwrap().engine(), Engine::Compiled);
    assert_eq!(sim::rtl_sim(&m, Engine::Rtl, &opts).unwrap().engine(), Engine::Compiled, "a C compiler is installed here");
    assert!(sim::rtl_sim(&m, Engine::Model, &opts).is_err());
}

#[test]
fn blocks_declared_as_scopes_of_a_larger_trace() {
    // What the SM does: its own VCD, each block's hierarchy as a scope in it.
    use sim::trace::BlockTrace;
    let sb = hw::registry::find("scoreboard").unwrap();
    let wb = hw::registry::find("warp_buffer").unwrap();
    let (m1, m2) = (sb.elaborate(&sb.default_params()).unwrap(), wb.elaborate(&wb.default_params()).unwrap());
    let (mut a, mut b) = (compiled(&m1, Visibility::Full), NetlistSim::new(&m2));
    let path = work("larger-trace").join("sm.vcd");
    let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut w = waves::VcdWriter::new(file, "an SM").unwrap();
    w.scope("sm").unwrap();
    let clk = w.var("clk", 1).unwrap();
    let opts = TraceOptions { memories: true, ..Default::default() };
    let mut ta = BlockTrace::declare(&mut w, &a, "sb", &opts, Some(clk)).unwrap();
    let mut tb = BlockTrace::declare(&mut w, &b, "wb0", &opts, None).unwrap();
    w.end_header().unwrap();
    for c in 0..20u64 {
        w.time(c * 10).unwrap();
        w.change(clk, &[0]).unwrap();
        a.eval();
        b.eval();
        ta.sample(&mut w, &a).unwrap();
        tb.sample(&mut w, &b).unwrap();
        a.tick();
        b.tick();
    }
    w.flush().unwrap();
    drop(w);
    let paths = waves::signal_paths(&path).unwrap();
    let has = |p: String| paths.binary_search(&p).is_ok();
    assert!(has("sm.clk".into()) && has("sm.sb.clk".into()));
    for s in a.signals() {
        assert!(has(format!("sm.sb.{}", a.path(s))), "sm.sb.{} missing", a.path(s));
    }
    for s in b.signals() {
        assert!(has(format!("sm.wb0.{}", b.path(s))), "sm.wb0.{} missing", b.path(s));
    }
    let m = &a.memories()[0];
    assert!(has(format!("sm.sb.{}[{}]", a.mem_path(m), m.depth - 1)));
}
