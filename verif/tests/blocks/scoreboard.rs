//! Dual-mode scoreboard: the generated hardware against its reference model
//! (proptest), its port-level properties, the same-cycle rules, and
//! co-simulation of the emitted Verilog under Verilator and iverilog.

use crate::common::{arbitrary, record, work};
use hw::blocks::pmode::scoreboard::ScoreboardParams;
use hw::ir::Module;
use hw::Block;
use models::pmode::scoreboard::ScoreboardModel;
use proptest::prelude::*;
use hw::iface::InterfaceExt;
use sim::{Bind, Component, ComponentExt, NetlistSim, PortId};
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::pmode::scoreboard::{props, ScoreboardDriver};
use verif::run::{first_mismatch, run};
use verif::stimulus::Stimulus;

fn build(p: &ScoreboardParams) -> Arc<Module> {
    p.elaborate().unwrap()
}

fn small() -> ScoreboardParams {
    // Few warps and registers (with out-of-range ids 6, 7 and warp 3) make
    // conflicts between ports frequent.
    ScoreboardParams { warps: 3, regs: 6, issue_ports: 2, wb_ports: 2, srcs: 2, dsts: 1 }
}

/// The SM's instructions: up to 6 sources and 4 destinations (64-bit pairs,
/// `ld.v4`), on few warps and registers.
fn wide() -> ScoreboardParams {
    ScoreboardParams { warps: 3, regs: 6, issue_ports: 2, wb_ports: 2, srcs: 6, dsts: 4 }
}

fn driven(p: &ScoreboardParams, seed: u64, cycles: u64) -> Stimulus {
    record(&mut ScoreboardDriver::new(p, seed), cycles)
}

