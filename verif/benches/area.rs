//! `make bench`: FPGA area of the emitted Verilog against hand-written
//! references (`verif/fixtures/area`). For every reference: a yosys proof that
//! the fixture's step function equals the emitted module's, a random
//! co-simulation of the Rust netlist simulation, the emitted Verilog and the
//! fixture under Verilator (every output, every cycle), and yosys
//! `synth_ice40` / generic `synth` figures of both with their ratio. Ratios
//! are from this one run.
//!
//! Usage: cargo bench -p verif --bench area [-- [--cycles N] [--before DIR] [BLOCK...]]
//!        cargo bench -p verif --bench area -- --units [--hier | --fast] [--verilog DIR]
//!
//! `--before DIR` adds the LUT4 count of Verilog saved earlier
//! (`DIR/<block>/*.v`, e.g. emitted by another commit's generator) to the
//! table: no block should be larger than before.
//!
//! `--units` synthesizes the composed units instead (pmode_unit at 8 and 48
//! warps, dac_unit, replay_unit; iCE40 LUT4 / FF / BRAM and yosys run time;
//! slow: run it in the background). `--verilog DIR` synthesizes Verilog
//! saved earlier (`DIR/<unit>/*.v`, e.g. from another commit) instead of
//! emitting it now. `--hier` maps every module on its own (`synth_ice40
//! -noflatten`) and lists each module's figures under the unit's; `--fast`
//! does the same without ABC's `dch -f`, `abc -dress` and `autoname`.

use std::path::{Path, PathBuf};
use verif::area::{cosim_equal, prove_equal, stimulus, synth_pair, REFERENCES};
use verif::cosim::Simulator;

fn ratio(a: u64, b: u64) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

/// Verilog files saved earlier in `dir` (every `*.v`, sorted by name).
fn saved_files(dir: &Path) -> Vec<hw::verilog::VerilogFile> {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    let mut files = Vec::new();
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(module) = name.strip_suffix(".v") {
            let text = std::fs::read_to_string(e.path()).unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
            files.push(hw::verilog::VerilogFile { module: module.into(), file_name: name, text });
        }
    }
    files
}

fn references(wanted: &[String], cycles: u64, before: Option<&Path>, work: &Path) -> bool {
    let mut ok = true;
    let mut rows = Vec::new();
    for r in REFERENCES {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == r.block) {
            continue;
        }
        let top = r.elaborate().expect("elaborate");
        let dir = work.join(r.block);
        let proof = prove_equal(r, &top, &hw::verilog::emit(&top), &dir).expect("yosys proof");
        let stim = stimulus(r, &top, cycles, 1);
        let co = cosim_equal(r, &top, &stim, Simulator::Verilator, true, &dir).expect("co-simulation");
        let equal = proof.holds() && co.equal();
        if !equal {
            ok = false;
            eprintln!("{}: NOT EQUAL: proof {proof:?}; co-simulation emitted {:?} hand {:?}", r.block, co.emitted, co.hand);
        }
        let (e, h) = synth_pair(r, &top, &dir).expect("synthesis");
        let b = before.map(|d| {
            let files = saved_files(&d.join(r.block));
            let area = verif::area::synthesize(&files, &top.name, &dir.join("before")).expect("synthesis of the saved Verilog");
            area.ice40.luts
        });
        println!(
            "{:<15} {:<20} proof {:>5}/{:<5} {:>5.1}s  cosim {} cycles x {} outputs: {}",
            r.block,
            r.params_text(),
            proof.proven,
            proof.required,
            proof.seconds,
            co.cycles,
            co.outputs,
            if co.equal() { "equal" } else { "DIFFERENT" }
        );
        rows.push((r, e, h, b));
    }
    println!();
    println!("synth_ice40 (LUT4 / flip-flops / carries) and generic synth (cells), emitted vs hand-written");
    println!(
        "{:<15} {:>7} {:>7} {:>6} | {:>6} {:>6} {:>6} {:>6} | {:>7} {:>7} {:>6}{}",
        "block",
        "LUT4 em",
        "LUT4 hd",
        "ratio",
        "FF em",
        "FF hd",
        "CY em",
        "CY hd",
        "cells em",
        "cells hd",
        "ratio",
        if before.is_some() { " | LUT4 before" } else { "" }
    );
    for (r, e, h, b) in &rows {
        if b.is_some_and(|b| e.ice40.luts > b) {
            ok = false;
            eprintln!("{}: larger than before", r.block);
        }
        println!(
            "{:<15} {:>7} {:>7} {:>6} | {:>6} {:>6} {:>6} {:>6} | {:>7} {:>7} {:>6}{}",
            r.block,
            e.ice40.luts,
            h.ice40.luts,
            ratio(e.ice40.luts, h.ice40.luts),
            e.ice40.ffs,
            h.ice40.ffs,
            e.ice40.carries,
            h.ice40.carries,
            e.generic.cells,
            h.generic.cells,
            ratio(e.generic.cells, h.generic.cells),
            b.map(|b| format!(" | {b:>12}")).unwrap_or_default()
        );
    }
    ok
}

