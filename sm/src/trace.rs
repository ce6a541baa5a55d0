//! VCD of the whole SM for a cycle window: pipeline-level signals per stage
//! (`TOP.sm.fetch`, `issue0`, ..., `mem`, `wb0`, ...) and each hardware
//! block's own scope with its RTL signal names — its ports on every engine,
//! and on the netlist engine every wire, register and sub-instance as the
//! block's Verilog names them (`TOP.sm.sb.n_pending`, ...).
//!
//! Time follows the project's convention (`waves` crate): cycle `c` is wave
//! slot `c`: the clock is low at `10 c` ns with the cycle's values settled,
//! and rises at `10 c + 5`.

use crate::blocks::BlockInst;
use sim::{words_for, Component};
use std::io;
use std::path::Path;
use waves::{Gtkw, GtkwGroup, PathWriter, VarId, VcdWriter, PERIOD};

/// A pipeline-level signal, set by the SM each traced cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sig(u32);

/// Where a block variable's value comes from.
#[derive(Clone, Copy)]
enum Src {
    Port(sim::PortId),
    Slot(u32),
    Mem(usize, u32),
}

struct BlockVar {
    id: VarId,
    src: Src,
    words: usize,
    last: usize,
}

/// Declared before the header ends: the stage signals.
pub struct Layout {
    /// (scope, name, width)
    sigs: Vec<(String, String, u32)>,
}

impl Layout {
    pub fn new() -> Self {
        Layout { sigs: Vec::new() }
    }
    pub fn add(&mut self, scope: &str, name: &str, width: u32) -> Sig {
        self.sigs.push((scope.to_string(), name.to_string(), width));
        Sig(self.sigs.len() as u32 - 1)
    }
}

impl Default for Layout {
    fn default() -> Self {
        Layout::new()
    }
}

/// Declares block variables while the header is written.
struct Decl {
    w: VcdWriter<PathWriter>,
    nwords: usize,
    memories: bool,
}

impl Decl {
    fn add(&mut self, name: &str, width: u32, src: Src, vars: &mut Vec<BlockVar>) -> io::Result<VarId> {
        let id = self.w.var(name, width)?;
        let words = words_for(width);
        vars.push(BlockVar { id, src, words, last: self.nwords });
        self.nwords += words;
        Ok(id)
    }

    /// A netlist scope's wires and registers (the top scope's ports are
    /// already declared), its memories if asked, then its sub-instances.
    fn netlist_scope(&mut self, net: &dyn sim::RtlSim, scope: u32, top: &str, listed: &mut Vec<(String, u32)>, vars: &mut Vec<BlockVar>) -> io::Result<()> {
        let path = net.scope_path(scope);
        let prefix = if path.is_empty() { format!("TOP.sm.{top}") } else { format!("TOP.sm.{top}.{path}") };
        for s in net.signals().iter().filter(|s| s.scope == scope && !(scope == 0 && s.is_port)) {
            self.add(&s.name, s.width, Src::Slot(s.slot), vars)?;
            listed.push((format!("{prefix}.{}", s.name), s.width));
        }
        if self.memories {
            for (k, m) in net.memories().iter().enumerate().filter(|(_, m)| m.scope == scope) {
                for i in 0..m.depth {
                    self.add(&format!("{}[{i}]", m.name), m.width, Src::Mem(k, i), vars)?;
                }
            }
        }
        for c in 0..net.scopes().len() as u32 {
            if net.scopes()[c as usize].parent == Some(scope) {
                self.w.scope(&net.scopes()[c as usize].name)?;
                self.netlist_scope(net, c, top, listed, vars)?;
                self.w.upscope()?;
            }
        }
        Ok(())
    }
}

pub struct SmTrace {
    w: VcdWriter<PathWriter>,
    from: u64,
    to: u64,
    clk: VarId,
    stage_ids: Vec<VarId>,
    values: Vec<u64>,
    last: Vec<u64>,
    blocks: Vec<Vec<BlockVar>>,
    block_last: Vec<u64>,
    started: bool,
    gtkw: Gtkw,
}