#[test]
fn model_and_hardware_have_the_same_ports() {
    for p in [ScoreboardParams::default(), small(), wide()] {
        let sim = NetlistSim::new(&build(&p));
        assert_eq!(sim.ports(), p.ports().as_slice());
        assert_eq!(ScoreboardModel::new(&p).ports(), p.ports().as_slice());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference_with_several_destinations(stim in arbitrary(&wide().ports(), 60, 7)) {
        let p = wide();
        let hw_out = run(&mut NetlistSim::new(&build(&p)), &stim).unwrap();
        let ref_out = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
        prop_assert_eq!(first_mismatch(&ref_out, &hw_out), None);
        prop_assert_eq!(props::pending_and_long(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
        prop_assert_eq!(props::copy_and_n_untouched(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
    }

    #[test]
    fn hardware_matches_reference_on_arbitrary_inputs(stim in arbitrary(&small().ports(), 60, 7)) {
        let p = small();
        let hw_out = run(&mut NetlistSim::new(&build(&p)), &stim).unwrap();
        let ref_out = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
        prop_assert_eq!(first_mismatch(&ref_out, &hw_out), None);
    }

    #[test]
    fn pending_and_long_properties_hold(stim in arbitrary(&small().ports(), 60, 7)) {
        let p = small();
        prop_assert_eq!(props::pending_and_long(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
    }

    #[test]
    fn copy_and_n_untouched_property_holds(stim in arbitrary(&small().ports(), 60, 7)) {
        let p = small();
        prop_assert_eq!(props::copy_and_n_untouched(&mut NetlistSim::new(&build(&p)), &p, &stim), Ok(()));
    }
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
    struct NoBypass(ScoreboardModel, Vec<PortId>);
    impl Component for NoBypass {
        fn name(&self) -> &str {
            "nobypass"
        }
        fn ports(&self) -> &[sim::PortSpec] {
            self.0.ports()
        }
        fn set(&mut self, p: PortId, v: &[u64]) {
            self.0.set(p, v)
        }
        fn get(&self, p: PortId) -> &[u64] {
            self.0.get(p)
        }
        fn eval(&mut self) {
            // Hide the writebacks from the query.
            let saved: Vec<u64> = self.1.iter().map(|&id| self.0.get_u64(id)).collect();
            for &id in &self.1 {
                self.0.set_u64(id, 0);
            }
            self.0.eval();
            for (&id, v) in self.1.iter().zip(saved) {
                self.0.set_u64(id, v);
            }
        }
        fn tick(&mut self) {
            self.0.tick()
        }
    }
    let p = small();
    let m = ScoreboardModel::new(&p);
    let ens = p.bind(&m).unwrap().wb.iter().map(|w| w.en).collect();
    let stim = driven(&p, 3, 2000);
    assert!(props::pending_and_long(&mut NoBypass(m, ens), &p, &stim).is_err());
}

/// One cycle of the given inputs (every other input 0).
fn cycle(sb: &mut dyn Component, inputs: &[(PortId, u64)]) {
    verif::poke::clear_inputs(sb);
    for &(id, v) in inputs {
        sb.set_u64(id, v);
    }
    sb.eval();
}

#[test]
fn same_cycle_issue_writeback_and_mode_entry() {
    let p = ScoreboardParams::default();
    let top = build(&p);
    let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&top)), Box::new(ScoreboardModel::new(&p))];
    for mut sb in engines {
        let sb = sb.as_mut();
        let io = p.bind(sb).unwrap();
        let (i0, i1, w0, w1) = (&io.iss[0], &io.iss[1], &io.wb[0], &io.wb[1]);
        let out = |sb: &dyn Component, id: PortId| sb.get_bool(id);
        // Warp 5 issues a global load to r10 on the N board.
        cycle(sb, &[(i0.warp, 5), (i0.dst[0].reg, 10), (i0.dst[0].vld, 1), (i0.fire, 1), (i0.long, 1)]);
        sb.tick();
        // A dependent instruction sees pending + long; the writeback of r10 in
        // the same cycle bypasses: not pending, not long.
        cycle(sb, &[(i0.warp, 5), (i0.src[0].reg, 10), (i0.src[0].vld, 1)]);
        assert!(out(sb, i0.stall) && out(sb, i0.long_dep));
        cycle(sb, &[(i0.warp, 5), (i0.src[0].reg, 10), (i0.src[0].vld, 1), (w0.en, 1), (w0.warp, 5), (w0.reg, 10), (w0.n, 1)]);
        assert!(!out(sb, i0.stall) && !out(sb, i0.long_dep));
        // Same cycle: the writeback of r10 and a new (short) issue to r10: the
        // issue wins, r10 stays pending and is no longer long.
        cycle(sb, &[(i1.warp, 5), (i1.dst[0].reg, 10), (i1.dst[0].vld, 1), (i1.fire, 1), (w1.en, 1), (w1.warp, 5), (w1.reg, 10), (w1.n, 1)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 5), (i0.src[1].reg, 10), (i0.src[1].vld, 1)]);
        assert!(out(sb, i0.src_pending) && !out(sb, i0.long_dep));
        // Another load to r20; mode entry copies the N board (with the r20 issue
        // of the same cycle) to the P board in one cycle.
        cycle(sb, &[(i0.warp, 5), (i0.dst[0].reg, 20), (i0.dst[0].vld, 1), (i0.fire, 1), (i0.long, 1), (io.copy_en, 1), (io.copy_warp, 5)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 5), (i0.pmode, 1), (i0.src[0].reg, 20), (i0.src[0].vld, 1), (i0.src[1].reg, 10), (i0.src[1].vld, 1)]);
        assert!(out(sb, i0.long_dep) && out(sb, i0.src_pending));
        assert!(out(sb, i0.src_long[0]) && !out(sb, i0.src_long[1]));
        // P-mode: skip an instruction writing r30 (long source r20), issue one
        // to r31; the N board does not see either.
        cycle(sb, &[
            (i0.warp, 5), (i0.pmode, 1), (i0.dst[0].reg, 30), (i0.dst[0].vld, 1), (i0.skip, 1),
            (i1.warp, 5), (i1.pmode, 1), (i1.dst[0].reg, 31), (i1.dst[0].vld, 1), (i1.fire, 1),
        ]);
        sb.tick();
        cycle(sb, &[
            (i0.warp, 5), (i0.pmode, 1), (i0.src[0].reg, 30), (i0.src[0].vld, 1), (i0.dst[0].reg, 31), (i0.dst[0].vld, 1),
            (i1.warp, 5), (i1.src[0].reg, 30), (i1.src[0].vld, 1), (i1.dst[0].reg, 31), (i1.dst[0].vld, 1),
        ]);
        assert!(out(sb, i0.long_dep) && !out(sb, i0.src_pending) && out(sb, i0.dst_pending));
        assert!(!out(sb, i1.long_dep) && !out(sb, i1.stall));
        // Register 63 (RZ) and warp 50 are out of range: never pending.
        cycle(sb, &[(i0.warp, 5), (i0.dst[0].reg, 63), (i0.dst[0].vld, 1), (i0.fire, 1), (i1.warp, 50), (i1.dst[0].reg, 1), (i1.dst[0].vld, 1), (i1.fire, 1)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 5), (i0.dst[0].reg, 63), (i0.dst[0].vld, 1), (i1.warp, 50), (i1.dst[0].reg, 1), (i1.dst[0].vld, 1)]);
        assert!(!out(sb, i0.stall) && !out(sb, i1.stall));
        // Reset clears everything.
        cycle(sb, &[(io.rst, 1)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 5), (i0.src[0].reg, 10), (i0.src[0].vld, 1)]);
        assert!(!out(sb, i0.stall));
    }
}

