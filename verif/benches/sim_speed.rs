//! `make bench`: simulation speed of every block under the netlist
//! interpreter, the compiled engine, its reference model and Verilator -O3 on
//! the emitted Verilog, with the same pre-recorded stimulus, single-threaded;
//! the compiled engine's compile time next to Verilator's build time; plus
//! yosys synthesis figures. Prints a table; ratios are from this one run.
//!
//! Both builds start from an empty cache (a private `WARPFORGE_CACHE`), so
//! the times are real builds; `WARPFORGE_BENCH_CACHE=1` keeps the user's
//! cache instead (times then show cache lookups, marked `c`).
//!
//! Usage: cargo bench -p verif --bench sim_speed [-- BLOCK...]

use sim::compiled::CompileOptions;
use sim::{CompiledSim, Component, NetlistSim, Visibility};
use std::time::Instant;
use verif::cosim::{Flavor, RtlBuild, Simulator};
use verif::run::{apply, check_inputs, reset_cycle};
use verif::stimulus::Stimulus;

const CYCLES: u64 = 100_000;
const MIN_SECONDS: f64 = 1.0;

/// Cycles per second of `comp` over `stim` (repeated for at least MIN_SECONDS).
fn rate<C: Component + ?Sized>(comp: &mut C, stim: &Stimulus) -> f64 {
    check_inputs(comp, stim.layout()).expect("layout");
    reset_cycle(comp);
    let start = Instant::now();
    let mut total = 0u64;
    loop {
        for c in 0..stim.cycles() {
            apply(comp, stim.cycle(c));
            comp.eval();
            comp.tick();
        }
        total += stim.cycles() as u64;
        if start.elapsed().as_secs_f64() >= MIN_SECONDS {
            break;
        }
    }
    total as f64 / start.elapsed().as_secs_f64()
}

/// Which parameter sets of a composed block are synthesized, and how. The
/// default `pmode_unit` (151 kbit of state, 1.3 M generic cells) takes yosys
/// 17 minutes in `synth` and more than 90 in `synth_ice40`'s ABC step, so
/// its iCE40 mapping is reported for 8 warps (the per-warp structures scale
/// linearly), next to the generic figures for both sizes.
fn synth_plan(name: &str) -> Vec<(verif::lint::Flow, Vec<(String, String)>)> {
    use verif::lint::Flow::{Generic, Ice40};
    let small = vec![("warps".to_string(), "8".to_string())];
    match name {
        "pmode_unit" => vec![(Generic, vec![]), (Generic, small.clone()), (Ice40, small)],
        _ => vec![(Generic, vec![]), (Ice40, vec![])],
    }
}

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let work = std::env::temp_dir().join(format!("warpforge-bench-{}", std::process::id()));
    if std::env::var_os("WARPFORGE_BENCH_CACHE").is_none() {
        // Single-threaded here: no other thread reads the environment.
        std::env::set_var("WARPFORGE_CACHE", work.join("cache"));
    }
    println!("simulation speed, {CYCLES} cycles of recorded stimulus, default parameters, one thread (cycles/s)");
    println!("compiled: ports, registers and memories visible (as Verilator -O3 without tracing)");
    println!("build: the compiled engine's code generation + C compile + load, and Verilator's verilate + C++ build (seconds)");
    println!(
        "{:<18} {:>11} {:>11} {:>11} {:>11} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "block", "netlist", "compiled", "reference", "verilator", "comp/veri", "net/veri", "comp/net", "build", "veri bld"
    );
    let mut synth_blocks = Vec::new();
    for info in hw::registry::blocks() {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == info.name) {
            continue;
        }
        let p = info.default_params();
        let m = info.elaborate(&p).expect("default parameters elaborate");
        let v = verif::registry::find(info.name).expect("verification entry");
        let mut driver = (v.driver)(&p, 42).expect("driver");
        let stim = Stimulus::record(driver.as_mut(), CYCLES);
        let mut netlist = NetlistSim::new(&m);
        let r_net = rate(&mut netlist, &stim);
        let (r_comp, t_comp) = match CompiledSim::with_options(&m, Visibility::Ports, &CompileOptions::default()) {
            Ok(mut c) => {
                let t = format!("{:.2}{}", c.info().seconds, if c.info().cached { "c" } else { "" });
                (rate(&mut c, &stim), t)
            }
            Err(e) => {
                eprintln!("{}: compiled engine: {e}", info.name);
                (f64::NAN, "-".into())
            }
        };
        let mut model = models::model(info.name, &p).expect("model");
        let r_ref = rate(model.as_mut(), &stim);
        let files = hw::verilog::emit(&m);
        let start = Instant::now();
        let (r_ver, t_ver) = match RtlBuild::new(&files, &m, Simulator::Verilator, Flavor::Bench) {
            Ok(b) => {
                let t = format!("{:.2}{}", start.elapsed().as_secs_f64(), if b.built { "" } else { "c" });
                let r = b.bench(&stim, &work, MIN_SECONDS).unwrap_or_else(|e| {
                    eprintln!("{}: verilator: {e}", info.name);
                    f64::NAN
                });
                (r, t)
            }
            Err(e) => {
                eprintln!("{}: verilator: {e}", info.name);
                (f64::NAN, "-".into())
            }
        };
        println!(
            "{:<18} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>9.2} {:>9.2} {:>9.2} {:>8} {:>8}",
            info.name,
            r_net,
            r_comp,
            r_ref,
            r_ver,
            r_comp / r_ver,
            r_net / r_ver,
            r_comp / r_net,
            t_comp,
            t_ver
        );
        if info.composed || wanted.iter().any(|w| w == info.name) {
            synth_blocks.push(info);
        }
    }
    if std::env::var_os("WARPFORGE_BENCH_NO_SYNTH").is_some() {
        return;
    }
    println!();
    println!("yosys synthesis of the composed units (flattened); `synth` = generic gates, `synth_ice40` = iCE40 LUT4 mapping");
    println!("{:<34} {:<12} {:>9} {:>8} {:>8} {:>6} {:>5} {:>8}", "module", "flow", "cells", "ffs", "LUT4", "carry", "bram", "seconds");
    for info in synth_blocks {
        for (flow, overrides) in synth_plan(info.name) {
            let p = info.params(&overrides).expect("bench parameters");
            let m = info.elaborate(&p).expect("elaborate");
            let dir = work.join(format!("{}-synth", m.name));
            let names = verif::lint::write_files(&hw::verilog::emit(&m), &dir).expect("write");
            let start = Instant::now();
            let label = if flow == verif::lint::Flow::Ice40 { "synth_ice40" } else { "synth" };
            match verif::lint::synth(&dir, &names, &m.name, flow) {
                Ok((verif::lint::Check::Pass, st)) => println!(
                    "{:<34} {:<12} {:>9} {:>8} {:>8} {:>6} {:>5} {:>8.0}",
                    m.name,
                    label,
                    st.cells,
                    st.ffs,
                    st.luts,
                    st.carries,
                    st.brams,
                    start.elapsed().as_secs_f64()
                ),
                Ok((verif::lint::Check::Fail(e), _)) => println!("{} {label}: failed: {e}", m.name),
                Err(e) => println!("{} {label}: {e}", m.name),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
