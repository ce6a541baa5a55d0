//! Every registered block, at its paper defaults: it has a reference model
//! and a driver with its exact ports, the netlist simulation of the generated
//! hardware equals the reference model on driver traffic, the emitted
//! Verilog passes Verilator -Wall, iverilog and yosys (no latches), and the
//! paper's storage figures are reported. Per-block tests add proptests,
//! properties and the long co-simulations.

use sim::{Component, NetlistSim};
use verif::lint::{lint, Flow};
use verif::run::{first_mismatch, run};
use verif::stimulus::{InputLayout, Stimulus};

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("all-blocks").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_block_has_a_matching_reference_model_and_driver() {
    for info in hw::registry::blocks() {
        let p = info.default_params();
        let m = info.elaborate(&p).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        let v = verif::registry::find(info.name).unwrap_or_else(|| panic!("{}: no verification entry", info.name));
        let mut hw = NetlistSim::new(&m);
        let mut model = models::model(info.name, &p).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert_eq!(model.ports(), hw.ports(), "{}: reference model ports differ from the hardware", info.name);
        let mut d = (v.driver)(&p, 1).unwrap();
        assert_eq!(d.layout().as_ref(), InputLayout::of(hw.ports()).as_ref(), "{}: driver layout", info.name);
        let stim = Stimulus::record(d.as_mut(), 3000);
        let a = run(&mut hw, &stim).unwrap();
        let b = run(model.as_mut(), &stim).unwrap();
        assert_eq!(first_mismatch(&b, &a), None, "{}: hardware vs reference model", info.name);
    }
}

#[test]
fn every_block_is_lint_clean_and_synthesizable() {
    for info in hw::registry::blocks() {
        let m = info.elaborate(&info.default_params()).unwrap();
        let files = hw::verilog::emit(&m);
        let r = lint(&files, &m.name, &work(&m.name), Flow::Coarse).unwrap();
        assert!(r.passed(), "{}: {r:#?}", info.name);
    }
}

#[test]
fn every_block_reports_storage() {
    for info in hw::registry::blocks() {
        let p = info.default_params();
        let m = info.elaborate(&p).unwrap();
        let st = hw::stats::Storage::of(&m);
        let has_state = m.hierarchy().iter().any(|x| x.signals.iter().any(|s| s.is_reg()) || !x.mems.is_empty());
        assert_eq!(st.total_bits() > 0, has_state, "{}: storage count", info.name);
        let acc = (info.storage)(&p).unwrap();
        for f in &acc.paper {
            assert!(f.bits > 0, "{}: empty paper figure `{}`", info.name, f.what);
        }
        assert_eq!(st.total_bits() as i64, acc.expected_bits(), "{}: storage account", info.name);
    }
}

#[test]
fn bad_parameters_are_errors_not_panics() {
    for info in hw::registry::blocks() {
        for spec in info.params {
            if spec.max < u64::MAX {
                let r = info.params(&[(spec.name.to_string(), (spec.max + 1).to_string())]);
                assert!(r.is_err(), "{}: {} above its maximum accepted", info.name, spec.name);
            }
            if spec.min > 0 {
                let r = info.params(&[(spec.name.to_string(), (spec.min - 1).to_string())]);
                assert!(r.is_err(), "{}: {} below its minimum accepted", info.name, spec.name);
            }
        }
    }
}
