//! Running stimulus through components and comparing their outputs cycle by
//! cycle.
//!
//! Every run starts with one *reset cycle* (`rst` = 1, every other input 0)
//! before stimulus cycle 0, in every engine, so the Verilog's registers (which
//! power up unknown) and the models start from the same state. In waves the
//! reset cycle occupies time 0..10; stimulus cycle `c` starts at `10 (c + 1)`
//! with the clock low and new inputs, and its rising edge is at
//! `10 (c + 1) + 5`.

use crate::stimulus::{push_hex, InputLayout, Stimulus};
use sim::trace::Tracer;
use sim::{Component, ComponentExt, Dir, Inspect, PortId, PortSpec};

/// Outputs of a run: every output port's value on every stimulus cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputTrace {
    ports: Vec<PortSpec>,
    offsets: Vec<usize>,
    words: usize,
    data: Vec<u64>,
}

impl OutputTrace {
    pub fn new(all_ports: &[PortSpec]) -> Self {
        let ports: Vec<PortSpec> = all_ports.iter().filter(|p| p.dir == Dir::Out).cloned().collect();
        let mut offsets = Vec::new();
        let mut words = 0;
        for p in &ports {
            offsets.push(words);
            words += p.words();
        }
        OutputTrace { ports, offsets, words, data: Vec::new() }
    }

    pub fn ports(&self) -> &[PortSpec] {
        &self.ports
    }

    pub fn cycles(&self) -> usize {
        self.data.len().checked_div(self.words).unwrap_or(0)
    }

    /// Value of output `k` on cycle `c`.
    pub fn get(&self, c: usize, k: usize) -> &[u64] {
        let o = c * self.words + self.offsets[k];
        &self.data[o..o + self.ports[k].words()]
    }

    pub fn push_words(&mut self, words: &[u64]) {
        self.data.extend_from_slice(words);
    }

    /// Append one cycle of `comp`'s outputs.
    fn record<C: Component + ?Sized>(&mut self, comp: &C, ids: &[PortId]) {
        for &id in ids {
            self.data.extend_from_slice(comp.get(id));
        }
    }
}

/// The first output difference between two runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: usize,
    pub port: String,
    pub expected: String,
    pub actual: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cycle {}: output `{}` expected {} got {}", self.cycle, self.port, self.expected, self.actual)
    }
}

fn hex(words: &[u64]) -> String {
    let mut s = String::from("0x");
    push_hex(&mut s, words);
    s
}

/// Compare two traces of the same ports; the first difference, if any.
pub fn first_mismatch(expected: &OutputTrace, actual: &OutputTrace) -> Option<Mismatch> {
    assert_eq!(expected.ports, actual.ports, "internal: comparing traces of different ports");
    let n = expected.cycles().min(actual.cycles());
    for c in 0..n {
        for (k, p) in expected.ports.iter().enumerate() {
            let (e, a) = (expected.get(c, k), actual.get(c, k));
            if e != a {
                return Some(Mismatch { cycle: c, port: p.name.clone(), expected: hex(e), actual: hex(a) });
            }
        }
    }
    if expected.cycles() != actual.cycles() {
        return Some(Mismatch {
            cycle: n,
            port: "(end of run)".into(),
            expected: format!("{} cycles", expected.cycles()),
            actual: format!("{} cycles", actual.cycles()),
        });
    }
    None
}

/// Check that a stimulus layout is `comp`'s input list (names, order, widths).
pub fn check_inputs<C: Component + ?Sized>(comp: &C, layout: &InputLayout) -> Result<(), String> {
    let mine = InputLayout::of(comp.ports());
    if mine.ports() != layout.ports() {
        let show = |l: &InputLayout| l.ports().iter().map(|p| format!("{}:{}", p.name, p.width)).collect::<Vec<_>>().join(" ");
        return Err(format!("stimulus inputs `{}` do not match `{}` inputs `{}`", show(layout), comp.name(), show(&mine)));
    }
    Ok(())
}

/// Output handles of `comp`, in port order.
pub fn output_ids<C: Component + ?Sized>(comp: &C) -> Vec<PortId> {
    comp.ports().iter().enumerate().filter(|(_, p)| p.dir == Dir::Out).map(|(i, _)| PortId(i as u32)).collect()
}

/// Drive the reset cycle: `rst` = 1 (if the component has it), all else 0.
pub fn reset_cycle<C: Component + ?Sized>(comp: &mut C) {
    let zero = vec![0u64; 64];
    for (i, p) in comp.ports().to_vec().iter().enumerate() {
        if p.dir == Dir::In {
            let v = if p.name == "rst" { [1u64].as_slice() } else { &zero[..p.words()] };
            comp.set(PortId(i as u32), v);
        }
    }
    comp.eval();
    comp.tick();
}

/// Run a stimulus (after the reset cycle) and record every output.
pub fn run<C: Component + ?Sized>(comp: &mut C, stim: &Stimulus) -> Result<OutputTrace, String> {
    check_inputs(comp, stim.layout())?;
    let outs = output_ids(comp);
    let mut trace = OutputTrace::new(comp.ports());
    reset_cycle(comp);
    for c in 0..stim.cycles() {
        apply(comp, stim.cycle(c));
        comp.eval();
        trace.record(comp, &outs);
        comp.tick();
    }
    Ok(trace)
}

/// Set every input from one stimulus frame (whose layout `check_inputs`
/// checked against the component).
pub fn apply<C: Component + ?Sized>(comp: &mut C, words: &[u64]) {
    comp.set_inputs(words);
}

/// Is wave slot `slot` (0 = the reset cycle, `c + 1` = stimulus cycle `c`)
/// inside the window of stimulus cycles `from..=to`? The reset cycle is
/// traced when the window starts at 0.
pub fn traced_slot(slot: u64, from: u64, to: Option<u64>) -> bool {
    match slot {
        0 => from == 0,
        s => s > from && to.is_none_or(|t| s - 1 <= t),
    }
}

/// Run an RTL engine (interpreter or compiled) with a VCD trace of cycles
/// `from..=to` (and the reset cycle when `from` is 0).
pub fn run_traced<S: Component + Inspect + ?Sized>(sim: &mut S, stim: &Stimulus, tracer: &mut Tracer, from: usize, to: usize) -> Result<OutputTrace, String> {
    check_inputs(sim, stim.layout())?;
    let outs = output_ids(sim);
    let mut trace = OutputTrace::new(sim.ports());
    let io = |e: std::io::Error| format!("writing the VCD: {e}");
    // Reset cycle (slot 0 of the wave time line).
    let zero_frame = vec![0u64; stim.layout().words()];
    apply(sim, &zero_frame);
    if let Ok(r) = sim.input("rst") {
        sim.set_u64(r, 1);
    }
    sim.eval();
    let dump = |k: usize| traced_slot(k as u64, from as u64, Some(to as u64));
    if dump(0) {
        tracer.sample(&*sim, 0, false).map_err(io)?;
    }
    sim.tick();
    if dump(0) {
        sim.eval();
        tracer.sample(&*sim, 0, true).map_err(io)?;
    }
    for c in 0..stim.cycles() {
        apply(sim, stim.cycle(c));
        sim.eval();
        trace.record(sim, &outs);
        let k = c + 1;
        if dump(k) {
            tracer.sample(&*sim, k as u64, false).map_err(io)?;
        }
        sim.tick();
        if dump(k) {
            sim.eval();
            tracer.sample(&*sim, k as u64, true).map_err(io)?;
        }
    }
    Ok(trace)
}
