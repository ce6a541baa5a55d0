//! Every IR operator, narrow and wide, through the netlist simulator and the
//! emitted Verilog under Verilator and iverilog: outputs must match exactly.

use hw::ir::*;
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::stimulus::{InputLayout, RandomDriver, Stimulus};

fn accumulator() -> Arc<Module> {
    let m = ModuleBuilder::new("ks_acc");
    let d = m.input("d", 100);
    let en = m.input("en", 1);
    let q = m.output("q", 100);
    let total = m.reg("total", 100, 3);
    total.set_if(en, total + d);
    q.set(total);
    m.finish().unwrap()
}

fn kitchen_sink() -> Arc<Module> {
    let acc = accumulator();
    let m = ModuleBuilder::new("kitchen_sink");
    let a = m.input("a", 8);
    let b = m.input("b", 8);
    let w = m.input("w", 130);
    let v = m.input("v", 130);
    let idx = m.input("idx", 6);
    let sh = m.input("sh", 8);
    let o_narrow = m.output("o_narrow", 72);
    let o_cmp = m.output("o_cmp", 16);
    let o_wide = m.output("o_wide", 130);
    let o_wcmp = m.output("o_wcmp", 8);
    let o_mem = m.output("o_mem", 63);
    let o_acc = m.output("o_acc", 100);
    let o_misc = m.output("o_misc", 32);
    let o_red = m.output("o_red", 20);
    let o_ram = m.output("o_ram", 70);
    let o_sync = m.output("o_sync", 70);

    let prod = a * b;
    let narrow = cat(&[
        (a + b), (a - b), (a & b), (a | b), (!a ^ b), prod, a.shl(sh.trunc(4)), b.sra(sh.trunc(3)),
    ]);
    o_narrow.set(narrow);
    o_cmp.set(cat(&[
        a.eq(b), a.ne(b), a.lt(b), a.le(b), a.gt(b), a.ge(b), a.lt_s(b), a.le_s(b), a.gt_s(b), a.ge_s(b),
        a.any(), a.all(), a.parity(), a.msb(), a.bit_at(sh.trunc(4)), b.eq(0u64),
    ]));
    let wsum = (w + v) ^ (w - v).shr(sh) ^ w.shl(sh) ^ v.sra(sh) ^ !(w & v) ^ (w | v);
    o_wide.set(mux(a.bit(0), wsum, w.bits(129, 0)));
    o_wcmp.set(cat(&[w.eq(v), w.lt(v), w.le(v), w.lt_s(v), w.le_s(v), w.any(), w.all(), w.parity()]));
    let tbl = m.reg_array("tbl", 48, 63, 5);
    tbl.write(idx, w.slice(3, 63), a.bit(1));
    tbl.write(idx ^ 1u64, v.trunc(63), a.bit(2) & b.bit(0));
    o_mem.set(tbl.read(idx) ^ tbl.at(7));
    let u = m.instance("acc", &acc);
    u.connect("d", w.trunc(100) ^ v.slice(30, 100));
    u.connect("en", b.bit(3));
    o_acc.set(u.output("q"));
    let wide_prod = w.slice(0, 70) * v.slice(60, 70);
    let misc = cat(&[
        wide_prod.bits(139, 132), w.ffs(), v.count_ones(), a.sext(8).bits(7, 7), b.zext(9).bits(8, 8), a.repeat(2).bits(15, 14),
    ]);
    o_misc.set(misc.resize(32));
    let red = cat(&[w.ffs(), w.trunc(64).count_ones(), a.ffs(), pick(sh.trunc(2), &[a.trunc(3), b.trunc(3), lit(5, 3)])]);
    o_red.set(red.resize(20));
    let ram = m.mem("ram", 5, 70);
    ram.write(idx.trunc(3), w.slice(10, 70), a.bit(3));
    o_ram.set(ram.read(b.trunc(3)));
    let rd = ram.read_sync("ram_q", idx.bits(5, 3), a.bit(4));
    o_sync.set(rd);
    let cnt = m.reg("cnt", 70, 0);
    cnt.set(cnt + 1u64);
    let _ = cnt.named("cnt_view");
    m.finish().unwrap()
}

fn stimulus(top: &Arc<Module>, seed: u64, cycles: u64) -> Stimulus {
    let sim = sim::NetlistSim::new(top);
    let layout = InputLayout::of(sim::Component::ports(&sim));
    let mut d = RandomDriver::new(layout, seed, 0.01);
    Stimulus::record(&mut d, cycles)
}

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn kitchen_sink_matches_verilator() {
    let top = kitchen_sink();
    let stim = stimulus(&top, 1, 5000);
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work("ks-verilator")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!(r.cycles, 5000);
}

#[test]
fn kitchen_sink_matches_iverilog() {
    let top = kitchen_sink();
    let stim = stimulus(&top, 2, 2000);
    let r = cosim(&top, None, &stim, Simulator::Iverilog, &work("ks-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn kitchen_sink_is_lint_clean() {
    let top = kitchen_sink();
    let files = hw::verilog::emit(&top);
    let r = verif::lint::lint(&files, &top.name, &work("ks-lint"), verif::lint::Flow::Generic).unwrap();
    assert!(r.passed(), "{r:#?}");
    assert!(r.synth.ffs > 0);
}

/// Register arrays deeper than Verilator's 64-iteration loop unrolling reset
/// through nested loops; every depth shape works in both simulators.
#[test]
fn deep_register_arrays_reset_in_every_engine() {
    for depth in [64u32, 65, 1000] {
        let m = ModuleBuilder::new(&format!("deep_{depth}"));
        let aw = hw::clog2(depth as u64);
        let a = m.input("a", aw);
        let b = m.input("b", aw);
        let d = m.input("d", 3);
        let arr = m.reg_array("r", depth, 3, 5);
        arr.write(a, d, d.bit(0));
        m.output("q", 3).set(arr.read(b));
        let top = m.finish().unwrap();
        let stim = stimulus(&top, depth as u64, 600);
        let r = cosim(&top, None, &stim, Simulator::Verilator, &work(&format!("deep-{depth}"))).unwrap();
        assert!(r.mismatch.is_none(), "depth {depth}: {}", r.mismatch.unwrap());
        if depth == 1000 {
            let r = cosim(&top, None, &stim, Simulator::Iverilog, &work("deep-iv")).unwrap();
            assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
            let lint = verif::lint::lint(&hw::verilog::emit(&top), &top.name, &work("deep-lint"), verif::lint::Flow::Coarse).unwrap();
            assert!(lint.passed(), "{lint:#?}");
        }
    }
}
