//! VCD tracing of an RTL engine (anything [`Inspect`]): the scope tree mirrors the Verilog
//! instance hierarchy as Verilator writes it (`TOP` with the clock and the
//! top-level ports, then one scope per module instance with its ports, wires,
//! registers and memory words `name[i]`), so one GTKWave save file opens
//! either trace.
//!
//! Streams to disk; only changed values are written. A cycle window and a
//! scope filter bound the size.

use crate::component::words_for;
use crate::inspect::Inspect;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use waves::{Gtkw, GtkwGroup, VarId, VcdWriter, PERIOD};

/// What to dump (the caller picks which cycles it samples).
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// Only signals whose path below the top module (`sb`, `sb.pending`,
    /// `iss0_stall`) starts with this prefix. The top ports are always kept.
    pub scope: Option<String>,
    /// Also dump the words of memories and register arrays.
    pub memories: bool,
}

impl TraceOptions {
    /// A scope filter that matches nothing would silently leave only the top
    /// ports in the trace: an error naming the instances instead.
    pub fn check<S: Inspect + ?Sized>(&self, sim: &S) -> Result<(), String> {
        let Some(prefix) = self.scope.as_deref() else { return Ok(()) };
        let mem_paths = sim.memories().iter().map(|m| sim.mem_path(m));
        let mut paths = sim.signals().iter().map(|s| sim.path(s)).chain(mem_paths);
        if paths.any(|p| p.starts_with(prefix)) {
            return Ok(());
        }
        let inst: Vec<String> = (1..sim.scopes().len() as u32).map(|c| sim.scope_path(c)).collect();
        let inst = if inst.is_empty() { "none".to_string() } else { inst.join(", ") };
        Err(format!("scope filter `{prefix}` matches no signal of `{}` (instances: {inst})", sim.scopes()[0].module))
    }
}

#[derive(Clone, Copy)]
enum Src {
    Slot(u32),
    Mem(usize, u32),
}

struct Var {
    id: VarId,
    src: Src,
    /// Offset of the last written value in `Tracer::last`.
    last: usize,
    words: usize,
}

/// One RTL engine's hierarchy inside a VCD: its scopes, signals and (with
/// [`TraceOptions::memories`]) memory words, declared into any
/// [`VcdWriter`] and sampled from the engine. [`Tracer`] writes a whole file
/// for one block with it; a larger model (the SM) declares each block's
/// scope where it wants it in its own trace.
pub struct BlockTrace {
    vars: Vec<Var>,
    last: Vec<u64>,
    started: bool,
}

struct Header<'a, W: Write, S: Inspect + ?Sized> {
    sim: &'a S,
    opts: &'a TraceOptions,
    w: &'a mut VcdWriter<W>,
    vars: Vec<Var>,
    nwords: usize,
    /// Top-level ports (name -> var) declared already and aliased here.
    ports: Vec<(String, VarId)>,
}

impl<W: Write, S: Inspect + ?Sized> Header<'_, W, S> {
    fn add(&mut self, name: &str, width: u32, src: Src) -> io::Result<VarId> {
        let id = self.w.var(name, width)?;
        let words = words_for(width);
        self.vars.push(Var { id, src, last: self.nwords, words });
        self.nwords += words;
        Ok(id)
    }

    fn keep(&self, path: &str) -> bool {
        self.opts.scope.as_deref().is_none_or(|p| path.starts_with(p))
    }

    fn scope(&mut self, scope: u32, name: &str, clk: Option<VarId>) -> io::Result<()> {
        let sim = self.sim;
        self.w.scope(name)?;
        if let (0, Some(clk)) = (scope, clk) {
            self.w.alias("clk", clk)?;
        }
        for s in sim.signals().iter().filter(|s| s.scope == scope) {
            if let Some((_, id)) = self.ports.iter().find(|(name, _)| scope == 0 && s.is_port && *name == s.name) {
                self.w.alias(&s.name, *id)?;
            } else if self.keep(&sim.path(s)) {
                self.add(&s.name, s.width, Src::Slot(s.slot))?;
            }
        }
        if self.opts.memories {
            for (k, m) in sim.memories().iter().enumerate().filter(|(_, m)| m.scope == scope) {
                if self.keep(&sim.mem_path(m)) {
                    for i in 0..m.depth {
                        self.add(&format!("{}[{i}]", m.name), m.width, Src::Mem(k, i))?;
                    }
                }
            }
        }
        for c in 0..sim.scopes().len() as u32 {
            if sim.scopes()[c as usize].parent == Some(scope) {
                let child = sim.scopes()[c as usize].name.clone();
                self.scope(c, &child, clk)?;
            }
        }
        self.w.upscope()
    }
}

impl BlockTrace {
    /// Declare `sim`'s hierarchy as a scope named `name` (the block's
    /// instance name in the larger model) at the writer's current scope
    /// level, before `end_header`; `clk`, if given, is aliased in it.
    pub fn declare<W: Write, S: Inspect + ?Sized>(
        w: &mut VcdWriter<W>,
        sim: &S,
        name: &str,
        opts: &TraceOptions,
        clk: Option<VarId>,
    ) -> io::Result<BlockTrace> {
        BlockTrace::declare_with_ports(w, sim, name, opts, clk, Vec::new())
    }

