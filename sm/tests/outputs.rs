//! What a timing run writes besides its statistics: the VCD (stage signals
//! and the blocks' own scopes under their RTL names), the GTKWave save file,
//! the Kanata pipeline log, and the deadlock report.

use kernel::{load, CompileOptions, LaunchFile};
use sm::core::{Outputs, VcdRequest};
use sm::{Config, Engine};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn suite(name: &str) -> (Arc<kernel::Kernel>, Arc<kernel::Launch>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let m = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
    let k = m.only_kernel().unwrap().clone();
    let l = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&m, &k).unwrap();
    (Arc::new(k), Arc::new(l))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wf-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn vcd_holds_stage_signals_and_the_blocks_rtl_scopes() {
    let (k, l) = suite("vecadd");
    let cfg = Config::preset("hpca16_pmode").single_sm();
    for engine in [Engine::Model, Engine::Compiled] {
        let vcd = tmp(&format!("vecadd-{engine}.vcd"));
        let out = Outputs { vcd: Some(VcdRequest { path: vcd.clone(), from: 100, to: 300, memories: false }), ..Outputs::default() };
        let o = sm::run::simulate(Arc::clone(&k), Arc::clone(&l), &cfg, engine, out).unwrap();
        assert!(o.stats.cycles > 300);
        let paths = waves::signal_paths(&vcd).unwrap();
        let has = |p: &str| paths.iter().any(|x| x == p);
        for p in ["TOP.clk", "TOP.sm.fetch0.pc", "TOP.sm.issue1.stall", "TOP.sm.mem.hazard", "TOP.sm.wb0.warp"] {
            assert!(has(p), "{engine}: no {p}");
        }
        // Every port of the blocks' Verilog modules, under the same name. The
        // scoreboard has as many operand ports as the kernel's widest
        // instruction uses.
        let func = sm::func::Functional::new(Arc::clone(&k), Arc::clone(&l), cfg.core.max_warps, cfg.core.max_ctas).unwrap();
        let ops = sm::blocks::Operands::of(&func.ops(&cfg).unwrap());
        let (srcs, dsts, wb_ports) = (ops.reads.to_string(), ops.writes.to_string(), (2 * ops.writes).to_string());
        assert!(ops.reads < 8 && !has("TOP.sm.sb.iss0_src7"), "vecadd reads fewer than 8 registers an instruction");
        for (scope, block, params) in [
            ("sb", "scoreboard", vec![("warps", "48"), ("regs", "72"), ("issue_ports", "2"), ("wb_ports", wb_ports.as_str()), ("srcs", srcs.as_str()), ("dsts", dsts.as_str())]),
            ("mshr", "mshr_table", vec![("entries", "96"), ("merge_limit", "8"), ("line_bits", "25"), ("id_bits", "8")]),
        ] {
            let info = hw::registry::find(block).unwrap();
            let ov: Vec<(String, String)> = params.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            let m = info.elaborate(&info.params(&ov).unwrap()).unwrap();
            for p in m.inputs().chain(m.outputs()) {
                assert!(has(&format!("TOP.sm.{scope}.{}", p.name)), "{engine}: no TOP.sm.{scope}.{}", p.name);
            }
        }
        if engine == Engine::Compiled {
            // An RTL engine also shows the block's internal registers.
            assert!(paths.iter().any(|p| p.starts_with("TOP.sm.sb.") && p.contains("pending")), "no scoreboard internals");
        }
        let gtkw = std::fs::read_to_string(vcd.with_extension("gtkw")).unwrap();
        for g in ["stage issue0", "stage mem", "sb ports", "mshr ports"] {
            assert!(gtkw.contains(g), "{engine}: save file lacks group {g}");
        }
        // The window: cycle 100 is the first time written, 300 the last.
        let text = std::fs::read_to_string(&vcd).unwrap();
        assert!(text.contains("\n#1000\n") && text.contains("\n#3005\n") && !text.contains("\n#3010\n") && !text.contains("\n#990\n"));
    }
}

#[test]
fn pipeview_lists_every_instruction_with_its_stages_in_order() {
    let (k, l) = suite("reduction");
    let log = tmp("reduction.log");
    let out = Outputs { pipeview: Some(sm::pipeview::Kanata::new(Box::new(std::fs::File::create(&log).unwrap()))), ..Outputs::default() };
    let o = sm::run::simulate(k, l, &Config::preset("hpca16_pmode").single_sm(), Engine::Model, out).unwrap();
    let recs = sm::pipeview::parse(&std::fs::read_to_string(&log).unwrap()).unwrap();
    let retired: Vec<_> = recs.iter().filter(|r| matches!(r.retired, Some((_, false)))).collect();
    assert_eq!(retired.len() as u64, o.stats.warp_insts);
    for r in &retired {
        let names: Vec<&str> = r.stages.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, sm::pipeview::STAGES, "{}", r.label);
        assert!(r.stages.windows(2).all(|w| w[0].1 <= w[1].1), "{}: {:?}", r.label, r.stages);
        assert!(r.retired.unwrap().0 >= r.stages[4].1);
    }
    // Everything fetched either retired or was flushed.
    assert!(recs.iter().all(|r| r.retired.is_some()));
}

#[test]
fn no_progress_stops_with_a_report() {
    // One warp waiting 440 cycles for DRAM, with a 100-cycle patience.
    let (k, l) = suite("pmode_loop");
    let cfg = Config::preset("hpca16_pmode").single_sm().with_override("limits.deadlock_cycles=100").unwrap();
    let e = sm::run::simulate(k, l, &cfg, Engine::Model, Outputs::default()).err().expect("a deadlock report");
    assert!(e.starts_with("deadlock: no progress for 100 cycles"), "{e}");
    assert!(e.contains("warp 0") && e.contains("long-latency"), "{e}");
    // One `next:` per warp line (the instruction is not repeated inside the reason).
    for line in e.lines().filter(|l| l.trim_start().starts_with("warp ")) {
        assert_eq!(line.matches("next").count(), 1, "{line}");
    }
}
