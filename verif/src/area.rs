//! FPGA area of the emitted Verilog against hand-written references.
//!
//! For a few blocks at one parameter set each, `verif/fixtures/area` holds
//! the Verilog an RTL engineer would write by hand (test fixtures, never
//! product: the Rust generator stays the single source of every block's
//! Verilog). This module proves each fixture equal to the emitted module and
//! measures both with yosys:
//!
//! - [`prove_equal`]: the step function — for every state and input, the same
//!   outputs and next state — with yosys `equiv_make` / `equiv_simple` /
//!   `equiv_induct`, matching only ports and flip-flops (by name: the fixtures
//!   keep the emitted registers and register arrays). The proof must cover
//!   every output bit and every state bit.
//! - [`cosim_equal`]: random co-simulation, the same stimulus through the
//!   Rust netlist simulation, the emitted Verilog and the fixture, every
//!   output on every cycle.
//! - [`synth_pair`]: yosys `synth_ice40` (LUT4, flip-flops, carries) and
//!   generic `synth` (cells) of both.

use crate::cosim::{io_err, CosimError, Flavor, RtlBuild, Simulator};
use crate::lint::{synth, Check, Flow, SynthStats};
use crate::run::{first_mismatch, run, Mismatch, OutputTrace};
use crate::stimulus::{Driver, Frame, InputLayout, RandomDriver, Stimulus};
use hw::ir::Module;
use hw::verilog::VerilogFile;
use sim::{Component, NetlistSim};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// A hand-written reference: a block at one parameter set and its fixture.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    pub block: &'static str,
    /// Parameter overrides (the rest are the block's defaults).
    pub params: &'static [(&'static str, &'static str)],
    /// File in `verif/fixtures/area`, holding module `<block>_hand`.
    pub file: &'static str,
}

/// Every reference, smallest first.
pub const REFERENCES: &[Reference] = &[
    Reference { block: "credit_tracker", params: &[], file: "credit_tracker_hand.v" },
    Reference { block: "warp_buffer", params: &[], file: "warp_buffer_hand.v" },
    Reference { block: "scoreboard", params: &[("warps", "4"), ("regs", "16")], file: "scoreboard_hand.v" },
    Reference { block: "pqueue", params: &[("warps", "4")], file: "pqueue_hand.v" },
    Reference { block: "mshr_table", params: &[], file: "mshr_table_hand.v" },
];

/// Folder of the fixtures.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("area")
}

impl Reference {
    /// The fixture's module name.
    pub fn hand_module(&self) -> String {
        format!("{}_hand", self.block)
    }

    /// `name=value` list of the parameter overrides (for display).
    pub fn params_text(&self) -> String {
        if self.params.is_empty() {
            "defaults".into()
        } else {
            self.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        }
    }