    fn declare_with_ports<W: Write, S: Inspect + ?Sized>(
        w: &mut VcdWriter<W>,
        sim: &S,
        name: &str,
        opts: &TraceOptions,
        clk: Option<VarId>,
        ports: Vec<(String, VarId)>,
    ) -> io::Result<BlockTrace> {
        let mut h = Header { sim, opts, w, vars: Vec::new(), nwords: 0, ports };
        h.scope(0, name, clk)?;
        let Header { vars, nwords, .. } = h;
        Ok(BlockTrace { vars, last: vec![0; nwords], started: false })
    }

    /// Write the values that changed since the last sample (all of them the
    /// first time), at the writer's current time.
    pub fn sample<W: Write, S: Inspect + ?Sized>(&mut self, w: &mut VcdWriter<W>, sim: &S) -> io::Result<()> {
        let first = !self.started;
        self.started = true;
        for var in &self.vars {
            let now: &[u64] = match var.src {
                Src::Slot(s) => sim.slot_words(s, var.words),
                Src::Mem(m, i) => sim.mem_word(&sim.memories()[m], i),
            };
            let last = &mut self.last[var.last..var.last + var.words];
            if first || now != last {
                last.copy_from_slice(now);
                w.change(var.id, now)?;
            }
        }
        Ok(())
    }
}

/// Writes a VCD of one running block, one sample per cycle.
pub struct Tracer {
    w: VcdWriter<BufWriter<File>>,
    block: BlockTrace,
    clk: VarId,
}

impl Tracer {
    /// Create the file and write the header for `sim`'s hierarchy.
    pub fn create<S: Inspect + ?Sized>(path: &Path, sim: &S, opts: TraceOptions) -> io::Result<Tracer> {
        let file = File::create(path)?;
        let comment = format!("warpforge simulation of {}", sim.scopes()[0].module);
        let mut w = VcdWriter::new(BufWriter::with_capacity(1 << 16, file), &comment)?;
        // Verilator's layout: `TOP` holds the clock and the top-level ports,
        // which the module's own scope aliases.
        w.scope("TOP")?;
        let clk = w.var("clk", 1)?;
        let mut ports = Vec::new();
        let mut port_vars = Vec::new();
        let mut nwords = 0;
        for s in sim.signals().iter().filter(|s| s.scope == 0 && s.is_port) {
            let id = w.var(&s.name, s.width)?;
            ports.push((s.name.clone(), id));
            port_vars.push(Var { id, src: Src::Slot(s.slot), last: nwords, words: words_for(s.width) });
            nwords += words_for(s.width);
        }
        let top = sim.scopes()[0].name.clone();
        let mut block = BlockTrace::declare_with_ports(&mut w, sim, &top, &opts, Some(clk), ports)?;
        w.upscope()?;
        w.end_header()?;
        // The ports first, in the order they were declared.
        for v in &mut block.vars {
            v.last += nwords;
        }
        port_vars.append(&mut block.vars);
        block.vars = port_vars;
        block.last = vec![0; block.last.len() + nwords];
        Ok(Tracer { w, block, clk })
    }

    /// Record the current values at wave slot `k` (time `10 k`, clock low,
    /// after `eval` with the cycle's inputs) or, with `high`, at the rising
    /// edge (time `10 k + 5`, after `tick` and another `eval`).
    pub fn sample<S: Inspect + ?Sized>(&mut self, sim: &S, k: u64, high: bool) -> io::Result<()> {
        self.w.time(k * PERIOD + if high { PERIOD / 2 } else { 0 })?;
        self.w.change(self.clk, &[high as u64])?;
        self.block.sample(&mut self.w, sim)
    }

    /// Flush everything to disk.
    pub fn finish(mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// A GTKWave save file for a simulation's VCD: the clock, then one group per
/// scope with that scope's ports, then its wires and registers.
pub fn gtkw_for<S: Inspect + ?Sized>(sim: &S, vcd_name: &str) -> Gtkw {
    let top_module = &sim.scopes()[0].name;
    let mut g = Gtkw { dumpfile: vcd_name.to_string(), top: vec![("TOP.clk".into(), 1)], groups: Vec::new() };
    for scope in 0..sim.scopes().len() as u32 {
        let sp = sim.scope_path(scope);
        let prefix = if sp.is_empty() { format!("TOP.{top_module}") } else { format!("TOP.{top_module}.{sp}") };
        let title = if sp.is_empty() { top_module.clone() } else { sp.clone() };
        let sigs: Vec<_> = sim.signals().iter().filter(|s| s.scope == scope).collect();
        let ports: Vec<(String, u32)> =
            sigs.iter().filter(|s| s.is_port).map(|s| (format!("{prefix}.{}", s.name), s.width)).collect();
        let internal: Vec<(String, u32)> =
            sigs.iter().filter(|s| !s.is_port).map(|s| (format!("{prefix}.{}", s.name), s.width)).collect();
        if !ports.is_empty() {
            g.groups.push(GtkwGroup { name: format!("{title} ports"), signals: ports, closed: scope != 0 });
        }
        if !internal.is_empty() {
            g.groups.push(GtkwGroup { name: format!("{title} internals"), signals: internal, closed: true });
        }
    }
    g
}
