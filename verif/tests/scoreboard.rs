//! Dual-mode scoreboard: the generated hardware against its reference model
//! (proptest), its port-level properties, the same-cycle rules, and
//! co-simulation of the emitted Verilog under Verilator and iverilog.

use hw::blocks::pmode::scoreboard::{scoreboard, ScoreboardParams};
use hw::ir::Module;
use proptest::prelude::*;
use sim::{Component, ComponentExt, NetlistSim};
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::models::pmode::scoreboard::{ports, props, ScoreboardDriver, ScoreboardModel};
use verif::run::{first_mismatch, run};
use verif::stimulus::{Frame, InputLayout, Stimulus};

fn build(p: &ScoreboardParams) -> Arc<Module> {
    scoreboard(p, &format!("scoreboard_t_w{}_r{}_i{}_b{}_s{}", p.warps, p.regs, p.issue_ports, p.wb_ports, p.srcs)).unwrap()
}

fn small() -> ScoreboardParams {
    // Few warps and registers (with out-of-range ids 6, 7 and warp 3) make
    // conflicts between ports frequent.
    ScoreboardParams { warps: 3, regs: 6, issue_ports: 2, wb_ports: 2, srcs: 2, dsts: 1 }
}

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn driven(p: &ScoreboardParams, seed: u64, cycles: u64) -> Stimulus {
    Stimulus::record(&mut ScoreboardDriver::new(p, seed), cycles)
}

#[test]
fn model_and_hardware_have_the_same_ports() {
    for p in [ScoreboardParams::default(), small()] {
        let sim = NetlistSim::new(&build(&p));
        assert_eq!(sim.ports(), ports(&p).as_slice());
    }
}

