//! Co-simulation: the same stimulus through a Rust engine (the netlist
//! interpreter by default, the compiled engine or the reference model) and
//! through the emitted Verilog under Verilator (or iverilog as a second
//! opinion), every output compared on every cycle.
//!
//! Harnesses are generated per module and parameter set and cached by a
//! content hash of the Verilog, the harness and the tool version, in
//! `$WARPFORGE_CACHE` (default `~/.cache/warpforge`): a second run, or another
//! test with the same block and parameters, reuses the build.

mod cache;
mod iverilog;
mod verilator;

use crate::run::{first_mismatch, Mismatch, OutputTrace};
use crate::stimulus::{push_hex, Stimulus};
use hw::ir::Module;
use hw::verilog::VerilogFile;
use sim::trace::{TraceOptions, Tracer};
use sim::{Component, Dir, Engine, EngineOptions, PortSpec};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use cache::cache_root;

/// Which Verilog simulator runs the RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    Verilator,
    Iverilog,
}

impl Simulator {
    pub fn name(self) -> &'static str {
        match self {
            Simulator::Verilator => "verilator",
            Simulator::Iverilog => "iverilog",
        }
    }
}

/// How a Verilator harness is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// Tracing compiled in, moderate optimisation: for comparisons.
    Check,
    /// `-O3`, no tracing: for benchmarks.
    Bench,
}

#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    #[error("`{tool}` was not found: install it (apt-get install -y verilator iverilog yosys)")]
    ToolMissing { tool: String },
    #[error("{tool} failed to build `{top}` (log: {log}):\n{tail}")]
    Build { tool: String, top: String, log: String, tail: String },
    #[error("{tool} run of `{top}` failed: {message}")]
    Run { tool: String, top: String, message: String },
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Engine(#[from] sim::EngineError),
}

pub fn io_err(path: &Path) -> impl Fn(std::io::Error) -> CosimError + '_ {
    move |source| CosimError::Io { path: path.display().to_string(), source }
}

/// A compiled RTL simulation of one top module.
#[derive(Clone, Debug)]
pub struct RtlBuild {
    pub simulator: Simulator,
    pub top: String,
    pub dir: PathBuf,
    exe: PathBuf,
    inputs: Vec<PortSpec>,
    outputs: Vec<PortSpec>,
    /// True when this call compiled it (false: found in the cache).
    pub built: bool,
}

/// The component-level ports of a module: `rst` first (if it has state to
/// reset), then its declared ports — the same list the netlist simulator and
/// the reference models expose.
pub fn component_ports(top: &Module) -> Vec<PortSpec> {
    let mut ports = Vec::new();
    if top.uses_reset {
        ports.push(PortSpec::input("rst", 1));
    }
    for &p in &top.ports {
        let s = &top.signals[p as usize];
        ports.push(if s.kind == hw::ir::SigKind::Input {
            PortSpec::input(s.name.clone(), s.width)
        } else {
            PortSpec::output(s.name.clone(), s.width)
        });
    }
    ports
}

impl RtlBuild {
    /// Build (or find in the cache) a harness for `files`, whose top module
    /// is `top` with `ports` (see [`component_ports`]).
    pub fn new(files: &[VerilogFile], top: &Module, simulator: Simulator, flavor: Flavor) -> Result<RtlBuild, CosimError> {
        let ports = component_ports(top);
        let inputs: Vec<PortSpec> = ports.iter().filter(|p| p.dir == Dir::In).cloned().collect();
        let outputs: Vec<PortSpec> = ports.iter().filter(|p| p.dir == Dir::Out).cloned().collect();
        let (dir, exe, built) = match simulator {
            Simulator::Verilator => verilator::build(files, top, &inputs, &outputs, flavor)?,
            Simulator::Iverilog => iverilog::build(files, top, &inputs, &outputs)?,
        };
        Ok(RtlBuild { simulator, top: top.name.clone(), dir, exe, inputs, outputs, built })
    }

    fn write_stimulus(&self, stim: &Stimulus, path: &Path) -> Result<(), CosimError> {
        if stim.layout().ports() != self.inputs.as_slice() {
            return Err(CosimError::Setup(format!("stimulus does not match the inputs of `{}`", self.top)));
        }
        let mut text = String::with_capacity(stim.cycles() * 8 * self.inputs.len());
        for c in 0..stim.cycles() {
            let words = stim.cycle(c);
            for k in 0..self.inputs.len() {
                if k > 0 {
                    text.push(' ');
                }
                push_hex(&mut text, &words[stim.layout().range(crate::stimulus::Slot(k))]);
            }
            text.push('\n');
        }
        std::fs::write(path, text).map_err(io_err(path))
    }