impl SmTrace {
    /// Create `path` for cycles `from..=to` (inclusive) with the stage
    /// signals of `layout` and the scopes of `blocks` (name, instance).
    pub fn create(path: &Path, from: u64, to: u64, layout: Layout, blocks: &[(&str, &BlockInst)], memories: bool) -> io::Result<SmTrace> {
        let mut w = VcdWriter::new(PathWriter::create(path)?, "warpforge timing SM")?;
        let vcd_name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let mut gtkw = Gtkw { dumpfile: vcd_name, top: vec![("TOP.clk".into(), 1)], groups: Vec::new() };
        w.scope("TOP")?;
        let clk = w.var("clk", 1)?;
        w.scope("sm")?;
        // Stage scopes in declaration order.
        let mut stage_ids = vec![None; layout.sigs.len()];
        let mut scopes: Vec<&str> = Vec::new();
        for (s, _, _) in &layout.sigs {
            if !scopes.contains(&s.as_str()) {
                scopes.push(s);
            }
        }
        for scope in &scopes {
            w.scope(scope)?;
            let mut group = GtkwGroup { name: format!("stage {scope}"), signals: Vec::new(), closed: false };
            for (i, (s, n, width)) in layout.sigs.iter().enumerate() {
                if s == scope {
                    stage_ids[i] = Some(w.var(n, *width)?);
                    group.signals.push((format!("TOP.sm.{scope}.{n}"), *width));
                }
            }
            gtkw.groups.push(group);
            w.upscope()?;
        }
        let stage_ids: Vec<VarId> = stage_ids.into_iter().map(|v| v.expect("declared")).collect();
        let mut d = Decl { w, nwords: 0, memories };
        let mut block_vars = Vec::new();
        for (name, b) in blocks {
            let mut vars = Vec::new();
            d.w.scope(name)?;
            let mut ports = Vec::new();
            for (i, p) in b.comp.ports().iter().enumerate() {
                d.add(&p.name, p.width, Src::Port(sim::PortId(i as u32)), &mut vars)?;
                ports.push((format!("TOP.sm.{name}.{}", p.name), p.width));
            }
            gtkw.groups.push(GtkwGroup { name: format!("{name} ports"), signals: ports, closed: true });
            if let Some(net) = b.rtl() {
                let mut internal = Vec::new();
                d.netlist_scope(net, 0, name, &mut internal, &mut vars)?;
                gtkw.groups.push(GtkwGroup { name: format!("{name} internals"), signals: internal, closed: true });
            }
            d.w.upscope()?;
            block_vars.push(vars);
        }
        let Decl { mut w, nwords, .. } = d;
        w.end_header()?;
        let n = layout.sigs.len();
        Ok(SmTrace {
            w,
            from,
            to,
            clk,
            stage_ids,
            values: vec![0; n],
            last: vec![0; n],
            blocks: block_vars,
            block_last: vec![0; nwords],
            started: false,
            gtkw,
        })
    }

    /// Is cycle `c` in the window?
    pub fn wants(&self, c: u64) -> bool {
        c >= self.from && c <= self.to
    }

    pub fn set(&mut self, s: Sig, v: u64) {
        self.values[s.0 as usize] = v;
    }

    /// Write cycle `c`'s values (after the cycle's final `eval`) and the
    /// rising edge.
    pub fn sample(&mut self, c: u64, blocks: &[&BlockInst]) -> io::Result<()> {
        let first = !self.started;
        self.started = true;
        self.w.time(c * PERIOD)?;
        self.w.change(self.clk, &[0])?;
        for (i, &id) in self.stage_ids.iter().enumerate() {
            if first || self.values[i] != self.last[i] {
                self.last[i] = self.values[i];
                self.w.change(id, &[self.values[i]])?;
            }
        }
        for (b, vars) in blocks.iter().zip(&self.blocks) {
            for v in vars {
                let now: &[u64] = match v.src {
                    Src::Port(p) => b.comp.get(p),
                    Src::Slot(s) => b.rtl().expect("an RTL engine").slot_words(s, v.words),
                    Src::Mem(m, i) => {
                        let net = b.rtl().expect("an RTL engine");
                        net.mem_word(&net.memories()[m], i)
                    }
                };
                let last = &mut self.block_last[v.last..v.last + v.words];
                if first || now != last {
                    last.copy_from_slice(now);
                    self.w.change(v.id, now)?;
                }
            }
        }
        self.w.time(c * PERIOD + PERIOD / 2)?;
        self.w.change(self.clk, &[1])?;
        Ok(())
    }

    /// Flush the VCD; returns the GTKWave save file grouped by stage then
    /// block.
    pub fn finish(mut self) -> io::Result<Gtkw> {
        self.w.flush()?;
        Ok(self.gtkw)
    }
}