    fn param_list(&self) -> Vec<(String, String)> {
        self.params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// The generated module for this parameter set.
    pub fn elaborate(&self) -> Result<Arc<Module>, String> {
        let info = hw::registry::find(self.block).map_err(|e| e.to_string())?;
        let p = info.params(&self.param_list()).map_err(|e| e.to_string())?;
        info.elaborate(&p).map_err(|e| format!("{}: {e}", self.block))
    }

    /// The fixture, its module renamed to `top` (the emitted module's name)
    /// so the co-simulation harness instantiates either the same way.
    pub fn hand_files(&self, top: &str) -> Result<Vec<VerilogFile>, String> {
        let path = fixture_dir().join(self.file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let decl = format!("module {} (", self.hand_module());
        if text.matches(&decl).count() != 1 {
            return Err(format!("{}: expected one `{decl}`", path.display()));
        }
        let text = text.replace(&decl, &format!("module {top} ("));
        Ok(vec![VerilogFile { module: top.to_string(), file_name: format!("{top}.v"), text }])
    }

    /// Driver traffic for this block and parameter set, if it has a driver.
    fn driver(&self, seed: u64) -> Option<Box<dyn Driver>> {
        let info = hw::registry::find(self.block).ok()?;
        let p = info.params(&self.param_list()).ok()?;
        let v = crate::registry::find(self.block)?;
        (v.driver)(&p, seed).ok()
    }
}

/// `cycles` of stimulus for `top`: segments of the block's constrained-random
/// driver (deep, legal traffic: merges, wrap-arounds, full queues) alternate
/// with uniformly random inputs (every input value, illegal ones included,
/// in the states that traffic reached; rare resets).
pub fn stimulus(r: &Reference, top: &Module, cycles: u64, seed: u64) -> Stimulus {
    const SEGMENT: u64 = 500;
    let layout = InputLayout::of(&crate::cosim::component_ports(top));
    let mut random = RandomDriver::new(layout.clone(), seed ^ 0x5eed, 0.002);
    let mut traffic = r.driver(seed).filter(|d| d.layout().as_ref() == layout.as_ref());
    let mut stim = Stimulus::new(layout.clone());
    let mut frame = Frame::new(layout);
    for c in 0..cycles {
        frame.clear();
        match traffic.as_mut() {
            Some(d) if (c / SEGMENT).is_multiple_of(2) => d.next(&mut frame),
            _ => random.next(&mut frame),
        }
        stim.push(&frame);
    }
    stim
}

/// Outcome of a co-simulation of the emitted and the hand-written module.
#[derive(Clone, Debug)]
pub struct CosimOutcome {
    pub cycles: usize,
    pub outputs: usize,
    /// First difference between the netlist simulation and the emitted RTL.
    pub emitted: Option<Mismatch>,
    /// First difference between the netlist simulation and the fixture.
    pub hand: Option<Mismatch>,
}

impl CosimOutcome {
    pub fn equal(&self) -> bool {
        self.emitted.is_none() && self.hand.is_none()
    }
}

/// Run `stim` through the Rust netlist simulation of `top`, through the
/// fixture and (with `emitted_too`) through the emitted Verilog, all under
/// `simulator`; every output compared on every cycle.
pub fn cosim_equal(
    r: &Reference,
    top: &Arc<Module>,
    stim: &Stimulus,
    simulator: Simulator,
    emitted_too: bool,
    work: &Path,
) -> Result<CosimOutcome, CosimError> {
    let hand = r.hand_files(&top.name).map_err(CosimError::Setup)?;
    cosim_files(top, &hand, stim, simulator, emitted_too, work)
}

/// [`cosim_equal`] with the hand-written module given as `hand` (its module
/// named like `top`).
pub fn cosim_files(
    top: &Arc<Module>,
    hand: &[VerilogFile],
    stim: &Stimulus,
    simulator: Simulator,
    emitted_too: bool,
    work: &Path,
) -> Result<CosimOutcome, CosimError> {
    let mut netlist = NetlistSim::new(top);
    let expected = run(&mut netlist, stim).map_err(CosimError::Setup)?;
    let rtl_trace = |files: &[VerilogFile], sub: &str| -> Result<OutputTrace, CosimError> {
        let rtl = RtlBuild::new(files, top, simulator, Flavor::Check)?;
        rtl.run(stim, &work.join(sub), None)
    };
    let hand = first_mismatch(&expected, &rtl_trace(hand, "hand")?);
    let emitted = if emitted_too { first_mismatch(&expected, &rtl_trace(&hw::verilog::emit(top), "emitted")?) } else { None };
    let outputs = netlist.ports().iter().filter(|p| p.dir == sim::Dir::Out).count();
    Ok(CosimOutcome { cycles: stim.cycles(), outputs, emitted, hand })
}

/// Outcome of the yosys step-function proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// `$equiv` cells (matched port and flip-flop bits).
    pub cells: u64,
    pub proven: u64,
    /// Output bits plus state bits of the emitted module: what must be covered.
    pub required: u64,
    /// Unproven signals, as yosys names them (first few).
    pub unproven: Vec<String>,
    pub seconds: f64,
    pub log: PathBuf,
}

impl Proof {
    pub fn holds(&self) -> bool {
        self.unproven.is_empty() && self.proven == self.cells && self.cells == self.required
    }
}

/// Prove the fixture's step function equal to the emitted module's with
/// yosys (see the module documentation). `emitted` are the emitted files of
/// `top` (or a copy of them); files are written under `work`.
pub fn prove_equal(r: &Reference, top: &Module, emitted: &[VerilogFile], work: &Path) -> Result<Proof, CosimError> {
    let dir = work.join("proof");
    let _ = std::fs::remove_dir_all(&dir);
    let gold = crate::lint::write_files(emitted, &dir.join("gold"))?;
    let hand = r.hand_files("gate").map_err(CosimError::Setup)?;
    let gate = crate::lint::write_files(&hand, &dir.join("gate"))?;
    let reads_gold: Vec<String> = gold.iter().map(|f| format!("read_verilog gold/{f}")).collect();
    let reads_gate: Vec<String> = gate.iter().map(|f| format!("read_verilog gate/{f}")).collect();
    // Only ports and flip-flop outputs keep public names, so equiv_make
    // matches exactly those: internal wires may differ where they are don't
    // cares. equiv_make fails if the port lists differ.
    let script = format!(
        "{}\nhierarchy -top {top}\nproc\nflatten\nrename {top} gold\n{}\nproc\nmemory\nopt -fast\n\
         rename -hide w:* t:*dff* %x:+[Q] t:*dff* %d %d\n\
         equiv_make gold gate equiv\nhierarchy -top equiv\nequiv_simple\nequiv_induct\nequiv_status\n",
        reads_gold.join("\n"),
        reads_gate.join("\n"),
        top = top.name
    );
    let ys = dir.join("equiv.ys");
    std::fs::write(&ys, &script).map_err(io_err(&ys))?;
    let log = dir.join("equiv.log");
    let start = Instant::now();
    let out =
        crate::cosim::command_output(Command::new("yosys").current_dir(&dir).args(["-q", "-l", "equiv.log", "-s", "equiv.ys"]), "yosys")?;
    let seconds = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if !out.status.success() {
        let msg = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        return Err(CosimError::Run {
            tool: "yosys".into(),
            top: top.name.clone(),
            message: format!("{} (log: {})", crate::cosim::tail(&msg, 10), log.display()),
        });
    }
    let status = text.rsplit("Executing EQUIV_STATUS pass").next().unwrap_or("");
    let number = |prefix: &str, after: &str| -> u64 {
        status
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix(prefix)
                    .and_then(|t| t.split_whitespace().next())
                    .filter(|_| l.contains(after))
                    .and_then(|n| n.parse().ok())
            })
            .unwrap_or(0)
    };
    let cells = number("Found", "$equiv cells");
    let proven = if status.contains("Equivalence successfully proven!") { cells } else { number("Of those cells", "are proven") };
    let unproven: Vec<String> = status
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Unproven $equiv "))
        .map(|l| l.split_once(": ").map(|x| x.1).unwrap_or(l).to_string())
        .take(8)
        .collect();
    let outputs: u64 = top.outputs().map(|s| s.width as u64).sum();
    let required = outputs + hw::stats::Storage::of(top).total_bits();
    Ok(Proof { cells, proven, required, unproven, seconds, log })
}