    /// Run `stim` (after the reset cycle); record outputs; optionally dump a
    /// VCD of stimulus cycles `from..=to`.
    pub fn run(&self, stim: &Stimulus, work: &Path, vcd: Option<(&Path, usize, usize)>) -> Result<OutputTrace, CosimError> {
        std::fs::create_dir_all(work).map_err(io_err(work))?;
        let stim_path = work.join(format!("{}.stim.hex", self.top));
        let out_path = work.join(format!("{}.{}.out.hex", self.top, self.simulator.name()));
        self.write_stimulus(stim, &stim_path)?;
        let status = match self.simulator {
            Simulator::Verilator => verilator::run(&self.exe, &stim_path, &out_path, stim.cycles(), vcd)?,
            Simulator::Iverilog => iverilog::run(&self.exe, &stim_path, &out_path, stim.cycles(), vcd)?,
        };
        if !status.0 {
            return Err(CosimError::Run { tool: self.simulator.name().into(), top: self.top.clone(), message: status.1 });
        }
        self.read_outputs(&out_path, stim.cycles())
    }

    /// Cycles per second of the compiled model over `stim` (repeated until at
    /// least `min_seconds` have passed), measured inside the harness.
    pub fn bench(&self, stim: &Stimulus, work: &Path, min_seconds: f64) -> Result<f64, CosimError> {
        if self.simulator != Simulator::Verilator {
            return Err(CosimError::Setup("benchmarks run under Verilator".into()));
        }
        std::fs::create_dir_all(work).map_err(io_err(work))?;
        let stim_path = work.join(format!("{}.bench.stim.hex", self.top));
        self.write_stimulus(stim, &stim_path)?;
        verilator::bench(&self.exe, &stim_path, stim.cycles(), min_seconds)
    }

    fn read_outputs(&self, path: &Path, cycles: usize) -> Result<OutputTrace, CosimError> {
        let text = std::fs::read_to_string(path).map_err(io_err(path))?;
        let mut all: Vec<PortSpec> = self.inputs.clone();
        all.extend(self.outputs.iter().cloned());
        let mut trace = OutputTrace::new(&all);
        let bad = |line: usize, msg: String| CosimError::Run {
            tool: self.simulator.name().into(),
            top: self.top.clone(),
            message: format!("{}:{}: {msg}", path.display(), line + 1),
        };
        let mut n = 0;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != self.outputs.len() {
                return Err(bad(i, format!("expected {} outputs, found {}", self.outputs.len(), fields.len())));
            }
            for (f, p) in fields.iter().zip(&self.outputs) {
                // Unknown bits (x/z from iverilog) become a value no real
                // output can have, so they always mismatch.
                let words = match crate::stimulus::parse_hex(f, p.width) {
                    Some(w) => w,
                    None => vec![u64::MAX; p.words()],
                };
                trace.push_words(&words);
            }
            n += 1;
        }
        if n != cycles {
            return Err(bad(n, format!("{n} cycles of output for {cycles} cycles of stimulus")));
        }
        Ok(trace)
    }
}

/// Result of a co-simulation.
#[derive(Clone, Debug)]
pub struct CosimReport {
    pub simulator: Simulator,
    /// The Rust side (`Rtl` resolved to the engine that ran).
    pub engine: Engine,
    pub cycles: usize,
    pub outputs: usize,
    pub built: bool,
    pub mismatch: Option<CosimMismatch>,
}

/// The first mismatch, with the two VCDs written around it.
#[derive(Clone, Debug)]
pub struct CosimMismatch {
    /// The Rust side, in words (`the compiled engine`).
    pub rust: String,
    pub mismatch: Mismatch,
    pub rust_vcd: PathBuf,
    pub rtl_vcd: PathBuf,
}

impl std::fmt::Display for CosimMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.mismatch;
        write!(
            f,
            "mismatch at cycle {}: output `{}` is {} in {} but {} in the Verilog; waves: {} and {}",
            m.cycle,
            m.port,
            m.expected,
            self.rust,
            m.actual,
            self.rust_vcd.display(),
            self.rtl_vcd.display()
        )
    }
}

/// Co-simulate `top` on the netlist interpreter against its emitted Verilog
/// (or `files`, e.g. a deliberately altered copy) on `stim`. Writes working
/// files and, on a mismatch, both VCDs into `work`.
pub fn cosim(
    top: &Arc<Module>,
    files: Option<&[VerilogFile]>,
    stim: &Stimulus,
    simulator: Simulator,
    work: &Path,
) -> Result<CosimReport, CosimError> {
    cosim_with(top, files, stim, simulator, work, Engine::Netlist, None)
}

