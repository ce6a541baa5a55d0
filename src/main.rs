//! `warpforge`: list blocks, emit Verilog, simulate with waves, co-simulate
//! against Verilator or iverilog, lint and compare waves; compile and list
//! kernels and run them on the functional model.

use clap::{Parser, Subcommand, ValueEnum};
use hw::registry::BlockInfo;
use hw::stats::{Storage, StorageKind};
use hw::Params;
use sim::trace::{gtkw_for, TraceOptions, Tracer};
use sim::{Component, Dir, EngineOptions, RtlSim, Visibility};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use verif::cosim::{cosim_with, Simulator};
use verif::run::{apply, check_inputs, output_ids};
use verif::stimulus::{Driver, Frame, Stimulus};

mod exec;
mod output;
mod progress;
mod sm_cmd;
mod workloads;

use output::create_dir;

#[derive(Parser)]
#[command(name = "warpforge", version, about = "Hardware construction kit and cycle-accurate model generator for GPU SM pipelines")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
struct BlockArgs {
    /// Block name (see `warpforge blocks`).
    #[arg(long)]
    block: String,
    /// Parameter override, `name=value` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

#[derive(clap::Args, Clone)]
struct StimArgs {
    /// Cycles to run after the reset cycle: of random stimulus (default
    /// 10000), or with --stim the file's first N (default: all of it).
    #[arg(long)]
    cycles: Option<u64>,
    /// Seed of the block's constrained-random stimulus driver.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replay a stimulus file instead (see `warpforge stim`).
    #[arg(long, value_name = "FILE")]
    stim: Option<PathBuf>,
}

/// One engine vocabulary for every command (docs/engines.md).
#[derive(Clone, Copy, ValueEnum)]
enum EngineArg {
    /// The netlist on the fastest exact RTL engine here: `compiled` when a C
    /// compiler is available, else `netlist`.
    Rtl,
    /// The netlist compiled to native code (C, built by the system compiler, cached).
    Compiled,
    /// The netlist interpreter.
    Netlist,
    /// The block's plain-Rust reference model.
    #[value(alias = "model")]
    Reference,
}

impl EngineArg {
    fn engine(self) -> sim::Engine {
        match self {
            EngineArg::Rtl => sim::Engine::Rtl,
            EngineArg::Compiled => sim::Engine::Compiled,
            EngineArg::Netlist => sim::Engine::Netlist,
            EngineArg::Reference => sim::Engine::Model,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FlowArg {
    /// Generic gates (`synth -flatten`).
    Generic,
    /// iCE40 LUT4 mapping (`synth_ice40`).
    Ice40,
    /// Both, generic first.
    Both,
    /// iCE40 LUT4 mapping of every module on its own (`synth_ice40
    /// -noflatten`), with each module's figures: for the composed units at
    /// full size, which take hours flattened.
    Ice40Hier,
    /// `ice40-hier` without ABC's `dch -f` and the renaming steps (`abc
    /// -dress`, `autoname`): about 1% more LUT4s, minutes where
    /// `ice40-hier` takes hours on the 48-warp P-mode unit.
    Ice40Fast,
}

#[derive(Clone, Copy, ValueEnum)]
enum SimulatorArg {
    Verilator,
    Iverilog,
}

#[derive(Subcommand)]
enum Cmd {
    /// List blocks, their parameters and the storage the emitted hardware holds.
    Blocks {
        /// Only this block.
        #[arg(long)]
        block: Option<String>,
        /// Parameter override for --block, `name=value` (repeatable).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Emit Verilog: one file per module of the block's hierarchy.
    Verilog {
        #[command(flatten)]
        block: BlockArgs,
        /// Output directory.
        #[arg(short, long, default_value = "out/verilog")]
        out: PathBuf,
    },
    /// Simulate with the block's random stimulus (or a file); optional VCD.
    Sim {
        #[command(flatten)]
        block: BlockArgs,
        #[command(flatten)]
        stim: StimArgs,
        /// Engine: rtl (default: compiled where a C compiler is available),
        /// compiled, netlist, or reference (alias model).
        #[arg(long, value_enum, default_value = "rtl")]
        engine: EngineArg,
        /// Write a VCD trace here.
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// First stimulus cycle to dump.
        #[arg(long, default_value_t = 0, requires = "vcd")]
        vcd_from: u64,
        /// Last stimulus cycle to dump.
        #[arg(long, requires = "vcd")]
        vcd_to: Option<u64>,
        /// Only dump signals whose path below the top starts with this.
        #[arg(long, value_name = "PREFIX", requires = "vcd")]
        vcd_scope: Option<String>,
        /// Also dump memory and register-array words.
        #[arg(long, requires = "vcd")]
        vcd_memories: bool,
        /// GTKWave save file (default: next to the VCD, `.gtkw`).
        #[arg(long, value_name = "FILE", requires = "vcd")]
        gtkw: Option<PathBuf>,
    },
    /// Co-simulate the Rust netlist model against the emitted Verilog.
    Cosim {
        #[command(flatten)]
        block: BlockArgs,
        #[command(flatten)]
        stim: StimArgs,
        #[arg(long, value_enum, default_value = "verilator")]
        simulator: SimulatorArg,
        /// The Rust side: rtl (default: compiled where a C compiler is
        /// available), compiled, netlist, or reference (alias model).
        #[arg(long, value_enum, default_value = "rtl")]
        engine: EngineArg,
        /// Working directory (stimulus, outputs, VCDs on a mismatch).
        #[arg(long, default_value = "out/cosim")]
        work: PathBuf,
    },
    /// Record the block's random stimulus to a file (editable, replayable).
    Stim {
        #[command(flatten)]
        block: BlockArgs,
        #[arg(long, default_value_t = 1000)]
        cycles: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(short, long)]
        out: PathBuf,
    },
    /// Verilator -Wall, iverilog and yosys (no latches) on emitted Verilog.
    Lint {
        /// Block name, or `all`.
        #[arg(long, default_value = "all")]
        block: String,
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        #[arg(long, default_value = "out/lint")]
        work: PathBuf,
        /// yosys: full generic synthesis (default) or the quick coarse flow.
        #[arg(long)]
        quick: bool,
    },
    /// Synthesize a block with yosys (generic `synth` and `synth_ice40`) and print cell counts.
    Synth {
        #[command(flatten)]
        block: BlockArgs,
        /// Which yosys flow(s) to run.
        #[arg(long, value_enum, default_value_t = FlowArg::Both)]
        flow: FlowArg,
        #[arg(long, default_value = "out/synth")]
        work: PathBuf,
    },
    /// Compile (`.cu`) or parse (`.ptx`) a kernel file and print the allocated
    /// code: registers used, basic blocks and reconvergence points.
    Kernel {
        /// A `.cu` (compiled with clang-14 or nvcc) or `.ptx` file.
        file: PathBuf,
        /// Only this kernel (PTX name or demangled base name).
        #[arg(long)]
        kernel: Option<String>,
        /// Print the PTX the compiler produced (for `.cu` files) instead.
        #[arg(long)]
        ptx: bool,
        /// Decouple the kernel (DAC, docs/dac.md): print where each
        /// instruction goes, then the affine and the non-affine stream.
        #[arg(long, conflicts_with_all = ["ptx", "trace_schedule"])]
        decouple: bool,
        #[command(flatten)]
        trace: TraceArgs,
        /// The compiler of a `.cu` file.
        #[arg(long, value_enum, default_value = "clang")]
        compiler: CompilerArg,
    },
    /// Run a kernel launch.
    Run {
        /// A `.cu` or `.ptx` file.
        file: PathBuf,
        /// Kernel name (PTX name or demangled base name); optional if the file has one kernel.
        #[arg(long)]
        kernel: Option<String>,
        /// Launch file (TOML: grid, block, args, buffers).
        #[arg(long, value_name = "L.toml")]
        launch: PathBuf,
        /// Run on the functional model only (no timing).
        #[arg(long, conflicts_with = "config")]
        functional: bool,
        /// Trace-schedule the kernel first (docs/tsched.md), trained on
        /// this launch file's run on the functional model.
        #[arg(long, value_name = "TRAIN.toml")]
        trace_schedule: Option<PathBuf>,
        #[command(flatten)]
        timing: sm_cmd::TimingArgs,
        /// Write every buffer after the run as DIR/NAME.bin (raw little-endian).
        #[arg(long, value_name = "DIR")]
        dump: Option<PathBuf>,
        #[command(flatten)]
        budget: sm_cmd::Budget,
        /// The compiler of a `.cu` file.
        #[arg(long, value_enum, default_value = "clang")]
        compiler: CompilerArg,
    },
    /// Stacked-bar SVG of the scheduler-cycle breakdown of several runs
    /// (stats files written by `run --stats`), normalized per kernel to its first run.
    Plot {
        /// Stats JSON files.
        files: Vec<PathBuf>,
        #[arg(long, short = 'o', default_value = "out/breakdown.svg")]
        out: PathBuf,
        #[arg(long, default_value = "Scheduler-cycle breakdown")]
        title: String,
    },
    /// Run a grid of timing runs (kernels x configs x modes x policies x
    /// engines x varied keys) in parallel into one CSV.
    Sweep(sm_cmd::SweepArgs),
    /// Run an unmodified CUDA program (built with `nvcc -cudart shared`) on
    /// warpforge: every launch on the timing SM, checked against the
    /// functional model (docs/exec.md).
    Exec(exec::ExecArgs),
    /// Build the benchmark applications of workloads/ with nvcc, run them
    /// unmodified through `exec` on the functional model and the timing SM,
    /// and check their output (docs/workloads.md).
    Workloads(workloads::WorkloadsArgs),
    /// Per kernel, each run of a sweep CSV against the kernel's baseline
    /// run: cycles, speedup, long-latency RAW and issued shares.
    Compare {
        /// A CSV written by `warpforge sweep`.
        file: PathBuf,
    },
    /// First difference between two VCD files (signals present in both).
    Wavediff {
        a: PathBuf,
        b: PathBuf,
        /// Only compare paths starting with this.
        #[arg(long)]
        scope: Option<String>,
        /// Ignore times before this (e.g. 10 skips the reset cycle).
        #[arg(long, default_value_t = 0)]
        from: u64,
    },
}

type Res<T> = Result<T, String>;

fn resolve(block: &str, params: &[String]) -> Res<(&'static BlockInfo, Params)> {
    let info = hw::registry::find(block).map_err(|e| e.to_string())?;
    let ov = Params::parse_assignments(params).map_err(|e| e.to_string())?;
    let p = info.params(&ov).map_err(|e| e.to_string())?;
    Ok((info, p))
}

/// Cycles of random stimulus when `--cycles` is not given.
const DEFAULT_CYCLES: u64 = 10_000;

fn stimulus(info: &BlockInfo, p: &Params, args: &StimArgs, ports: &[sim::PortSpec]) -> Res<Stimulus> {
    let layout = verif::stimulus::InputLayout::of(ports);
    match &args.stim {
        Some(path) => {
            let mut st = Stimulus::read_text(path, &layout).map_err(|e| e.to_string())?;
            if let Some(n) = args.cycles {
                if n > st.cycles() as u64 {
                    return Err(format!("--cycles {n}: {} holds {} cycles", path.display(), st.cycles()));
                }
                st.truncate(n as usize);
            }
            Ok(st)
        }
        None => {
            let mut d = driver(info, p, args.seed)?;
            Ok(Stimulus::record(d.as_mut(), args.cycles.unwrap_or(DEFAULT_CYCLES)))
        }
    }
}

fn driver(info: &BlockInfo, p: &Params, seed: u64) -> Res<Box<dyn Driver>> {
    let v = verif::registry::find(info.name).ok_or_else(|| format!("block `{}` has no stimulus driver", info.name))?;
    (v.driver)(p, seed).map_err(|e| e.to_string())
}

fn cmd_blocks(block: Option<String>, params: Vec<String>) -> Res<()> {
    let list: Vec<&BlockInfo> = match &block {
        Some(b) => vec![hw::registry::find(b).map_err(|e| e.to_string())?],
        None => {
            if !params.is_empty() {
                return Err("--param needs --block".into());
            }
            hw::registry::blocks()
        }
    };
    for info in list {
        let p = match &block {
            Some(b) => resolve(b, &params)?.1,
            None => info.default_params(),
        };
        println!("{} — {}", info.name, info.summary);
        println!("  source: {}", info.source);
        println!("  parameters:");
        for (spec, (_, v)) in info.params.iter().zip(p.iter()) {
            println!(
                "    {:<14} = {:<6} [{}..={}, paper {}: {}]  {}",
                spec.name, v, spec.min, spec.max, spec.default, spec.source, spec.doc
            );
        }
        let m = info.elaborate(&p).map_err(|e| e.to_string())?;
        let st = Storage::of(&m);
        println!("  emitted hardware `{}`: {} flip-flop bits, {} memory bits", m.name, st.ff_bits(), st.mem_bits());
        for it in &st.items {
            let path = if it.scope.is_empty() { it.name.clone() } else { format!("{}.{}", it.scope, it.name) };
            let kind = match it.kind {
                StorageKind::Reg => "register".to_string(),
                StorageKind::RegArray { depth, width } => format!("register array {depth} x {width}"),
                StorageKind::Ram { depth, width } => format!("RAM {depth} x {width}"),
            };
            println!("    {path:<28} {kind:<26} {:>8} bits", it.bits);
        }
        let acc = (info.storage)(&p).map_err(|e| e.to_string())?;
        let emitted = st.total_bits();
        if acc.paper.is_empty() {
            println!("  paper's accounting: none");
        } else {
            println!("  paper's accounting:");
            for f in &acc.paper {
                println!("    {:<54} {:>8} bits", f.what, f.bits);
            }
            println!("    {:<54} {:>8} bits", "total", acc.paper_bits());
        }
        if !acc.differences.is_empty() {
            println!("  emitted vs paper:");
            for d in &acc.differences {
                println!("    {:>+9} bits  {}", d.bits, d.reason);
            }
        }
        let verdict = if acc.expected_bits() == emitted as i64 {
            "= paper + differences".to_string()
        } else {
            format!("!= paper + differences = {} (the block's storage account is wrong)", acc.expected_bits())
        };
        println!("  emitted total {emitted} bits {verdict}");
        println!();
    }
    Ok(())
}

fn cmd_verilog(b: BlockArgs, out: PathBuf) -> Res<()> {
    let (info, p) = resolve(&b.block, &b.params)?;
    let m = info.elaborate(&p).map_err(|e| e.to_string())?;
    create_dir(&out)?;
    let files = hw::verilog::emit(&m);
    for f in &files {
        let path = out.join(&f.file_name);
        std::fs::write(&path, &f.text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    let list = out.join(format!("{}.f", m.name));
    let names: Vec<String> = files.iter().map(|f| f.file_name.clone()).collect();
    std::fs::write(&list, names.join("\n") + "\n").map_err(|e| format!("cannot write {}: {e}", list.display()))?;
    Ok(())
}

/// Where a simulation's inputs come from.
enum Source {
    Driver(Box<dyn Driver>),
    File(Stimulus),
}

/// Output activity of a run.
struct Activity {
    high: Vec<u64>,
    changes: Vec<u64>,
}

/// Run the reset cycle and `cycles` cycles; `sample(comp, slot, high)` is
/// called at every traced point (wave slot 0 is the reset cycle).
fn sim_loop<C: Component + ?Sized>(
    comp: &mut C,
    mut source: Source,
    cycles: u64,
    traced: impl Fn(u64) -> bool,
    mut sample: impl FnMut(&mut C, u64, bool) -> Res<()>,
) -> Res<Activity> {
    let layout = verif::stimulus::InputLayout::of(comp.ports());
    check_inputs(comp, &layout)?;
    let outs = output_ids(comp);
    let mut act = Activity { high: vec![0; outs.len()], changes: vec![0; outs.len()] };
    let mut last: Vec<Vec<u64>> = outs.iter().map(|&o| comp.get(o).to_vec()).collect();
    let mut frame = Frame::new(layout.clone());
    let bar = progress::Bar::new(Some(cycles), "{bar:40} {pos}/{len} cycles {per_sec} eta {eta}");
    for slot in 0..=cycles {
        if slot == 0 {
            frame.clear();
            if let Some(r) = layout.slot("rst") {
                frame.set(r, 1);
            }
        } else {
            match &mut source {
                Source::Driver(d) => {
                    frame.clear();
                    d.next(&mut frame);
                }
                Source::File(f) => frame.load(f.cycle(slot as usize - 1)),
            }
        }
        apply(comp, frame.words());
        comp.eval();
        if slot > 0 {
            for (k, &o) in outs.iter().enumerate() {
                let v = comp.get(o);
                if v.len() == 1 && v[0] == 1 {
                    act.high[k] += 1;
                }
                if v != last[k].as_slice() {
                    act.changes[k] += 1;
                    last[k].copy_from_slice(v);
                }
            }
        }
        let t = traced(slot);
        if t {
            sample(comp, slot, false)?;
        }
        comp.tick();
        if t {
            comp.eval();
            sample(comp, slot, true)?;
        }
        if slot % 4096 == 0 {
            bar.update(slot, String::new);
        }
    }
    bar.finish();
    Ok(act)
}

fn reference_model(info: &BlockInfo, p: &Params) -> Res<Box<dyn Component>> {
    models::model(info.name, p).map(|m| m as Box<dyn Component>).map_err(|e| e.to_string())
}

/// Build the RTL engine for `m`; also returns how the compiled engine got its
/// code (compile time or cache hit), for the run's report.
fn rtl_engine(m: &std::sync::Arc<hw::ir::Module>, engine: sim::Engine, vis: Visibility) -> Res<(Box<dyn RtlSim>, String)> {
    let opts = EngineOptions { visibility: vis, ..EngineOptions::default() };
    let sim = sim::rtl_sim(m, engine, &opts).map_err(|e| e.to_string())?;
    let note = match sim.build_info() {
        Some(b) if b.cached => format!("compiled model found in the cache in {:.2} s ({})", b.seconds, b.dir.display()),
        Some(b) => format!("model compiled in {:.2} s ({})", b.seconds, b.dir.display()),
        None if engine == sim::Engine::Rtl => format!("no C compiler (`{}`): the netlist interpreter runs", sim::compiled::compiler()),
        None => String::new(),
    };
    Ok((sim, note))
}

#[allow(clippy::too_many_arguments)]
fn cmd_sim(
    b: BlockArgs,
    s: StimArgs,
    engine: EngineArg,
    vcd: Option<PathBuf>,
    vcd_from: u64,
    vcd_to: Option<u64>,
    vcd_scope: Option<String>,
    vcd_memories: bool,
    gtkw: Option<PathBuf>,
) -> Res<()> {
    let (info, p) = resolve(&b.block, &b.params)?;
    let m = info.elaborate(&p).map_err(|e| e.to_string())?;
    let engine = engine.engine();
    if vcd.is_some() && !engine.is_rtl() {
        return Err("--vcd needs an RTL engine (rtl, compiled or netlist): the reference model has no internal signals".into());
    }
    // Waves need every signal; without them, only ports and state.
    let vis = if vcd.is_some() { Visibility::Full } else { Visibility::Ports };
    let (mut rtl, note) = if engine.is_rtl() {
        let (r, note) = rtl_engine(&m, engine, vis)?;
        (Some(r), note)
    } else {
        (None, String::new())
    };
    let mut model = if engine.is_rtl() { None } else { Some(reference_model(info, &p)?) };
    let ports = verif::cosim::component_ports(&m);
    let source = match &s.stim {
        Some(_) => Source::File(stimulus(info, &p, &s, &ports)?),
        None => Source::Driver(driver(info, &p, s.seed)?),
    };
    let cycles = match &source {
        Source::File(f) => f.cycles() as u64,
        Source::Driver(_) => s.cycles.unwrap_or(DEFAULT_CYCLES),
    };
    let opts = TraceOptions { scope: vcd_scope, memories: vcd_memories };
    if let (Some(_), Some(r)) = (&vcd, &rtl) {
        if let Some(to) = vcd_to.filter(|&to| to < vcd_from) {
            return Err(format!("--vcd-from {vcd_from} is after --vcd-to {to}: the wave window would be empty"));
        }
        if vcd_from > 0 && vcd_from >= cycles {
            return Err(format!("--vcd-from {vcd_from} is past the last cycle of the run ({})", cycles.saturating_sub(1)));
        }
        opts.check(r.as_ref()).map_err(|e| format!("--vcd-scope: {e}"))?;
    }
    let gtkw = vcd.as_ref().map(|path| gtkw.clone().unwrap_or_else(|| path.with_extension("gtkw")));
    for p in vcd.iter().chain(&gtkw) {
        output::prepare(p)?;
    }
    let start = Instant::now();
    let (act, ports, name) = match (&mut rtl, &mut model) {
        (Some(r), _) => {
            let mut tracer = match &vcd {
                Some(path) => {
                    Some(Tracer::create(path, r.as_ref(), opts.clone()).map_err(|e| format!("cannot write {}: {e}", path.display()))?)
                }
                None => None,
            };
            let window = |slot: u64| verif::run::traced_slot(slot, vcd_from, vcd_to);
            let vcd_err = |e: std::io::Error| format!("cannot write {}: {e}", vcd.as_ref().map_or(String::new(), |p| p.display().to_string()));
            let act = match tracer.as_mut() {
                Some(t) => sim_loop(r.as_mut(), source, cycles, window, |sim, slot, high| t.sample(sim, slot, high).map_err(vcd_err))?,
                None => sim_loop(r.as_mut(), source, cycles, |_| false, |_, _, _| Ok(()))?,
            };
            if let Some(t) = tracer {
                t.finish().map_err(vcd_err)?;
            }
            (act, r.ports().to_vec(), r.engine().name())
        }
        (_, Some(md)) => {
            let act = sim_loop(md.as_mut(), source, cycles, |_| false, |_, _, _| Ok(()))?;
            (act, md.ports().to_vec(), "reference")
        }
        _ => unreachable!("one engine is built"),
    };
    let secs = start.elapsed().as_secs_f64();
    println!("block {} ({p}), module `{}`, {name} engine", info.name, m.name);
    if !note.is_empty() {
        println!("{note}");
    }
    println!("{cycles} cycles (+1 reset cycle) in {secs:.3} s ({:.0} cycles/s)", cycles as f64 / secs.max(1e-9));
    println!("{:<24} {:>6} {:>12} {:>12}", "output", "width", "high cycles", "changes");
    for (k, spec) in ports.iter().filter(|q| q.dir == Dir::Out).enumerate() {
        let h = if spec.width == 1 { act.high[k].to_string() } else { "-".into() };
        println!("{:<24} {:>6} {:>12} {:>12}", spec.name, spec.width, h, act.changes[k]);
    }
    if let (Some(path), Some(r), Some(g)) = (&vcd, &rtl, &gtkw) {
        let same_dir = g.parent() == path.parent();
        let dump = match path.file_name() {
            Some(n) if same_dir => n.to_string_lossy().to_string(),
            _ => path.display().to_string(),
        };
        gtkw_for(r.as_ref(), &dump).write(g).map_err(|e| format!("cannot write {}: {e}", g.display()))?;
        println!("waves: {} (open with: gtkwave {} {})", path.display(), path.display(), g.display());
    }
    Ok(())
}

fn cmd_cosim(b: BlockArgs, s: StimArgs, simulator: SimulatorArg, engine: EngineArg, work: PathBuf) -> Res<()> {
    let (info, p) = resolve(&b.block, &b.params)?;
    let m = info.elaborate(&p).map_err(|e| e.to_string())?;
    let engine = engine.engine();
    let mut model = if engine.is_rtl() { None } else { Some(reference_model(info, &p)?) };
    let layout = verif::cosim::component_ports(&m);
    let stim = stimulus(info, &p, &s, &layout)?;
    create_dir(&work)?;
    let simulator = match simulator {
        SimulatorArg::Verilator => Simulator::Verilator,
        SimulatorArg::Iverilog => Simulator::Iverilog,
    };
    // Build (or find) the compiled model first, so its time shows apart.
    let note = if engine.is_rtl() { rtl_engine(&m, engine, Visibility::Full)?.1 } else { String::new() };
    let start = Instant::now();
    let spinner = progress::Spinner::new(format!("building and running {} ...", simulator.name()));
    let r = cosim_with(&m, None, &stim, simulator, &work, engine, model.as_mut().map(|b| b.as_mut() as &mut dyn Component))
        .map_err(|e| e.to_string())?;
    drop(spinner);
    match r.mismatch {
        None => {
            println!(
                "match: `{}` ({}) {} cycles, {} outputs, every cycle equal between {} and {} ({}; {:.1} s){}",
                m.name,
                p,
                r.cycles,
                r.outputs,
                verif::cosim::engine_words(r.engine),
                simulator.name(),
                if r.built { "harness built" } else { "cached harness" },
                start.elapsed().as_secs_f64(),
                if note.is_empty() { String::new() } else { format!("\n{note}") }
            );
            Ok(())
        }
        Some(mm) => Err(mm.to_string()),
    }
}

fn cmd_stim(b: BlockArgs, cycles: u64, seed: u64, out: PathBuf) -> Res<()> {
    let (info, p) = resolve(&b.block, &b.params)?;
    let mut d = driver(info, &p, seed)?;
    let st = Stimulus::record(d.as_mut(), cycles);
    output::prepare(&out)?;
    st.write_text(&out, &format!("block {} {p}\nseed {seed}", info.name)).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("{}: {cycles} cycles", out.display());
    Ok(())
}

fn cmd_lint(block: String, params: Vec<String>, work: PathBuf, quick: bool) -> Res<()> {
    let flow = if quick { verif::lint::Flow::Coarse } else { verif::lint::Flow::Generic };
    let list: Vec<(&BlockInfo, Params)> = if block == "all" {
        if !params.is_empty() {
            return Err("--param needs a single --block".into());
        }
        hw::registry::blocks().into_iter().map(|b| (b, b.default_params())).collect()
    } else {
        vec![resolve(&block, &params)?]
    };
    let mut failed = 0;
    println!("{:<28} {:>10} {:>9} {:>7} {:>8} {:>6}", "module", "verilator", "iverilog", "yosys", "cells", "ffs");
    for (info, p) in list {
        let m = info.elaborate(&p).map_err(|e| e.to_string())?;
        let files = hw::verilog::emit(&m);
        let spinner = progress::Spinner::new(format!("verilator, iverilog, yosys on `{}` ...", m.name));
        let r = verif::lint::lint(&files, &m.name, &work.join(&m.name), flow).map_err(|e| e.to_string())?;
        drop(spinner);
        let show = |c: &verif::lint::Check| if c.passed() { "ok" } else { "FAIL" };
        println!("{:<28} {:>10} {:>9} {:>7} {:>8} {:>6}", m.name, show(&r.verilator), show(&r.iverilog), show(&r.yosys), r.synth.cells, r.synth.ffs);
        for (tool, c) in [("verilator", &r.verilator), ("iverilog", &r.iverilog), ("yosys", &r.yosys)] {
            if let verif::lint::Check::Fail(msg) = c {
                failed += 1;
                eprintln!("{}: {tool}:\n{msg}", m.name);
            }
        }
    }
    if failed > 0 {
        return Err(format!("{failed} lint failure(s)"));
    }
    Ok(())
}

fn cmd_synth(b: BlockArgs, flow: FlowArg, work: PathBuf) -> Res<()> {
    let (info, p) = resolve(&b.block, &b.params)?;
    let m = info.elaborate(&p).map_err(|e| e.to_string())?;
    let dir = work.join(&m.name);
    let files = hw::verilog::emit(&m);
    let names = verif::lint::write_files(&files, &dir).map_err(|e| e.to_string())?;
    println!("`{}` ({p})", m.name);
    let flows = [
        (FlowArg::Generic, "synth", verif::lint::Flow::Generic),
        (FlowArg::Ice40, "synth_ice40", verif::lint::Flow::Ice40),
        (FlowArg::Ice40Hier, "synth_ice40 -noflatten", verif::lint::Flow::Ice40Hier),
        (FlowArg::Ice40Fast, "synth_ice40 -noflatten, fast", verif::lint::Flow::Ice40Fast),
    ];
    let both = |f: FlowArg| matches!(f, FlowArg::Generic | FlowArg::Ice40);
    for (_, label, flow) in flows.into_iter().filter(|f| flow == f.0 || flow == FlowArg::Both && both(f.0)) {
        let spinner = progress::Spinner::new(format!("yosys {label} on `{}` ...", m.name));
        let (check, st) = verif::lint::synth(&dir, &names, &m.name, flow).map_err(|e| e.to_string())?;
        drop(spinner);
        if let verif::lint::Check::Fail(msg) = check {
            return Err(format!("yosys {label} of `{}`: {msg}", m.name));
        }
        println!(
            "  {label:<30} cells {:>8}  flip-flops {:>7}  LUT4 {:>7}  carry {:>5}  BRAM {:>3}  latches {}",
            st.cells, st.ffs, st.luts, st.carries, st.brams, st.latches
        );
        if flow.hierarchical() {
            for (module, m) in verif::lint::module_stats(&dir) {
                println!("    {module:<24} LUT4 {:>7}  flip-flops {:>7}  carry {:>5}  BRAM {:>3}", m.luts, m.ffs, m.carries, m.brams);
            }
        }
    }
    println!("  yosys logs in {}", dir.display());
    Ok(())
}

/// Which compiler compiles a `.cu` input.
#[derive(Clone, Copy, Default, ValueEnum)]
pub(crate) enum CompilerArg {
    /// clang-14's NVPTX back end with the project's prelude (sm_52).
    #[default]
    Clang,
    /// NVIDIA's nvcc with its CUDA headers (sm_75; `make setup` installs it).
    Nvcc,
}

impl CompilerArg {
    fn options(self) -> kernel::CompileOptions {
        let compiler = match self {
            CompilerArg::Clang => kernel::Compiler::Clang,
            CompilerArg::Nvcc => kernel::Compiler::Nvcc,
        };
        kernel::CompileOptions { compiler, cache_dir: std::env::var_os("WARPFORGE_CACHE").map(|d| PathBuf::from(d).join("ptx")), ..Default::default() }
    }
}

pub(crate) fn load_module(file: &Path, compiler: CompilerArg) -> Res<kernel::Module> {
    kernel::load(file, &compiler.options()).map_err(|e| e.to_string())
}

/// `kernel --trace-schedule`: where the branch profile comes from and
/// where the result goes.
#[derive(clap::Args)]
struct TraceArgs {
    /// Print the kernel trace-scheduled (warp-aware trace scheduling,
    /// docs/tsched.md) as PTX, and what moved where.
    #[arg(long, requires = "training")]
    trace_schedule: bool,
    /// Training run: this launch file on the functional model.
    #[arg(long, value_name = "TRAIN.toml", group = "training")]
    launch: Option<PathBuf>,
    /// Training run: a branch profile `exec --profile-branches` wrote.
    #[arg(long, value_name = "PROFILE.json", group = "training")]
    profile: Option<PathBuf>,
    /// Grow traces along edges more probable than this (the paper's MIN_PROB).
    #[arg(long, default_value_t = kernel::tsched::MIN_PROB)]
    min_prob: f64,
    /// Where a moved statement goes: list (appended, then every block
    /// list-scheduled by latency, as ptxas would),
    /// earliest (the first slot its dependences allow) or bottom (the
    /// paper's pass output as is).
    #[arg(long, default_value = "list", value_parser = kernel::tsched::Placement::parse)]
    placement: kernel::tsched::Placement,
    /// Move nothing: only list-schedule every block (an ablation).
    #[arg(long)]
    no_motion: bool,
    /// Write the PTX here (the listing then goes to standard output).
    #[arg(long, short = 'o', value_name = "OUT.ptx")]
    out: Option<PathBuf>,
}

/// Trace-schedule `ptx`, trained on a launch file of kernel `name` (the
/// module's only kernel when none is named).
fn trace_schedule(ptx: &str, file: &str, name: Option<&str>, train: &Path, opts: &kernel::tsched::Options) -> Res<kernel::tsched::Scheduled> {
    let m = kernel::Module::from_ptx(ptx, file).map_err(|e| e.to_string())?;
    let k = match name {
        Some(n) => m.kernel(n),
        None => m.only_kernel(),
    }
    .map_err(|e| e.to_string())?;
    let lf = kernel::LaunchFile::load(train).map_err(|e| e.to_string())?;
    let l = lf.bind(&m, k).map_err(|e| e.to_string())?;
    let mut profile = kernel::tsched::Profile::default();
    kernel::tsched::train(k, &l, &kernel::RunOptions::default(), &mut profile).map_err(|e| format!("training run ({}): {e}", train.display()))?;
    kernel::tsched::schedule(ptx, file, &profile, opts).map_err(|e| e.to_string())
}

fn cmd_kernel(file: PathBuf, name: Option<String>, ptx: bool, decouple: bool, trace: TraceArgs, compiler: CompilerArg) -> Res<()> {
    if trace.trace_schedule {
        if !(0.0..1.0).contains(&trace.min_prob) {
            return Err(format!("--min-prob {}: a probability in [0, 1)", trace.min_prob));
        }
        let (text, label) = kernel::source(&file, &compiler.options()).map_err(|e| e.to_string())?;
        let opts = kernel::tsched::Options { min_prob: trace.min_prob, placement: trace.placement, hoist: !trace.no_motion };
        let s = match (&trace.launch, &trace.profile) {
            (Some(l), _) => trace_schedule(&text, &label, name.as_deref(), l, &opts)?,
            (None, Some(p)) => {
                let profile = kernel::tsched::Profile::load(p)?;
                kernel::tsched::schedule(&text, &label, &profile, &opts).map_err(|e| e.to_string())?
            }
            (None, None) => unreachable!("clap requires a training source"),
        };
        let listing: String = s.kernels.iter().map(|k| k.listing()).collect();
        match &trace.out {
            Some(o) => {
                output::write(o, &s.ptx)?;
                print!("{listing}");
            }
            None => {
                print!("{}", s.ptx);
                eprint!("{listing}");
            }
        }
        return Ok(());
    }
    if ptx {
        if file.extension().is_some_and(|e| e == "cu") {
            let text = kernel::compile_cuda(&file, &compiler.options()).map_err(|e| e.to_string())?;
            print!("{text}");
            return Ok(());
        }
        return Err(format!("{}: --ptx needs a .cu file", file.display()));
    }
    let m = load_module(&file, compiler)?;
    let list: Vec<&kernel::Kernel> = match &name {
        Some(n) => vec![m.kernel(n).map_err(|e| e.to_string())?],
        None => m.kernels.iter().collect(),
    };
    if list.is_empty() {
        return Err(format!("{}: no .entry kernel", file.display()));
    }
    println!("{}: PTX {}.{} for {}", file.display(), m.version.0, m.version.1, m.target);
    for k in list {
        if decouple {
            print!("{}", kernel::dac::decouple(k).report(k));
        } else {
            print!("{}", k.listing());
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn cmd_run(
    file: PathBuf,
    name: Option<String>,
    launch: PathBuf,
    functional: bool,
    train: Option<PathBuf>,
    timing: sm_cmd::TimingArgs,
    dump: Option<PathBuf>,
    budget: sm_cmd::Budget,
    compiler: CompilerArg,
) -> Res<()> {
    if functional == timing.config.is_some() {
        return Err("run: give --functional or --config C.toml (a preset name or a file)".into());
    }
    if functional && budget.max_cycles.is_some() {
        return Err("--max-cycles needs --config: the functional model has no cycles (its budget is --max-instructions)".into());
    }
    // Outputs first: a bad path fails before the run, not after it.
    sm_cmd::prepare_outputs(&timing)?;
    if let Some(d) = &dump {
        create_dir(d)?;
    }
    let m = match &train {
        None => load_module(&file, compiler)?,
        Some(t) => {
            let (text, label) = kernel::source(&file, &compiler.options()).map_err(|e| e.to_string())?;
            let s = trace_schedule(&text, &label, name.as_deref(), t, &Default::default())?;
            eprint!("{}", s.kernels.iter().map(|k| k.listing()).collect::<String>());
            kernel::Module::from_ptx(&s.ptx, &format!("{label}, trace-scheduled")).map_err(|e| e.to_string())?
        }
    };
    let k = match &name {
        Some(n) => m.kernel(n),
        None => m.only_kernel(),
    }
    .map_err(|e| e.to_string())?;
    let lf = kernel::LaunchFile::load(&launch).map_err(|e| e.to_string())?;
    let l = lf.bind(&m, k).map_err(|e| e.to_string())?;
    if !functional {
        return sm_cmd::run_timing(k, &l, &timing, dump, budget);
    }
    let t = Instant::now();
    let opts = kernel::RunOptions {
        max_warp_insts: budget.max_instructions.unwrap_or(kernel::RunOptions::default().max_warp_insts),
        unmapped_reads_zero: budget.unmapped_reads_zero,
    };
    let r = sm_cmd::functional(k, &l, opts)?;
    let secs = t.elapsed().as_secs_f64();
    let s = r.stats;
    println!(
        "{}: {} CTAs x {} threads, {} warp instructions, {} thread instructions, {:.3} s ({:.1} M thread-instr/s)",
        k.base_name,
        s.ctas,
        l.threads_per_cta(),
        s.warp_insts,
        s.thread_insts,
        secs,
        s.thread_insts as f64 / secs.max(1e-9) / 1e6
    );
    if let Some(dir) = dump {
        dump_buffers(&l, &r.memory, &dir)?;
    }
    Ok(())
}

/// `--dump DIR`: every buffer as DIR/NAME.bin, each path printed.
pub(crate) fn dump_buffers(l: &kernel::Launch, memory: &kernel::Memory, dir: &Path) -> Res<()> {
    let files = kernel::dump(l, memory, dir).map_err(|e| format!("cannot write into {}: {e}", dir.display()))?;
    for f in files {
        println!("{}", f.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    // A closed pipe (`warpforge blocks | head`) ends the program quietly, as
    // for any Unix filter, instead of a panic in `println!`.
    #[cfg(unix)]
    // SAFETY: called first in main, before any thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Workloads(a) => workloads::workloads(&a),
        Cmd::Exec(a) => match exec::exec(&a) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Cmd::Blocks { block, params } => cmd_blocks(block, params),
        Cmd::Verilog { block, out } => cmd_verilog(block, out),
        Cmd::Sim { block, stim, engine, vcd, vcd_from, vcd_to, vcd_scope, vcd_memories, gtkw } => {
            cmd_sim(block, stim, engine, vcd, vcd_from, vcd_to, vcd_scope, vcd_memories, gtkw)
        }
        Cmd::Cosim { block, stim, simulator, engine, work } => cmd_cosim(block, stim, simulator, engine, work),
        Cmd::Stim { block, cycles, seed, out } => cmd_stim(block, cycles, seed, out),
        Cmd::Lint { block, params, work, quick } => cmd_lint(block, params, work, quick),
        Cmd::Synth { block, flow, work } => cmd_synth(block, flow, work),
        Cmd::Kernel { file, kernel, ptx, decouple, trace, compiler } => cmd_kernel(file, kernel, ptx, decouple, trace, compiler),
        Cmd::Run { file, kernel, launch, functional, trace_schedule, timing, dump, budget, compiler } => {
            cmd_run(file, kernel, launch, functional, trace_schedule, timing, dump, budget, compiler)
        }
        Cmd::Plot { files, out, title } => sm_cmd::plot(&files, &out, &title),
        Cmd::Sweep(a) => sm_cmd::sweep(&a),
        Cmd::Compare { file } => sm_cmd::compare(&file),
        Cmd::Wavediff { a, b, scope, from } => match waves::diff_files(&a, &b, scope.as_deref(), from) {
            Ok(None) => {
                println!("no difference");
                Ok(())
            }
            Ok(Some(d)) => Err(format!("first difference at time {}: {} is {} in {} but {} in {}", d.time, d.path, d.a, a.display(), d.b, b.display())),
            Err(e) => Err(e.to_string()),
        },
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
