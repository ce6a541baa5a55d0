//! The composed units' waves: the Rust netlist simulation and Verilator dump
//! the same hierarchy (scopes per instance, ports, internal wires, registers
//! and array words) with the same values at every time, so a trace from
//! either engine reads the same in GTKWave.

use sim::NetlistSim;
use verif::cosim::{write_waves, Flavor, RtlBuild, Simulator};
use verif::stimulus::Stimulus;

/// Stimulus cycles traced; the window starts after some activity has built up.
const CYCLES: u64 = 400;
const FROM: usize = 200;

fn agree(block: &str) {
    let info = hw::registry::find(block).unwrap();
    // Default parameters: the harness is the one the 100k-cycle co-simulation
    // builds, so the cache serves it.
    let p = info.default_params();
    let top = info.elaborate(&p).unwrap();
    let mut driver = (verif::registry::find(block).unwrap().driver)(&p, 5).unwrap();
    let stim = Stimulus::record(driver.as_mut(), CYCLES);
    let rtl = RtlBuild::new(&hw::verilog::emit(&top), &top, Simulator::Verilator, Flavor::Check).unwrap();
    let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("waves").join(block);
    let (rust, veri) = write_waves(&top, &rtl, &stim, &work, FROM, CYCLES as usize - 1).unwrap();
    // Verilator's trace holds every signal of the Rust trace (it adds only
    // the sub-instances' clk and rst ports), so the comparison covers all.
    let veri_paths = waves::signal_paths(&veri).unwrap();
    let rust_paths = waves::signal_paths(&rust).unwrap();
    let missing: Vec<&String> = rust_paths.iter().filter(|p| veri_paths.binary_search(p).is_err()).collect();
    assert!(missing.is_empty(), "{block}: not in Verilator's trace: {missing:?}");
    assert!(rust_paths.len() > 1000, "{block}: only {} signals traced", rust_paths.len());
    assert_eq!(waves::diff_files(&rust, &veri, Some("TOP."), 0).unwrap(), None, "{block}: the two traces differ");
    // Every signal the save file shows (`TOP.inst.name[msb:0]`) is at the
    // same path in Verilator's trace: the GTKWave save file opens both.
    let g = sim::trace::gtkw_for(&NetlistSim::new(&top), "x.vcd").render();
    let shown: Vec<&str> = g.lines().filter(|l| l.starts_with("TOP.")).map(|l| l.split('[').next().unwrap()).collect();
    for path in &shown {
        assert!(veri_paths.binary_search_by(|v| v.as_str().cmp(path)).is_ok(), "{block}: {path} missing in Verilator's VCD");
    }
    assert!(shown.len() > 50, "{block}: only {} signals in the save file", shown.len());
}

#[test]
fn pmode_unit_waves_agree() {
    agree("pmode_unit");
}

#[test]
fn dac_unit_waves_agree() {
    agree("dac_unit");
}

#[test]
fn replay_unit_waves_agree() {
    agree("replay_unit");
}