/// What an engine is called in reports.
pub fn engine_words(engine: Engine) -> &'static str {
    match engine {
        Engine::Model => "the reference model",
        Engine::Netlist | Engine::Rtl => "the Rust netlist simulation",
        Engine::Compiled => "the compiled engine",
    }
}

/// [`cosim`] with the Rust side on `engine`: an RTL engine built here, or
/// for [`Engine::Model`] the block's reference model `model`. On a mismatch
/// the Rust VCD comes from the RTL engine (the interpreter for a model, which
/// has no internal signals).
pub fn cosim_with(
    top: &Arc<Module>,
    files: Option<&[VerilogFile]>,
    stim: &Stimulus,
    simulator: Simulator,
    work: &Path,
    engine: Engine,
    model: Option<&mut dyn Component>,
) -> Result<CosimReport, CosimError> {
    let emitted;
    let files = match files {
        Some(f) => f,
        None => {
            emitted = hw::verilog::emit(top);
            &emitted
        }
    };
    let rtl = RtlBuild::new(files, top, simulator, Flavor::Check)?;
    let (expected, engine) = match (engine, model) {
        (Engine::Model, Some(m)) => (crate::run::run(m, stim).map_err(CosimError::Setup)?, Engine::Model),
        (Engine::Model, None) => return Err(CosimError::Setup("co-simulating the reference model needs the model".into())),
        (e, _) => {
            let mut sim = sim::rtl_sim(top, e, &EngineOptions::default())?;
            (crate::run::run(sim.as_mut(), stim).map_err(CosimError::Setup)?, sim.engine())
        }
    };
    let actual = rtl.run(stim, work, None)?;
    let mut report = CosimReport { simulator, engine, cycles: stim.cycles(), outputs: expected.ports().len(), built: rtl.built, mismatch: None };
    if let Some(m) = first_mismatch(&expected, &actual) {
        let waves_engine = if engine == Engine::Model { Engine::Netlist } else { engine };
        let (rust_vcd, rtl_vcd) = write_waves_with(top, waves_engine, &rtl, stim, work, m.cycle.saturating_sub(40), m.cycle + 2)?;
        report.mismatch = Some(CosimMismatch { rust: engine_words(engine).to_string(), mismatch: m, rust_vcd, rtl_vcd });
    }
    Ok(report)
}

/// Run `stim` through the Rust netlist simulation and through `rtl`, each
/// writing a VCD of stimulus cycles `from..=to` into `work`; returns the two
/// paths (Rust first). Both traces use the same scope names and times.
pub fn write_waves(top: &Arc<Module>, rtl: &RtlBuild, stim: &Stimulus, work: &Path, from: usize, to: usize) -> Result<(PathBuf, PathBuf), CosimError> {
    write_waves_with(top, Engine::Netlist, rtl, stim, work, from, to)
}

/// [`write_waves`] with the Rust trace from RTL engine `engine`.
pub fn write_waves_with(
    top: &Arc<Module>,
    engine: Engine,
    rtl: &RtlBuild,
    stim: &Stimulus,
    work: &Path,
    from: usize,
    to: usize,
) -> Result<(PathBuf, PathBuf), CosimError> {
    std::fs::create_dir_all(work).map_err(io_err(work))?;
    let rust_vcd = work.join(format!("{}.rust.vcd", top.name));
    let rtl_vcd = work.join(format!("{}.{}.vcd", top.name, rtl.simulator.name()));
    let mut sim = sim::rtl_sim(top, engine, &EngineOptions::default())?;
    let opts = TraceOptions { memories: true, ..Default::default() };
    let mut tracer = Tracer::create(&rust_vcd, sim.as_ref(), opts).map_err(io_err(&rust_vcd))?;
    crate::run::run_traced(sim.as_mut(), stim, &mut tracer, from, to).map_err(CosimError::Setup)?;
    tracer.finish().map_err(io_err(&rust_vcd))?;
    rtl.run(stim, work, Some((&rtl_vcd, from, to)))?;
    Ok((rust_vcd, rtl_vcd))
}

/// Run a command, capturing output; `Err(ToolMissing)` if it cannot start.
pub fn command_output(cmd: &mut std::process::Command, tool: &str) -> Result<std::process::Output, CosimError> {
    cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => CosimError::ToolMissing { tool: tool.to_string() },
        _ => CosimError::Run { tool: tool.to_string(), top: String::new(), message: e.to_string() },
    })
}

/// Last lines of a tool log, for error messages.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