/// Synthesis figures of one module.
#[derive(Clone, Debug, Default)]
pub struct Area {
    pub ice40: SynthStats,
    pub generic: SynthStats,
    /// yosys run time of `synth_ice40` and of `synth`.
    pub ice40_seconds: f64,
    pub generic_seconds: f64,
}

/// Synthesize `files` (top module `top`, written to `dir`) with one yosys
/// flow: its figures and the run time in seconds; a failed check is an error.
pub fn synthesize_flow(files: &[VerilogFile], top: &str, flow: Flow, dir: &Path) -> Result<(SynthStats, f64), CosimError> {
    let names = crate::lint::write_files(files, dir)?;
    let start = Instant::now();
    let (check, stats) = synth(dir, &names, top, flow)?;
    let secs = start.elapsed().as_secs_f64();
    if let Check::Fail(why) = check {
        return Err(CosimError::Run { tool: "yosys".into(), top: top.to_string(), message: why });
    }
    Ok((stats, secs))
}

/// Synthesize `files` (top module `top`) with `synth_ice40` and generic `synth`.
pub fn synthesize(files: &[VerilogFile], top: &str, work: &Path) -> Result<Area, CosimError> {
    let mut area = Area::default();
    for (flow, sub) in [(Flow::Ice40, "ice40"), (Flow::Generic, "generic")] {
        let (stats, secs) = synthesize_flow(files, top, flow, &work.join(sub))?;
        match flow {
            Flow::Ice40 => (area.ice40, area.ice40_seconds) = (stats, secs),
            _ => (area.generic, area.generic_seconds) = (stats, secs),
        }
    }
    Ok(area)
}

/// Both modules synthesized: (emitted, hand).
pub fn synth_pair(r: &Reference, top: &Module, work: &Path) -> Result<(Area, Area), CosimError> {
    let emitted = synthesize(&hw::verilog::emit(top), &top.name, &work.join("emitted"))?;
    let hand_files = r.hand_files(&top.name).map_err(CosimError::Setup)?;
    let hand = synthesize(&hand_files, &top.name, &work.join("hand"))?;
    Ok((emitted, hand))
}
