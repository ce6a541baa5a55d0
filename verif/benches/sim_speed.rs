//! `make bench`: simulation speed of every block under the netlist simulator,
//! its reference model and Verilator -O3 on the emitted Verilog, with the
//! same pre-recorded stimulus, plus yosys synthesis figures. Prints a table;
//! ratios are from this one run.
//!
//! Usage: cargo bench -p verif --bench sim_speed [-- BLOCK...]

use sim::{Component, NetlistSim};
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

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let work = std::env::temp_dir().join(format!("warpforge-bench-{}", std::process::id()));
    println!("simulation speed, {CYCLES} cycles of recorded stimulus, default parameters (cycles/s)");
    println!("{:<18} {:>12} {:>12} {:>12} {:>10} {:>10} {:>8}", "block", "netlist", "reference", "verilator", "net/veri", "net/ref", "instrs");
    let mut synth_rows = Vec::new();
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
        let instrs = netlist.program_len();
        let r_net = rate(&mut netlist, &stim);
        let mut model = (v.model)(&p).expect("model");
        let r_ref = rate(model.as_mut(), &stim);
        let files = hw::verilog::emit(&m);
        let r_ver = RtlBuild::new(&files, &m, Simulator::Verilator, Flavor::Bench)
            .and_then(|b| b.bench(&stim, &work, MIN_SECONDS))
            .unwrap_or_else(|e| {
                eprintln!("{}: verilator: {e}", info.name);
                f64::NAN
            });
        println!(
            "{:<18} {:>12.0} {:>12.0} {:>12.0} {:>10.2} {:>10.2} {:>8}",
            info.name,
            r_net,
            r_ref,
            r_ver,
            r_net / r_ver,
            r_net / r_ref,
            instrs
        );
        // Synthesis of composed units (and of any block named on the command line).
        if std::env::var_os("WARPFORGE_BENCH_NO_SYNTH").is_some() || !(info.composed || wanted.iter().any(|w| w == info.name)) {
            continue;
        }
        let dir = work.join(&m.name);
        let names = verif::lint::write_files(&files, &dir).expect("write");
        let generic = verif::lint::synth(&dir, &names, &m.name, verif::lint::Flow::Generic).map(|r| r.1);
        let ice40 = verif::lint::synth(&dir, &names, &m.name, verif::lint::Flow::Ice40).map(|r| r.1);
        synth_rows.push((m.name.clone(), generic, ice40));
    }
    println!();
    println!("yosys synthesis (flattened): generic `synth` cells / flip-flops; `synth_ice40` LUT4 / flip-flops / carry / BRAM");
    println!("{:<18} {:>10} {:>8} {:>10} {:>8} {:>8} {:>6}", "module", "cells", "ffs", "ice40 LUT4", "ffs", "carry", "bram");
    for (name, g, i) in synth_rows {
        match (g, i) {
            (Ok(g), Ok(i)) => println!("{:<18} {:>10} {:>8} {:>10} {:>8} {:>8} {:>6}", name, g.cells, g.ffs, i.luts, i.ffs, i.carries, i.brams),
            (g, i) => println!("{name}: synthesis failed: {:?} {:?}", g.err(), i.err()),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