/// Arbitrary stimulus for `p`: every input uniformly random (so shrinking
/// finds minimal failing sequences), resets rare.
fn stimulus_strategy(p: ScoreboardParams, max_cycles: usize) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(&ports(&p));
    let widths: Vec<u32> = layout.ports().iter().map(|q| q.width).collect();
    let frame = widths.iter().map(|&w| if w == 1 { prop_oneof![3 => Just(0u64), 2 => Just(1u64)].boxed() } else { (0u64..(1u64 << w)).boxed() }).collect::<Vec<_>>();
    prop::collection::vec(frame, 1..max_cycles).prop_map(move |cycles| {
        let mut s = Stimulus::new(layout.clone());
        let mut f = Frame::new(layout.clone());
        for (c, values) in cycles.iter().enumerate() {
            for (k, &v) in values.iter().enumerate() {
                let is_rst = k == 0;
                f.set(verif::stimulus::Slot(k), if is_rst { (v == 1 && c % 7 == 6) as u64 } else { v });
            }
            s.push(&f);
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference_on_arbitrary_inputs(stim in stimulus_strategy(small(), 60)) {
        let p = small();
        let hw_out = run(&mut NetlistSim::new(&build(&p)), &stim).unwrap();
        let ref_out = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
        prop_assert_eq!(first_mismatch(&ref_out, &hw_out), None);
    }

    #[test]
    fn pending_and_long_properties_hold(stim in stimulus_strategy(small(), 60)) {
        let p = small();
        prop_assert_eq!(props::pending_and_long(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
    }

    #[test]
    fn copy_and_n_untouched_property_holds(stim in stimulus_strategy(small(), 60)) {
        let p = small();
        prop_assert_eq!(props::copy_and_n_untouched(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
    }
}

/// The SM's shape: eight sources and four destinations per instruction
/// (vector stores, 64-bit addresses), every source port in use.
#[test]
fn hardware_matches_reference_with_eight_sources() {
    let p = ScoreboardParams { warps: 3, regs: 6, issue_ports: 2, wb_ports: 2, srcs: 8, dsts: 4 };
    let stim = driven(&p, 3, 3000);
    let hw_out = run(&mut NetlistSim::new(&build(&p)), &stim).unwrap();
    let ref_out = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
    assert_eq!(first_mismatch(&ref_out, &hw_out), None);
}

#[test]
fn properties_hold_at_default_size_on_protocol_traffic() {
    let p = ScoreboardParams::default();
    let top = build(&p);
    let stim = driven(&p, 7, 20_000);
    assert_eq!(props::pending_and_long(&mut NetlistSim::new(&top), &p, &stim), Ok(()));
    assert_eq!(props::copy_and_n_untouched(&mut NetlistSim::new(&top), &p, &stim), Ok(()));
    assert_eq!(props::pending_and_long(&mut ScoreboardModel::new(&p), &p, &stim), Ok(()));
    let a = run(&mut NetlistSim::new(&top), &stim).unwrap();
    let b = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
    assert_eq!(first_mismatch(&b, &a), None);
}

#[test]
fn properties_catch_a_broken_scoreboard() {
    // A model that forgets the writeback bypass must violate the pending property.
    struct NoBypass(ScoreboardModel, Vec<sim::PortId>);
    impl Component for NoBypass {
        fn name(&self) -> &str { "nobypass" }
        fn ports(&self) -> &[sim::PortSpec] { self.0.ports() }
        fn set(&mut self, p: sim::PortId, v: &[u64]) {
            // Hide writebacks from the query by disabling them until tick.
            self.0.set(p, v)
        }
        fn get(&self, p: sim::PortId) -> &[u64] { self.0.get(p) }
        fn eval(&mut self) {
            let saved: Vec<u64> = self.1.iter().map(|&id| self.0.get_u64(id)).collect();
            for &id in &self.1 { self.0.set_u64(id, 0); }
            self.0.eval();
            for (&id, v) in self.1.iter().zip(saved) { self.0.set_u64(id, v); }
        }
        fn tick(&mut self) { self.0.tick() }
    }
    let p = small();
    let m = ScoreboardModel::new(&p);
    let ens = (0..p.wb_ports).map(|j| m.input(&format!("wb{j}_en")).unwrap()).collect();
    let stim = driven(&p, 3, 2000);
    assert!(props::pending_and_long(&mut NoBypass(m, ens), &p, &stim).is_err());
}

/// One cycle of named inputs on the default scoreboard (others zero).
fn cycle(sb: &mut dyn Component, inputs: &[(&str, u64)]) {
    for (i, port) in sb.ports().to_vec().iter().enumerate() {
        if port.dir == sim::Dir::In {
            sb.set(sim::PortId(i as u32), &[0]);
        }
    }
    for (n, v) in inputs {
        let id = sb.input(n).unwrap();
        sb.set_u64(id, *v);
    }
    sb.eval();
}

fn out(sb: &dyn Component, n: &str) -> bool {
    sb.get_bool(sb.output(n).unwrap())
}

#[test]
fn same_cycle_issue_writeback_and_mode_entry() {
    let p = ScoreboardParams::default();
    let top = build(&p);
    let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&top)), Box::new(ScoreboardModel::new(&p))];
    for mut sb in engines {
        let sb = sb.as_mut();
        // Warp 5 issues a global load to r10 on the N board.
        cycle(sb, &[("iss0_warp", 5), ("iss0_dst", 10), ("iss0_dst_vld", 1), ("iss0_fire", 1), ("iss0_long", 1)]);
        sb.tick();
        // A dependent instruction sees pending + long; the writeback of r10 in
        // the same cycle bypasses: not pending, not long.
        cycle(sb, &[("iss0_warp", 5), ("iss0_src0", 10), ("iss0_src0_vld", 1)]);
        assert!(out(sb, "iss0_stall") && out(sb, "iss0_long_dep"));
        cycle(sb, &[("iss0_warp", 5), ("iss0_src0", 10), ("iss0_src0_vld", 1), ("wb0_en", 1), ("wb0_warp", 5), ("wb0_reg", 10), ("wb0_n", 1)]);
        assert!(!out(sb, "iss0_stall") && !out(sb, "iss0_long_dep"));
        // Same cycle: the writeback of r10 and a new (short) issue to r10: the
        // issue wins, r10 stays pending and is no longer long.
        cycle(sb, &[
            ("iss1_warp", 5), ("iss1_dst", 10), ("iss1_dst_vld", 1), ("iss1_fire", 1),
            ("wb1_en", 1), ("wb1_warp", 5), ("wb1_reg", 10), ("wb1_n", 1),
        ]);
        sb.tick();
        cycle(sb, &[("iss0_warp", 5), ("iss0_src1", 10), ("iss0_src1_vld", 1)]);
        assert!(out(sb, "iss0_src_pending") && !out(sb, "iss0_long_dep"));
        // Another load to r20; mode entry copies the N board (with the r20 issue
        // of the same cycle) to the P board in one cycle.
        cycle(sb, &[("iss0_warp", 5), ("iss0_dst", 20), ("iss0_dst_vld", 1), ("iss0_fire", 1), ("iss0_long", 1), ("copy_en", 1), ("copy_warp", 5)]);
        sb.tick();
        cycle(sb, &[("iss0_warp", 5), ("iss0_pmode", 1), ("iss0_src0", 20), ("iss0_src0_vld", 1), ("iss0_src1", 10), ("iss0_src1_vld", 1)]);
        assert!(out(sb, "iss0_long_dep") && out(sb, "iss0_src_pending"));
        assert!(out(sb, "iss0_src0_long") && !out(sb, "iss0_src1_long"));
        // P-mode: skip an instruction writing r30 (long source r20), issue one
        // to r31; the N board does not see either.
        cycle(sb, &[("iss0_warp", 5), ("iss0_pmode", 1), ("iss0_dst", 30), ("iss0_dst_vld", 1), ("iss0_skip", 1),
                    ("iss1_warp", 5), ("iss1_pmode", 1), ("iss1_dst", 31), ("iss1_dst_vld", 1), ("iss1_fire", 1)]);
        sb.tick();
        cycle(sb, &[("iss0_warp", 5), ("iss0_pmode", 1), ("iss0_src0", 30), ("iss0_src0_vld", 1), ("iss0_dst", 31), ("iss0_dst_vld", 1),
                    ("iss1_warp", 5), ("iss1_src0", 30), ("iss1_src0_vld", 1), ("iss1_dst", 31), ("iss1_dst_vld", 1)]);
        assert!(out(sb, "iss0_long_dep") && !out(sb, "iss0_src_pending") && out(sb, "iss0_dst_pending"));
        assert!(!out(sb, "iss1_long_dep") && !out(sb, "iss1_stall"));
        // Register 63 (RZ) and warp 50 are out of range: never pending.
        cycle(sb, &[("iss0_warp", 5), ("iss0_dst", 63), ("iss0_dst_vld", 1), ("iss0_fire", 1), ("iss1_warp", 50), ("iss1_dst", 1), ("iss1_dst_vld", 1), ("iss1_fire", 1)]);
        sb.tick();
        cycle(sb, &[("iss0_warp", 5), ("iss0_dst", 63), ("iss0_dst_vld", 1), ("iss1_warp", 50), ("iss1_dst", 1), ("iss1_dst_vld", 1)]);
        assert!(!out(sb, "iss0_stall") && !out(sb, "iss1_stall"));
        // Reset clears everything.
        cycle(sb, &[("rst", 1)]);
        sb.tick();
        cycle(sb, &[("iss0_warp", 5), ("iss0_src0", 10), ("iss0_src0_vld", 1)]);
        assert!(!out(sb, "iss0_stall"));
    }
}

#[test]
fn verilator_cosim_100k_cycles_default_size() {
    let p = ScoreboardParams::default();
    let top = hw::registry::find("scoreboard").unwrap();
    let top = top.elaborate(&top.default_params()).unwrap();
    let stim = driven(&p, 2026, 100_000);
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work("sb-verilator")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!((r.cycles, r.outputs), (100_000, 12));
}

#[test]
fn iverilog_cosim_second_opinion() {
    let p = small();
    let top = build(&p);
    let stim = driven(&p, 11, 3000);
    let r = cosim(&top, None, &stim, Simulator::Iverilog, &work("sb-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn injected_verilog_fault_is_caught_with_waves() {
    let p = small();
    let top = build(&p);
    let mut files = hw::verilog::emit(&top);
    let f = files.iter_mut().find(|f| f.module == top.name).unwrap();
    // Break the writeback bypass of issue port 0's long row: `& ~clear` -> `& clear`.
    let needle = "assign iss0_long_row = ";
    let line_start = f.text.find(needle).expect("named wire present");
    let line_end = line_start + f.text[line_start..].find('\n').unwrap();
    let line = f.text[line_start..line_end].to_string();
    let broken = line.replacen("iss0_pmode ?", "!iss0_pmode ?", 1);
    assert_ne!(line, broken, "fault injection must change the line: {line}");
    f.text = f.text.replacen(&line, &broken, 1);
    let stim = driven(&p, 5, 2000);
    let dir = work("sb-fault");
    let r = cosim(&top, Some(&files), &stim, Simulator::Verilator, &dir).unwrap();
    let m = r.mismatch.expect("the injected fault must be caught");
    assert!(m.mismatch.port.starts_with("iss0_"), "{m}");
    assert!(m.rust_vcd.exists() && m.rtl_vcd.exists());
    // The two traces disagree at the mismatch (on the inputs' shared paths they agree).
    let d = waves::diff_files(&m.rust_vcd, &m.rtl_vcd, Some("TOP."), 10).unwrap().expect("waves differ");
    assert!(d.time <= 10 * (m.mismatch.cycle as u64 + 1), "{d:?}");
}

#[test]
fn rust_and_verilator_waves_agree_and_share_a_save_file() {
    use verif::cosim::{write_waves, Flavor, RtlBuild};
    let p = small();
    let top = build(&p);
    let stim = driven(&p, 8, 500);
    let rtl = RtlBuild::new(&hw::verilog::emit(&top), &top, Simulator::Verilator, Flavor::Check).unwrap();
    let (rust, veri) = write_waves(&top, &rtl, &stim, &work("sb-waves"), 0, 499).unwrap();
    // Every signal both traces hold (ports, wires, registers, array words)
    // agrees at every time after the reset cycle.
    assert_eq!(waves::diff_files(&rust, &veri, Some("TOP."), 10).unwrap(), None);
    // The GTKWave save file written for the Rust trace names signals that
    // exist in Verilator's trace too.
    let g = sim::trace::gtkw_for(&NetlistSim::new(&top), "x.vcd").render();
    let vtext = std::fs::read_to_string(&veri).unwrap();
    for line in g.lines().filter(|l| l.starts_with("TOP.")) {
        let name = line.rsplit('.').next().unwrap().split('[').next().unwrap();
        assert!(vtext.contains(&format!(" {name} ")), "{name} missing in Verilator's VCD");
    }
}