/// Several destinations: every valid one is marked at fire (and long for a
/// load) and at skip, `dst_pending` is any valid one pending, an invalid one
/// is ignored, a register named twice is marked once; each clears on its own
/// writeback.
#[test]
fn several_destinations_are_marked_and_cleared_one_by_one() {
    let p = ScoreboardParams { dsts: 4, srcs: 6, ..ScoreboardParams::default() };
    let top = build(&p);
    let names: Vec<String> = p.decls().iss[0].dst.iter().flat_map(|d| [d.reg.name.clone(), d.vld.name.clone()]).collect();
    assert_eq!(names, ["iss0_dst", "iss0_dst_vld", "iss0_dst1", "iss0_dst1_vld", "iss0_dst2", "iss0_dst2_vld", "iss0_dst3", "iss0_dst3_vld"]);
    let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&top)), Box::new(ScoreboardModel::new(&p))];
    for mut sb in engines {
        let sb = sb.as_mut();
        let io = p.bind(sb).unwrap();
        let (i0, w0) = (&io.iss[0], &io.wb[0]);
        let out = |sb: &dyn Component, id: PortId| sb.get_bool(id);
        // Warp 2: a 64-bit global load into r10:r11 (destinations 0 and 1),
        // destination 2 invalid (r20), destination 3 naming r10 again.
        cycle(sb, &[
            (i0.warp, 2), (i0.dst[0].reg, 10), (i0.dst[0].vld, 1), (i0.dst[1].reg, 11), (i0.dst[1].vld, 1),
            (i0.dst[2].reg, 20), (i0.dst[3].reg, 10), (i0.dst[3].vld, 1), (i0.fire, 1), (i0.long, 1),
        ]);
        sb.tick();
        // Sources r10, r11 (sources 0 and 5) are pending and long; r20 is not.
        cycle(sb, &[(i0.warp, 2), (i0.src[0].reg, 11), (i0.src[0].vld, 1), (i0.src[5].reg, 20), (i0.src[5].vld, 1)]);
        assert!(out(sb, i0.src_pending) && out(sb, i0.long_dep) && out(sb, i0.src_long[0]) && !out(sb, i0.src_long[5]));
        // WAW on destination 3 only: dst_pending.
        cycle(sb, &[(i0.warp, 2), (i0.dst[0].reg, 30), (i0.dst[0].vld, 1), (i0.dst[3].reg, 11), (i0.dst[3].vld, 1)]);
        assert!(out(sb, i0.dst_pending) && out(sb, i0.stall));
        // r10 writes back: r11 stays pending.
        cycle(sb, &[(w0.en, 1), (w0.warp, 2), (w0.reg, 10), (w0.n, 1), (w0.p, 1)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 2), (i0.src[1].reg, 10), (i0.src[1].vld, 1), (i0.src[2].reg, 11), (i0.src[2].vld, 1)]);
        assert!(out(sb, i0.src_pending) && !out(sb, i0.src_long[1]) && out(sb, i0.src_long[2]));
        cycle(sb, &[(w0.en, 1), (w0.warp, 2), (w0.reg, 11), (w0.n, 1), (w0.p, 1)]);
        sb.tick();
        cycle(sb, &[(i0.warp, 2), (i0.src[2].reg, 11), (i0.src[2].vld, 1)]);
        assert!(!out(sb, i0.src_pending) && !out(sb, i0.long_dep));
        // P-mode skip of a 4-register instruction marks every valid
        // destination long on the P board only.
        cycle(sb, &[(io.copy_en, 1), (io.copy_warp, 2)]);
        sb.tick();
        let skip: Vec<(PortId, u64)> = (0..4u64)
            .flat_map(|d| [(i0.dst[d as usize].reg, 40 + d), (i0.dst[d as usize].vld, 1)])
            .chain([(i0.warp, 2), (i0.pmode, 1), (i0.skip, 1)])
            .collect();
        cycle(sb, &skip);
        sb.tick();
        for (pmode, want) in [(1, true), (0, false)] {
            cycle(sb, &[(i0.warp, 2), (i0.pmode, pmode), (i0.src[4].reg, 43), (i0.src[4].vld, 1)]);
            assert_eq!(out(sb, i0.long_dep), want, "pmode {pmode}");
        }
    }
}

/// The SM's scoreboard (6 sources, 4 destinations, few warps and registers)
/// under Verilator on the driver's traffic.
#[test]
fn verilator_cosim_with_several_destinations() {
    let p = wide();
    let top = build(&p);
    let stim = driven(&p, 2027, 20_000);
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work("sb-dsts4-verilator")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!(r.cycles, 20_000);
    assert_eq!(props::pending_and_long(&mut NetlistSim::new(&top), &p, &stim), Ok(()));
    let a = run(&mut NetlistSim::new(&top), &stim).unwrap();
    let b = run(&mut ScoreboardModel::new(&p), &stim).unwrap();
    assert_eq!(first_mismatch(&b, &a), None);
}

#[test]
fn verilator_cosim_100k_cycles_default_size() {
    let (_, _, r) = crate::common::verilator_100k("scoreboard", 2026);
    assert_eq!(r.outputs, 14);
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
    // Break the board select of issue port 0's long row (N and P swapped).
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