/// Parameter overrides.
type Overrides = &'static [(&'static str, &'static str)];

/// The composed units (label, block) and the parameter sets they are synthesized at.
const UNITS: &[(&str, &str, Overrides)] = &[
    ("pmode_unit_w8", "pmode_unit", &[("warps", "8")]),
    ("pmode_unit_w48", "pmode_unit", &[]),
    ("dac_unit", "dac_unit", &[]),
    ("replay_unit", "replay_unit", &[]),
];

fn units(saved: Option<&Path>, wanted: &[String], flow: verif::lint::Flow, work: &Path) {
    use verif::lint::Flow;
    let what = match flow {
        Flow::Ice40Hier => "synth_ice40 -noflatten: each module on its own",
        Flow::Ice40Fast => "synth_ice40 -noflatten without dch, -dress, autoname: each module on its own",
        _ => "synth_ice40, flattened",
    };
    println!("{what} ({flow:?})");
    println!("{:<16} {:>8} {:>8} {:>6} {:>8}", "unit", "LUT4", "FF", "BRAM", "yosys s");
    for &(label, block, params) in UNITS {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == label) {
            continue;
        }
        let info = hw::registry::find(block).expect("block");
        let p: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let m = info.elaborate(&info.params(&p).expect("params")).expect("elaborate");
        let files = match saved {
            Some(dir) => saved_files(&dir.join(label)),
            None => hw::verilog::emit(&m),
        };
        let dir = work.join(label);
        match verif::area::synthesize_flow(&files, &m.name, flow, &dir) {
            Ok((s, secs)) => {
                println!("{:<16} {:>8} {:>8} {:>6} {:>8.0}", label, s.luts, s.ffs, s.brams, secs);
                if flow.hierarchical() {
                    for (module, m) in verif::lint::module_stats(&dir) {
                        println!("  {:<14} {:>8} {:>8} {:>6}", module, m.luts, m.ffs, m.brams);
                    }
                }
            }
            Err(e) => println!("{label:<16} failed: {e}"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut cycles = 20_000u64;
    let mut unit_mode = false;
    let mut flow = verif::lint::Flow::Ice40;
    let mut saved: Option<PathBuf> = None;
    let mut before: Option<PathBuf> = None;
    let mut wanted = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--cycles" => cycles = it.next().and_then(|v| v.parse().ok()).expect("--cycles N"),
            "--units" => unit_mode = true,
            "--hier" => flow = verif::lint::Flow::Ice40Hier,
            "--fast" => flow = verif::lint::Flow::Ice40Fast,
            "--verilog" => saved = Some(PathBuf::from(it.next().expect("--verilog DIR"))),
            "--before" => before = Some(PathBuf::from(it.next().expect("--before DIR"))),
            _ if a.starts_with('-') => {}
            _ => wanted.push(a),
        }
    }
    let work = std::env::temp_dir().join(format!("warpforge-area-{}", std::process::id()));
    if unit_mode {
        units(saved.as_deref(), &wanted, flow, &work);
        return;
    }
    println!("area references: proof of the step function, {cycles} cycles of random co-simulation (Verilator), yosys synthesis");
    if !references(&wanted, cycles, before.as_deref(), &work) {
        eprintln!("a hand-written reference differs from its emitted module");
        std::process::exit(1);
    }
}
