//! Reference model of `pmode_unit` (specification:
//! `hw::blocks::pmode::pmode_unit`): the composition of the sub-block
//! reference models — the dual-mode scoreboard's, the P-queue's, the rename
//! block's, the SIMT stack's and the mode controller's — wired through
//! their port descriptions exactly as the hardware is.

use super::mode_ctrl::ModeCtrlModel;
use super::pqueue::PqueueModel;
use super::rename::RenameModel;
use super::scoreboard::ScoreboardModel;
use super::simt_stack::SimtStackModel;
use super::PortFeeds;
use crate::Reference;
use hw::blocks::pmode::mode_ctrl::{action as act, ModeCtrlIo};
use hw::blocks::pmode::pmode_unit::{PmodeUnitIo, PmodeUnitParams};
use hw::blocks::pmode::pqueue::PqueueIo;
use hw::blocks::pmode::rename::RenameIo;
use hw::blocks::pmode::scoreboard::ScoreboardIo;
use crate::compose::{block_comb, Reads};
use sim::{words_for, Bind, BindError, Component, PortFrame, PortId};
use std::sync::Arc;

const SB: usize = 0;
const PQ: usize = 1;
const RN: usize = 2;
const ST: usize = 3;
const MC: usize = 4;

/// `glue_of` bits of the issue ports' register banks (bit k); the bits above
/// are the writeback ports' selects (bit 32 + j), and the launch into the
/// P-queue's start port (`START_BIT`).
const BANK_BITS: u64 = 0xffff_ffff;
const START_BIT: u64 = 1 << 63;
const WB_BITS: u64 = !BANK_BITS & !START_BIT;

/// Groups of glue inputs (`PmodeUnitModel::glue_passes`).
const GLUE_BANK: usize = 0;
const GLUE_WB: usize = 1;
const GLUE_PDST: usize = 2;
const GLUE_DIVERGED: usize = 3;
const GLUE_START: usize = 4;

/// Groups of wires from sub-blocks (`PmodeUnitModel::reads`).
const SEEN_PM: usize = 0;
const SEEN_PDST: usize = 1;
const SEEN_DIVERGED: usize = 2;
const SEEN_STATUS: usize = 3;
const SEEN_COMMANDS: usize = 4;

/// Where a wire's value comes from.
#[derive(Clone, Copy, Debug)]
enum Src {
    Unit(PortId),
    Sub(usize, PortId),
}

/// A plain wire into a sub-block input.
#[derive(Clone, Copy, Debug)]
struct Wire {
    from: Src,
    to: (usize, PortId),
}

/// A wire of one word between two of this crate's models, resolved to
/// their frames: word `from` of the source's frame into word `to` of
/// sub-block `dc`'s, masked to the input's width; `ports` are the issue
/// ports of `dc` the input feeds (`PortFeeds`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Link {
    from: u32,
    dc: usize,
    to: u32,
    mask: u64,
    ports: u64,
}

/// Any other wire (wider than a word, or at a scoreboard that is another
/// component): moved through the ports.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slow {
    from: PortId,
    dc: usize,
    to: PortId,
}

/// The wires from one source.
#[derive(Clone, Debug, Default, PartialEq)]
struct Fanout {
    links: Vec<Link>,
    slow: Vec<Slow>,
}

/// What a pass of links changed: by sub-block, the issue ports marked, and
/// (bit c) whether any input changed.
#[derive(Default)]
struct Landed {
    ports: [u64; 5],
    changed: u8,
}

/// The `glue_of` bits of the glue computed in `pass` (`glue_passes`: by
/// group, bit p for pass p).
fn glue_mask(glue_passes: [u8; 5], pass: usize) -> u64 {
    let has = |g: usize| glue_passes[g] >> pass & 1 == 1;
    (if has(GLUE_BANK) { BANK_BITS } else { 0 }) | (if has(GLUE_WB) { WB_BITS } else { 0 }) | (if has(GLUE_START) { START_BIT } else { 0 })
}

/// Move a link's value into its destination word.
#[inline]
fn land(words: &mut [u64], l: &Link, v: u64, landed: &mut Landed) {
    let (d, v) = (&mut words[l.to as usize], v & l.mask);
    if *d != v {
        *d = v;
        landed.ports[l.dc] |= l.ports;
        landed.changed |= 1 << l.dc;
    }
}

/// Wires out of the sub-blocks, by source sub-block (only the ones
/// evaluated since are read): (source port, destination).
type BySrc<T> = [Vec<(PortId, T)>; 5];

fn by_src<T>(wires: impl IntoIterator<Item = (Src, T)>) -> BySrc<T> {
    let mut g: BySrc<T> = Default::default();
    for (from, to) in wires {
        let Src::Sub(c, id) = from else { unreachable!("these wires come from sub-blocks") };
        g[c].push((id, to));
    }
    g
}

/// The two passes over the wires: the settle drives the sub-block inputs
/// with a combinational path to an output; the clock edge drives the
/// others (commands acted on at the edge) once, before the sub-blocks tick.
/// Each wire list is split by pass ([`split`]).
const SETTLE: usize = 0;
const EDGE: usize = 1;

/// Wires into sub-block inputs, by the pass that drives them.
fn split<T>(wires: Vec<Wire>, comb: &[Arc<Vec<bool>>; 5], group: impl Fn(Vec<Wire>) -> T) -> [T; 2] {
    let (settle, edge) = wires.into_iter().partition(|w| comb[w.to.0][w.to.1 .0 as usize]);
    [group(settle), group(edge)]
}

/// Wires between sub-blocks, resolved, by source sub-block.
type Routed = [Fanout; 5];

/// What a change of a unit input marks in the sub-blocks whose inputs are
/// its word (`share_words`): by sub-block, the issue ports they feed
/// (`PortFeeds`); bit c, sub-block c is dirty (an input that reaches an
/// output).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Marks {
    ports: [u64; 5],
    dirty: u8,
}

impl Marks {
    fn add(&mut self, m: &Marks) {
        for c in 0..5 {
            self.ports[c] |= m.ports[c];
        }
        self.dirty |= m.dirty;
    }
}

/// The unit's words are the sub-block models' too: each model's ports move
/// into the unit frame's buffer (`PortFrame::share`), and a wire from a unit
/// input into a sub-block input of one word whose values fit it becomes one
/// word — the sub-block reads the unit's, and nothing moves it (an offer
/// changes about eight unit inputs, wired to some twenty sub-block inputs).
/// So is a wire of one word from a scoreboard model's output into a
/// mode_ctrl input (its status, read by every decision): mode_ctrl's ports
/// that the scoreboard evaluates are marked then (`eval_sub`).
/// The other wires (of unit inputs, of status); by unit input, what its
/// change marks; whether the scoreboard's status is mode_ctrl's.
fn share_words(frame: &mut PortFrame, subs: &mut Subs, s1: Vec<Wire>, s2: Vec<Wire>) -> (Vec<Wire>, Vec<Wire>, Vec<Marks>, bool) {
    let mut at: [Vec<Option<u32>>; 5] = Default::default();
    for (c, a) in at.iter_mut().enumerate() {
        if let Some((f, _)) = subs.model(c) {
            *a = vec![None; f.specs().len()];
        }
    }
    let mut marks = vec![Marks::default(); frame.specs().len()];
    let mut rest = Vec::new();
    for w in s1 {
        let (Src::Unit(u), (c, d)) = (w.from, w.to) else { unreachable!("stage 1 wires come from unit inputs") };
        let (Some((uw, um)), Some((f, feeds))) = (frame.word(u), subs.model(c)) else {
            rest.push(w);
            continue;
        };
        match f.word(d) {
            dst if fits(um, dst) => {
                at[c][d.0 as usize] = Some(uw);
                let m = &mut marks[u.0 as usize];
                m.ports[c] |= feeds.map_or(0, |x| x.ports_of(d));
                m.dirty |= (subs.comb[c][d.0 as usize] as u8) << c;
            }
            _ => rest.push(w),
        }
    }
    // Status from the scoreboard's outputs into mode_ctrl's inputs.
    let (mut status, mut rest2) = (Vec::new(), Vec::new());
    for w in s2 {
        let word = |c: usize, id: PortId| subs.model(c).and_then(|(f, _)| f.word(id));
        match (w.from, w.to) {
            (Src::Sub(SB, o), (MC, d)) if word(SB, o).is_some_and(|(_, om)| fits(om, word(MC, d))) => status.push((o, d)),
            _ => rest2.push(w),
        }
    }
    for c in 0..5 {
        if c == MC {
            // The scoreboard's ports are in place by now (SB < MC).
            for &(o, d) in &status {
                at[MC][d.0 as usize] = subs.model(SB).and_then(|(f, _)| f.word(o)).map(|(w, _)| w);
            }
        }
        let Some((f, _)) = subs.model_mut(c) else { continue };
        let base = frame.grow(f.words().len());
        let places: Vec<u32> = at[c].iter().enumerate().map(|(i, w)| w.unwrap_or(base + f.span(PortId(i as u32)).0)).collect();
        let old = f.share(&places);
        frame.words_mut()[base as usize..][..old.len()].copy_from_slice(&old);
    }
    (rest, rest2, marks, !status.is_empty())
}

/// Values of `mask` fit the one-word port `dst` (a word and its mask).
fn fits(mask: u64, dst: Option<(u32, u64)>) -> bool {
    dst.is_some_and(|(_, dm)| mask & !dm == 0)
}

/// The scoreboard: its reference model, or any component of its ports.
enum Board {
    Model(Box<ScoreboardModel>),
    Other(Box<dyn Component + Send>),
}

impl Board {
    fn comp(&self) -> &dyn Component {
        match self {
            Board::Model(m) => m.as_ref(),
            Board::Other(c) => c.as_ref(),
        }
    }
    fn comp_mut(&mut self) -> &mut dyn Component {
        match self {
            Board::Model(m) => m.as_mut(),
            Board::Other(c) => c.as_mut(),
        }
    }
}

/// The five sub-blocks (the scoreboard may be any component of its ports;
/// the others are called directly, not through `dyn`, on this hot path).
struct Subs {
    sb: Board,
    pq: PqueueModel,
    rn: RenameModel,
    st: SimtStackModel,
    mc: ModeCtrlModel,
    /// Per sub-block, by port: an input with a combinational path to an
    /// output in the sub-block's generator ([`block_comb`]).
    comb: [Arc<Vec<bool>>; 5],
}

impl Subs {
    /// Sub-block `c`'s model: its frame, and the issue-port feeds its
    /// inputs mark (the stack has none). None for a scoreboard that is
    /// another component.
    #[inline]
    fn model(&self, c: usize) -> Option<(&PortFrame, Option<&PortFeeds>)> {
        Some(match c {
            SB => match &self.sb {
                Board::Model(m) => (&m.frame, Some(&m.feeds)),
                Board::Other(_) => return None,
            },
            PQ => (&self.pq.frame, Some(&self.pq.feeds)),
            RN => (&self.rn.frame, Some(&self.rn.feeds)),
            ST => (&self.st.frame, None),
            _ => (&self.mc.frame, Some(&self.mc.feeds)),
        })
    }

    /// [`Subs::model`], to drive.
    #[inline]
    fn model_mut(&mut self, c: usize) -> Option<(&mut PortFrame, Option<&mut PortFeeds>)> {
        Some(match c {
            SB => match &mut self.sb {
                Board::Model(m) => (&mut m.frame, Some(&mut m.feeds)),
                Board::Other(_) => return None,
            },
            PQ => (&mut self.pq.frame, Some(&mut self.pq.feeds)),
            RN => (&mut self.rn.frame, Some(&mut self.rn.feeds)),
            ST => (&mut self.st.frame, None),
            _ => (&mut self.mc.frame, Some(&mut self.mc.feeds)),
        })
    }

    /// Output `id` of sub-block `c`; `words`, the unit's (which the
    /// sub-block models share).
    #[inline]
    fn get<'a>(&'a self, words: &'a [u64], c: usize, id: PortId) -> &'a [u64] {
        match self.model(c) {
            Some((f, _)) => f.get_in(words, id),
            None => self.sb.comp().get(id),
        }
    }

    /// The wire from `from` (the word of a source on a model, if it is
    /// one) into input `to` of sub-block `dc`.
    fn wire(&self, from: (PortId, Option<u32>), dc: usize, to: PortId) -> Result<Link, Slow> {
        let slow = Slow { from: from.0, dc, to };
        let (Some(from), Some((f, feeds))) = (from.1, self.model(dc)) else { return Err(slow) };
        let Some((w, mask)) = f.word(to) else { return Err(slow) };
        Ok(Link { from, dc, to: w, mask, ports: feeds.map_or(0, |x| x.ports_of(to)) })
    }

    /// The word of output `id` of sub-block `c`, if it has one on a model.
    fn word_of(&self, c: usize, id: PortId) -> (PortId, Option<u32>) {
        (id, self.model(c).and_then(|(f, _)| f.word(id)).map(|(w, _)| w))
    }

    /// After links moved in `pass`: the issue ports they feed are marked,
    /// and in the settle the sub-blocks whose inputs changed are dirty.
    fn landed(&mut self, l: &Landed, pass: usize, dirty: &mut [bool; 5]) {
        for c in (0..5).filter(|&c| l.changed >> c & 1 == 1) {
            if let Some((_, Some(f))) = self.model_mut(c) {
                f.mark(l.ports[c]);
            }
            if pass == SETTLE {
                // An input of the edge reaches no output: no decision reads it.
                self.touched(c);
                dirty[c] = true;
            }
        }
    }

    /// An input of sub-block `c` changed in place: mode_ctrl's decisions
    /// are to be made again.
    #[inline]
    fn touched(&mut self, c: usize) {
        if c == MC {
            self.mc.decided = false;
        }
    }

    /// Set an input (in `words`, the unit's); whether its value changed.
    #[inline]
    fn set_changed(&mut self, words: &mut [u64], c: usize, id: PortId, v: &[u64]) -> bool {
        match self.model_mut(c) {
            Some((frame, Some(feeds))) => {
                let changed = feeds.set_in(frame, words, id, v);
                if changed {
                    self.touched(c);
                }
                changed
            }
            Some((frame, None)) => frame.set_changed_in(words, id, v),
            None => {
                let o = self.sb.comp_mut();
                let same = o.get(id) == v;
                if !same {
                    o.set(id, v);
                }
                !same
            }
        }
    }

    /// Evaluate sub-block `c` (`edge`: clock it), lending it the unit's
    /// words. mode_ctrl's evaluation leaves its `pmode` outputs: they were
    /// evaluated after the unit's inputs were routed (`settle`,
    /// `settle_n_mode`), and no other input reaches them.
    fn step(&mut self, unit: &mut PortFrame, c: usize, edge: bool) {
        fn run(m: &mut (impl Component + ?Sized), edge: bool) {
            if edge {
                m.tick()
            } else {
                m.eval()
            }
        }
        match c {
            SB => match &mut self.sb {
                Board::Model(m) => lent(unit, m.as_mut(), |m| &mut m.frame, |m| run(m, edge)),
                Board::Other(o) => run(o.as_mut(), edge),
            },
            PQ => lent(unit, &mut self.pq, |m| &mut m.frame, |m| run(m, edge)),
            RN => lent(unit, &mut self.rn, |m| &mut m.frame, |m| run(m, edge)),
            ST => lent(unit, &mut self.st, |m| &mut m.frame, |m| run(m, edge)),
            _ => lent(unit, &mut self.mc, |m| &mut m.frame, |m| if edge { m.tick() } else { m.eval_decisions() }),
        }
    }

    /// mode_ctrl's `pmode` outputs ([`ModeCtrlModel::eval_modes`]).
    fn eval_modes(&mut self, unit: &mut PortFrame) {
        lent(unit, &mut self.mc, |m| &mut m.frame, ModeCtrlModel::eval_modes);
    }
}

/// Run `f` on model `m` with the unit's words lent to its frame.
#[inline]
fn lent<M: ?Sized>(unit: &mut PortFrame, m: &mut M, frame: fn(&mut M) -> &mut PortFrame, f: impl FnOnce(&mut M)) {
    unit.lend(frame(m));
    f(m);
    unit.lend(frame(m));
}

/// The unit's wiring: read-only once built, and the same for every unit
/// of the same parameters, which share one copy (`sim::shared`).
#[derive(PartialEq)]
struct Wiring {
    /// Unit inputs into the sub-blocks (stage 1), by pass, by unit input
    /// port.
    stage1: [Vec<Fanout>; 2],
    /// By unit port: the glue it feeds ([`PmodeUnitModel::glue_inputs`]):
    /// bit k, issue port k's register banks; bit 32 + j, writeback port j's
    /// selects.
    glue_of: Vec<u64>,
    /// By unit port: an output of an N-mode decision (`settle_n_mode`).
    n_cone: Vec<bool>,
    /// By pass, by unit port: the input drives a wire or glue in the pass
    /// (the others are not listed as changed for it).
    drives: [Vec<bool>; 2],
    /// By pass: mode_ctrl's `pmode` (the warp's mode) into the other blocks.
    stage_pm: [Routed; 2],
    /// By pass: sub-block status into mode_ctrl: stage 2.
    stage2: [Routed; 2],
    /// By pass: mode_ctrl commands into the sub-blocks: stage 3.
    stage3: [Routed; 2],
    /// By unit port: the sub-block output that is this unit output (a
    /// wire: `get` reads it where it is).
    out_src: Vec<Option<(usize, PortId)>>,
    /// By unit input: what its change marks in the sub-blocks whose inputs
    /// are its word (`share_words`).
    marks: Vec<Marks>,
}

/// Cycle-accurate reference model of `pmode_unit`: the five sub-block models
/// wired as in the hardware. The outputs that depend on the state alone
/// (`mode`, `halted`, `used`, `overflow`) are valid right after `tick`,
/// before any `eval` (the SM reads them so after each edge).
pub struct PmodeUnitModel {
    p: PmodeUnitParams,
    frame: PortFrame,
    io: Arc<PmodeUnitIo<PortId>>,
    subs: Subs,
    sb: Arc<ScoreboardIo<PortId>>,
    pq: Arc<PqueueIo<PortId>>,
    rn: Arc<RenameIo<PortId>>,
    mc: Arc<ModeCtrlIo<PortId>>,
    /// Per port: the stack's top-of-stack reconvergence PC, and the base
    /// entry's (`RPC_NONE`).
    st_rpc: Vec<PortId>,
    rpc_none: u64,
    wiring: Arc<Wiring>,
    /// By pass: unit inputs whose value changed since the pass last ran
    /// (each once).
    changed: [Vec<PortId>; 2],
    /// By pass: the glue of unit inputs routed and not yet computed.
    glue_pending: [u64; 2],
    changed_mark: [Vec<bool>; 2],
    /// By glue group (`GLUE_*`): bit p, the group drives inputs of pass p
    /// (a group with none in a pass is not computed in it).
    glue_passes: [u8; 5],
    /// The groups of wires from sub-blocks (`SEEN_*`) with wires at the edge.
    edge_groups: Vec<usize>,
    /// Sub-blocks whose inputs changed (or that ticked) since their last
    /// `eval`: a sub-block is a function of its inputs and state, so an
    /// `eval` of the others is skipped and every answer stays exact.
    dirty: [bool; 5],
    /// No input changed and no edge since the last settle.
    settled: bool,
    /// What each group of wires read from the sub-blocks (`SEEN_*`) has
    /// not read since.
    reads: Reads<5, 5>,
    /// The marks of the unit inputs changed since the last settle or edge
    /// (made then: `make_marks`).
    pending: Marks,
    /// mode_ctrl's status inputs are the scoreboard's outputs
    /// (`share_words`): the ports the scoreboard evaluates are marked.
    sb_status: bool,
    buf: Vec<u64>,
}

impl PmodeUnitModel {
    /// The unit of the sub-blocks' reference models.
    pub fn new(p: &PmodeUnitParams) -> Self {
        Self::build(p, Board::Model(Box::new(ScoreboardModel::new(&p.scoreboard())))).expect("the scoreboard model has its ports")
    }

    /// The unit with another scoreboard component of the same ports (e.g. a
    /// deliberately broken one, or the netlist simulation of the generator).
    pub fn with_scoreboard(p: &PmodeUnitParams, sb: Box<dyn Component + Send>) -> Result<Self, BindError> {
        Self::build(p, Board::Other(sb))
    }

    fn build(p: &PmodeUnitParams, sb: Board) -> Result<Self, BindError> {
        let mut frame = p.frame();
        let io = p.ids();
        let sb_io = p.scoreboard().bind(sb.comp())?;
        let (pq, rn, st, mc) =
            (PqueueModel::new(&p.pqueue()), RenameModel::new(&p.rename()), SimtStackModel::new(&p.simt_stack()), ModeCtrlModel::new(&p.mode_ctrl()));
        let comb = [
            block_comb(&p.scoreboard(), sb.comp().ports()),
            block_comb(&p.pqueue(), pq.ports()),
            block_comb(&p.rename(), rn.ports()),
            block_comb(&p.simt_stack(), st.ports()),
            block_comb(&p.mode_ctrl(), mc.ports()),
        ];
        let mut subs = Subs { sb, pq, rn, st, mc, comb };
        let (sb, pq, rn, st, mc) = (sb_io, p.pqueue().ids(), p.rename().ids(), p.simt_stack().ids(), p.mode_ctrl().ids());
        for mck in &mc.iss {
            subs.mc.set(mck.pq_rdy, &[1]); // a reused instruction arrives ready
        }
        let u = Src::Unit;
        let w = |from: Src, c: usize, to: PortId| Wire { from, to: (c, to) };
        let (mut s1, mut spm, mut s2, mut s3, mut outs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (c, rst) in [(SB, sb.rst), (PQ, pq.rst), (RN, rn.rst), (ST, st.rst), (MC, mc.rst)] {
            s1.push(w(u(io.rst), c, rst));
        }
        for (from, to) in [
            (io.init_en, rn.init_en),
            (io.init_used, rn.init_used),
            (io.rel_en, rn.rel_en),
            (io.rel_warp, rn.rel_warp),
            (io.rel_reg, rn.rel_reg),
        ] {
            s1.push(w(u(from), RN, to));
        }
        for (from, to) in [
            (io.launch_en, st.launch_en),
            (io.launch_warp, st.launch_warp),
            (io.launch_pc, st.launch_pc),
            (io.launch_mask, st.launch_mask),
        ] {
            s1.push(w(u(from), ST, to));
        }
        s1.push(w(u(io.launch_en), MC, mc.launch_en));
        s1.push(w(u(io.launch_warp), MC, mc.launch_warp));
        for (k, ui) in io.iss.iter().enumerate() {
            let (sbk, pqk, rnk, stk, mck) = (&sb.iss[k], &pq.iss[k], &rn.iss[k], &st.iss[k], &mc.iss[k]);
            for (from, to) in [(ui.valid, mck.valid), (ui.warp, mck.warp), (ui.pc, mck.pc), (ui.op, mck.op)] {
                s1.push(w(u(from), MC, to));
            }
            s1.push(w(u(ui.warp), SB, sbk.warp));
            // A reused instruction left the P-queue at fetch, ready (§5.2).
            s1.push(w(u(ui.reuse), MC, mck.pq_hit));
            for (&from, &to) in ui.reuse_pdst.iter().zip(&rnk.reuse_phys) {
                s1.push(w(u(from), RN, to));
            }
            for (from, to) in [(ui.warp, pqk.warp), (ui.pc, pqk.pc), (ui.src[0].reg, pqk.src0)] {
                s1.push(w(u(from), PQ, to));
            }
            // The entry keeps the paper's two source fields (0 without a second source).
            if let Some(s) = ui.src.get(1) {
                s1.push(w(u(s.reg), PQ, pqk.src1));
            }
            s1.push(w(u(ui.warp), RN, rnk.warp));
            for (s, o) in ui.src.iter().enumerate() {
                for (c, to) in [(MC, &mck.src[s]), (SB, &sbk.src[s])] {
                    s1.push(w(u(o.reg), c, to.reg));
                    s1.push(w(u(o.vld), c, to.vld));
                }
                s1.push(w(u(o.reg), RN, rnk.src[s]));
            }
            for (d, o) in ui.dst.iter().enumerate() {
                for (c, to) in [(MC, &mck.dst[d]), (SB, &sbk.dst[d])] {
                    s1.push(w(u(o.reg), c, to.reg));
                    s1.push(w(u(o.vld), c, to.vld));
                }
                s1.push(w(u(o.reg), PQ, pqk.dst[d].dst));
                s1.push(w(u(o.reg), RN, rnk.dst[d].reg));
                if let Some(v) = rnk.dst[d].vld {
                    s1.push(w(u(o.vld), RN, v));
                }
            }
            for (from, to) in [(ui.warp, stk.warp), (ui.taken, stk.taken), (ui.target, stk.target), (ui.reconv, stk.reconv)] {
                s1.push(w(u(from), ST, to));
            }
            let pm = Src::Sub(MC, mck.pmode);
            spm.push(w(pm, SB, sbk.pmode));
            spm.push(w(pm, RN, rnk.pmode));
            spm.push(w(pm, ST, stk.pmode));
            // Status into mode_ctrl.
            // Destination pending: per destination when there are several.
            let dst_pending = sbk.dst_pending_bits.unwrap_or(sbk.dst_pending);
            for (from, to) in [(sbk.src_pending, mck.src_pending), (dst_pending, mck.dst_pending)] {
                s2.push(w(Src::Sub(SB, from), MC, to));
            }
            for (&from, &to) in sbk.src_long.iter().zip(&mck.src_long) {
                s2.push(w(Src::Sub(SB, from), MC, to));
            }
            for (from, to) in [(pqk.ok, mck.pq_ok), (pqk.full, mck.pq_full)] {
                s2.push(w(Src::Sub(PQ, from), MC, to));
            }
            s2.push(w(Src::Sub(RN, rnk.free), MC, mck.rn_free));
            s2.push(w(Src::Sub(SB, sbk.dst_long), MC, mck.dst_long));
            // Commands out of mode_ctrl.
            let from_mc = |id| Src::Sub(MC, id);
            for (from, c, to) in [
                (mck.sb_fire, SB, sbk.fire),
                (mck.sb_long, SB, sbk.long),
                (mck.sb_skip, SB, sbk.skip),
                (mck.pq_push, PQ, pqk.push),
                (mck.rn_alloc, RN, rnk.alloc),
                (mck.rn_reuse, RN, rnk.reuse),
                (mck.rn_write, RN, rnk.write),
                (mck.rn_moved, RN, rnk.moved),
                (mck.st_adv, ST, stk.adv),
                (mck.st_br, ST, stk.br),
            ] {
                s3.push(w(from_mc(from), c, to));
            }
            // Unit outputs.
            outs.push((Src::Sub(MC, mck.action), ui.action));
            for (l, o) in rnk.lookup.iter().zip(&ui.lookup) {
                outs.push((Src::Sub(RN, l.renamed), o.renamed));
                outs.push((Src::Sub(RN, l.phys), o.phys));
            }
            outs.push((Src::Sub(MC, mck.pq_push), ui.recorded));
            outs.push((Src::Sub(PQ, pqk.idx), ui.pq_idx));
            outs.push((Src::Sub(ST, stk.pc), ui.stack_pc));
            outs.push((Src::Sub(ST, stk.mask), ui.stack_mask));
            outs.push((Src::Sub(SB, sbk.stall), ui.stall));
            outs.push((Src::Sub(SB, sbk.long_dep), ui.long_dep));
        }
        for (j, uw) in io.wb.iter().enumerate() {
            let (sbj, mcj, pqj) = (&sb.wb[j], &mc.wb[j], &pq.wb[j]);
            for (from, to) in [(uw.en, sbj.en), (uw.warp, sbj.warp), (uw.reg, sbj.reg)] {
                s1.push(w(u(from), SB, to));
            }
            for (from, to) in [(uw.en, mcj.en), (uw.warp, mcj.warp), (uw.reg, mcj.reg), (uw.pmode, mcj.pmode)] {
                s1.push(w(u(from), MC, to));
            }
            for (from, to) in [(uw.warp, pqj.warp), (uw.idx, pqj.idx)] {
                s1.push(w(u(from), PQ, to));
            }
        }
        let from_mc = |id| Src::Sub(MC, id);
        s3.push(w(from_mc(mc.start_en), SB, sb.copy_en));
        s3.push(w(from_mc(mc.start_warp), SB, sb.copy_warp));
        s3.push(w(from_mc(mc.start_en), ST, st.copy_en));
        s3.push(w(from_mc(mc.start_warp), ST, st.copy_warp));
        s3.push(w(from_mc(mc.start_en), RN, rn.start_en));
        s3.push(w(from_mc(mc.start_warp), RN, rn.start_warp));
        // Fetch ports: the P-queue's ports after the issue ports (their
        // record inputs stay 0).
        for (f, fe) in io.fe.iter().enumerate() {
            let pqf = &pq.iss[p.issue_ports as usize + f];
            for (from, to) in [(fe.warp, pqf.warp), (fe.pc, pqf.pc), (fe.pop, pqf.pop)] {
                s1.push(w(u(from), PQ, to));
            }
            outs.push((Src::Sub(PQ, pqf.hit), fe.hit));
            outs.push((Src::Sub(PQ, pqf.rdy), fe.rdy));
            for (&o, h) in fe.pdst.iter().zip(&pqf.head) {
                outs.push((Src::Sub(PQ, h.pdst), o));
            }
        }
        outs.push((Src::Sub(MC, mc.mode), io.mode));
        outs.push((Src::Sub(MC, mc.halted), io.halted));
        outs.push((Src::Sub(RN, rn.used), io.used));
        outs.push((Src::Sub(ST, st.overflow), io.overflow));
        let st_rpc = st.iss.iter().map(|x| x.rpc).collect();
        let nports = frame.specs().len();
        let mut out_src = vec![None; nports];
        for (from, to) in outs {
            let Src::Sub(c, id) = from else { unreachable!("unit outputs come from sub-blocks") };
            out_src[to.0 as usize] = Some((c, id));
        }
        let (s1, s2, marks, sb_status) = share_words(&mut frame, &mut subs, s1, s2);
        let by_port = |wires: Vec<Wire>| {
            let mut g: Vec<Fanout> = vec![Fanout::default(); nports];
            for wire in wires {
                let Src::Unit(id) = wire.from else { unreachable!("stage 1 wires come from unit inputs") };
                let from = (id, frame.word(id).map(|(w, _)| w));
                let f = &mut g[id.0 as usize];
                match subs.wire(from, wire.to.0, wire.to.1) {
                    Ok(l) => f.links.push(l),
                    Err(x) => f.slow.push(x),
                }
            }
            g
        };
        let mut glue_of = vec![0u64; nports];
        for (k, ui) in io.iss.iter().enumerate() {
            for id in ui.dst.iter().map(|d| d.reg).chain([ui.warp]) {
                glue_of[id.0 as usize] |= 1 << k;
            }
        }
        for (j, uw) in io.wb.iter().enumerate() {
            for id in [uw.en, uw.pmode, uw.rec] {
                glue_of[id.0 as usize] |= 1 << (32 + j);
            }
        }
        for id in [io.launch_en, io.launch_warp, io.launch_pc] {
            glue_of[id.0 as usize] |= START_BIT;
        }
        let by_sub = |wires: Vec<Wire>| -> Routed {
            let mut g: Routed = Default::default();
            for (c, list) in by_src(wires.into_iter().map(|w| (w.from, w.to))).into_iter().enumerate() {
                for (id, (dc, to)) in list {
                    match subs.wire(subs.word_of(c, id), dc, to) {
                        Ok(l) => g[c].links.push(l),
                        Err(x) => g[c].slow.push(x),
                    }
                }
            }
            g
        };
        let iss = || sb.iss.iter().zip(&pq.iss).zip(&rn.iss).zip(&mc.iss).take(io.iss.len());
        let glue_pins: [Vec<(usize, PortId)>; 5] = [
            iss().flat_map(|(((_, _), r), _)| r.dst.iter().map(|d| (RN, d.bank))).collect(),
            sb.wb.iter().zip(&pq.wb).flat_map(|(s, q)| [(SB, s.n), (SB, s.p), (PQ, q.en)]).collect(),
            iss().flat_map(|(((_, q), r), _)| q.dst.iter().take(r.alloc_phys.len()).map(|d| (PQ, d.pdst))).collect(),
            iss().map(|(_, m)| (MC, m.diverged)).collect(),
            vec![(PQ, pq.start_en), (PQ, pq.start_warp), (PQ, pq.start_pc)],
        ];
        let glue_passes = glue_pins.map(|pins| {
            pins.iter().fold(0u8, |acc, &(c, id)| acc | 1 << if subs.comb[c][id.0 as usize] { SETTLE } else { EDGE })
        });
        let mut n_cone = vec![false; nports];
        for ui in &io.iss {
            for id in [ui.action, ui.stall, ui.long_dep] {
                n_cone[id.0 as usize] = true;
            }
        }
        let stage1 = split(s1, &subs.comb, by_port);
        let drives = [SETTLE, EDGE].map(|pass| {
            (0..nports)
                .map(|i| !stage1[pass][i].links.is_empty() || !stage1[pass][i].slow.is_empty() || glue_of[i] & glue_mask(glue_passes, pass) != 0)
                .collect()
        });
        let (stage_pm, stage2, stage3) = (split(spm, &subs.comb, by_sub), split(s2, &subs.comb, by_sub), split(s3, &subs.comb, by_sub));
        let wired = |r: &Routed| r.iter().any(|f| !f.links.is_empty() || !f.slow.is_empty());
        let edge_groups =
            [(SEEN_PM, &stage_pm), (SEEN_STATUS, &stage2), (SEEN_COMMANDS, &stage3)].into_iter().filter(|(_, r)| wired(&r[EDGE])).map(|(g, _)| g).collect();
        Ok(PmodeUnitModel {
            buf: vec![0; words_for(p.rename_regs).max(words_for(p.pc_bits)).max(words_for(p.lanes))],
            p: p.clone(),
            frame,
            io: sim::shared::shared(io),
            subs,
            sb: sim::shared::shared(sb),
            pq: sim::shared::shared(pq),
            rn: sim::shared::shared(rn),
            mc: sim::shared::shared(mc),
            st_rpc,
            rpc_none: p.simt_stack().rpc_none(),
            wiring: sim::shared::shared(Wiring { stage1, glue_of, n_cone, drives, stage_pm, stage2, stage3, out_src, marks }),
            changed: [(); 2].map(|_| (0..nports as u32).map(PortId).collect()),
            changed_mark: [(); 2].map(|_| vec![true; nports]),
            glue_pending: [0; 2],
            glue_passes,
            edge_groups,
            dirty: [true; 5],
            settled: false,
            reads: Reads::default(),
            pending: Marks::default(),
            sb_status,
        })
    }

    /// A wire moved through the ports, in `pass` (the sub-block is dirty
    /// in the settle if its input changed).
    fn carry_slow(subs: &mut Subs, words: &mut [u64], dirty: &mut [bool; 5], pass: usize, x: &Slow, v: &[u64]) {
        if subs.set_changed(words, x.dc, x.to, v) {
            dirty[x.dc] |= pass == SETTLE;
        }
    }

    /// Drive a glue input in `pass` (nothing if the input is the other
    /// pass's).
    fn put_u64(&mut self, pass: usize, c: usize, id: PortId, v: u64) {
        if self.subs.comb[c][id.0 as usize] == (pass == SETTLE) && self.subs.set_changed(self.frame.words_mut(), c, id, &[v]) {
            self.dirty[c] |= pass == SETTLE;
        }
    }

    fn eval_sub(&mut self, c: usize) {
        if self.dirty[c] {
            self.dirty[c] = false;
            self.reads.evaluated(c);
            self.subs.step(&mut self.frame, c, false);
            if let (SB, true, Board::Model(m)) = (c, self.sb_status, &self.subs.sb) {
                // Its status is mode_ctrl's: the ports it evaluated are to
                // be decided again.
                let ports = m.evaluated & ((1 << self.io.iss.len()) - 1);
                if ports != 0 {
                    self.subs.mc.feeds.mark(ports);
                    self.subs.touched(MC);
                    self.dirty[MC] = true;
                }
            }
        }
    }

    /// Stage 1: the marks of the unit inputs that sub-block inputs share;
    /// the other unit inputs that changed since `pass` last ran into the
    /// sub-block inputs of the pass; the glue they feed.
    fn route_inputs(&mut self, pass: usize) -> u64 {
        self.make_marks();
        let PmodeUnitModel { wiring, changed, changed_mark, subs, frame, dirty, buf, .. } = self;
        let Wiring { stage1, glue_of, .. } = &**wiring;
        let mut glue = 0;
        let mut landed = Landed::default();
        let words = frame.words_mut();
        for id in &changed[pass] {
            let i = id.0 as usize;
            glue |= glue_of[i];
            changed_mark[pass][i] = false;
            for l in &stage1[pass][i].links {
                land(words, l, words[l.from as usize], &mut landed);
            }
        }
        subs.landed(&landed, pass, dirty);
        for id in changed[pass].drain(..) {
            for x in &stage1[pass][id.0 as usize].slow {
                let v = frame.get(x.from);
                let n = v.len();
                buf[..n].copy_from_slice(v);
                Self::carry_slow(subs, frame.words_mut(), dirty, pass, x, &buf[..n]);
            }
        }
        glue
    }

    /// The marks of the unit inputs changed since the last call.
    fn make_marks(&mut self) {
        let m = std::mem::take(&mut self.pending);
        for c in 0..5 {
            if m.ports[c] != 0 {
                if let Some((_, Some(f))) = self.subs.model_mut(c) {
                    f.mark(m.ports[c]);
                }
            }
            if m.dirty >> c & 1 == 1 {
                self.subs.touched(c);
                self.dirty[c] = true;
            }
        }
    }

    /// Sub-block outputs into sub-block inputs: in the settle, the
    /// combinational ones from the sub-blocks evaluated since group `g` last
    /// read them; at the edge, all the others.
    fn route(&mut self, pass: usize, g: usize) {
        let mut fresh = if pass == SETTLE { self.reads.unseen(g) } else { [true; 5] };
        if pass == SETTLE && g == SEEN_PM && fresh[MC] {
            // mode_ctrl evaluates often; its `pmode` changes seldom.
            fresh[MC] = std::mem::take(&mut self.subs.mc.pm_changed);
        }
        // At the edge: mode_ctrl's outputs that changed since the last edge
        // (its decisions are often the last cycle's).
        let since = &mut self.subs.mc.since_edge;
        match (pass, g) {
            (EDGE, SEEN_PM) => fresh[MC] = std::mem::take(&mut since.pmode),
            (EDGE, SEEN_COMMANDS) => fresh[MC] = std::mem::take(&mut since.commands) || since.start,
            _ => {}
        }
        let PmodeUnitModel { wiring, subs, buf, dirty, frame, .. } = self;
        let Wiring { stage_pm, stage2, stage3, .. } = &**wiring;
        let list = match g {
            SEEN_PM => &stage_pm[pass],
            SEEN_STATUS => &stage2[pass],
            _ => &stage3[pass],
        };
        let mut landed = Landed::default();
        let words = frame.words_mut();
        for c in (0..5).filter(|&c| fresh[c]) {
            for l in &list[c].links {
                land(words, l, words[l.from as usize], &mut landed);
            }
        }
        subs.landed(&landed, pass, dirty);
        for c in (0..5).filter(|&c| fresh[c]) {
            for x in &list[c].slow {
                let v = subs.get(frame.words(), c, x.from);
                let n = v.len();
                buf[..n].copy_from_slice(v);
                Self::carry_slow(subs, frame.words_mut(), dirty, pass, x, &buf[..n]);
            }
        }
    }

    /// Glue group `g` drives inputs of `pass`.
    #[inline]
    fn glues(&self, g: usize, pass: usize) -> bool {
        self.glue_passes[g] >> pass & 1 == 1
    }

    /// Glue from unit inputs: register bank of the original destination,
    /// writeback board selects, P-queue writeback enable; of the ports in
    /// `glue_pending` (bits as `glue_of`).
    fn glue_inputs(&mut self, pass: usize) {
        self.glue_some(pass, !START_BIT);
    }

    /// [`PmodeUnitModel::glue_inputs`] of the glue in `which` alone (the
    /// rest stays pending).
    fn glue_some(&mut self, pass: usize, which: u64) {
        let glue = self.glue_pending[pass] & which;
        self.glue_pending[pass] &= !which;
        let glue = glue & glue_mask(self.glue_passes, pass);
        if glue == 0 {
            return;
        }
        let banks = self.p.banks as u64;
        for k in (0..self.io.iss.len()).filter(|&k| glue >> k & 1 == 1) {
            for d in 0..self.io.iss[k].dst.len() {
                let (ui, to) = (&self.io.iss[k], self.rn.iss[k].dst[d].bank);
                let bank = (self.frame.get_u64(ui.warp) + self.frame.get_u64(ui.dst[d].reg)) & (banks - 1);
                self.put_u64(pass, RN, to, bank);
            }
        }
        for j in (0..self.io.wb.len()).filter(|&j| glue >> (32 + j) & 1 == 1) {
            let uw = &self.io.wb[j];
            let (en, pm, rec) = (self.frame.get_u64(uw.en), self.frame.get_u64(uw.pmode), self.frame.get_u64(uw.rec));
            let (n, p, pq_en) = (self.sb.wb[j].n, self.sb.wb[j].p, self.pq.wb[j].en);
            // The scoreboard reads a port's board selects only when it is
            // enabled.
            if en == 1 {
                self.put_u64(pass, SB, n, 1 - pm);
                self.put_u64(pass, SB, p, 1);
            }
            self.put_u64(pass, PQ, pq_en, en & pm & rec);
        }
    }

    /// Glue: the P-queue records the allocated rename registers.
    fn glue_pdst(&mut self, pass: usize) {
        if !self.glues(GLUE_PDST, pass) {
            return;
        }
        for k in 0..self.io.iss.len() {
            for d in 0..self.rn.iss[k].alloc_phys.len() {
                let (alloc_phys, pdst) = (self.rn.iss[k].alloc_phys[d], self.pq.iss[k].dst[d].pdst);
                let alloc = self.subs.get(self.frame.words(), RN, alloc_phys)[0];
                self.put_u64(pass, PQ, pdst, alloc);
            }
        }
    }

    /// Glue: a top entry other than the base (RPC_NONE) is a divergent path.
    fn glue_diverged(&mut self, pass: usize) {
        if !self.glues(GLUE_DIVERGED, pass) {
            return;
        }
        for k in 0..self.io.iss.len() {
            let diverged = self.subs.get(self.frame.words(), ST, self.st_rpc[k])[0] != self.rpc_none;
            let to = self.mc.iss[k].diverged;
            self.put_u64(pass, MC, to, diverged as u64);
        }
    }

    /// Glue: the P-queue's start port takes the episode start, or else the
    /// launch (a launched warp's queue is emptied).
    fn glue_start(&mut self, pass: usize) {
        if !self.glues(GLUE_START, pass) {
            return;
        }
        // At the edge, only when the episode start or the launch changed.
        let launch = self.glue_pending[pass] & START_BIT != 0;
        self.glue_pending[pass] &= !START_BIT;
        if pass == EDGE && !std::mem::take(&mut self.subs.mc.since_edge.start) && !launch {
            return;
        }
        let (mc_io, io) = (&self.mc, &self.io);
        let start = [mc_io.start_en, mc_io.start_warp, mc_io.start_pc].map(|id| self.subs.get(self.frame.words(), MC, id)[0]);
        let launch = [io.launch_en, io.launch_warp, io.launch_pc].map(|id| self.frame.get_u64(id));
        let [en, warp, pc] = if start[0] == 1 { start } else { launch };
        for (id, v) in [(self.pq.start_en, en), (self.pq.start_warp, warp), (self.pq.start_pc, pc)] {
            self.put_u64(pass, PQ, id, v);
        }
    }

    /// Settle the scoreboard and mode_ctrl alone when every offered warp is
    /// in N-mode: the decisions then read the scoreboard's status and the
    /// unit's inputs only (`ModeCtrlModel::n_mode_only`), so the P-queue,
    /// the rename block and the stack wait for the next full settle (the
    /// status they route then leaves those decisions as they are). False,
    /// with the inputs routed and nothing else done, when it does not apply.
    fn settle_n_mode(&mut self) -> bool {
        if self.settled {
            return true;
        }
        self.glue_pending[SETTLE] |= self.route_inputs(SETTLE);
        if self.dirty[MC] {
            self.subs.eval_modes(&mut self.frame);
            self.reads.evaluated(MC);
        }
        if !self.subs.mc.n_mode_only() {
            return false;
        }
        self.route(SETTLE, SEEN_PM);
        // The writeback selects; the register banks go to the rename block.
        self.glue_some(SETTLE, WB_BITS);
        self.eval_sub(SB);
        self.route(SETTLE, SEEN_STATUS);
        self.eval_sub(MC);
        true
    }

    /// Settle the whole unit for the current inputs.
    fn settle(&mut self) {
        if self.settled {
            return;
        }
        self.settled = true;
        self.glue_pending[SETTLE] |= self.route_inputs(SETTLE);
        // `pmode` depends on mode_ctrl's state and the ports' warps only;
        // the full evaluation comes once the status is routed.
        if self.dirty[MC] {
            self.subs.eval_modes(&mut self.frame);
            self.reads.evaluated(MC);
        }
        self.route(SETTLE, SEEN_PM);
        self.glue_inputs(SETTLE);
        self.eval_sub(RN);
        self.eval_sub(PQ);
        if self.reads.unseen(SEEN_PDST)[RN] {
            self.glue_pdst(SETTLE);
        }
        self.eval_sub(SB);
        self.eval_sub(ST);
        if self.reads.unseen(SEEN_DIVERGED)[ST] {
            self.glue_diverged(SETTLE);
        }
        self.route(SETTLE, SEEN_STATUS);
        self.eval_sub(MC);
        self.route(SETTLE, SEEN_COMMANDS);
        self.glue_start(SETTLE);
        for c in [SB, PQ, RN, ST] {
            self.eval_sub(c);
        }
        for (k, ui) in self.io.iss.iter().enumerate() {
            let a = self.subs.get(self.frame.words(), MC, self.mc.iss[k].action)[0];
            for (d, &o) in ui.pdst.iter().enumerate() {
                let v = if a == act::REUSE {
                    self.frame.get_u64(ui.reuse_pdst[d])
                } else {
                    self.subs.get(self.frame.words(), RN, self.rn.iss[k].alloc_phys[d])[0]
                };
                self.frame.set(o, &[v]);
            }
        }
    }

    /// The clock edge's pass, after the settle (`full`, or the N-mode
    /// decisions'): the sub-block inputs no output depends on, from the
    /// settled values.
    fn edge(&mut self, full: bool) {
        self.glue_pending[EDGE] |= self.route_inputs(EDGE);
        for i in 0..self.edge_groups.len() {
            self.route(EDGE, self.edge_groups[i]);
        }
        self.glue_inputs(EDGE);
        // After an N-mode settle nothing pushes, and the P-queue reads the
        // rename registers only to push them.
        if full {
            self.glue_pdst(EDGE);
        }
        self.glue_diverged(EDGE);
        self.glue_start(EDGE);
    }
}

impl Component for PmodeUnitModel {
    fn name(&self) -> &str {
        "pmode_unit"
    }
    fn ports(&self) -> &[sim::PortSpec] {
        self.frame.specs()
    }
    fn set(&mut self, port: PortId, value: &[u64]) {
        if self.frame.set_changed(port, value) {
            self.settled = false;
            self.pending.add(&self.wiring.marks[port.0 as usize]);
            for pass in [SETTLE, EDGE] {
                if self.wiring.drives[pass][port.0 as usize] && !self.changed_mark[pass][port.0 as usize] {
                    self.changed_mark[pass][port.0 as usize] = true;
                    self.changed[pass].push(port);
                }
            }
        }
    }
    fn get(&self, port: PortId) -> &[u64] {
        match self.wiring.out_src[port.0 as usize] {
            Some((c, id)) => self.subs.get(self.frame.words(), c, id),
            None => self.frame.get(port),
        }
    }
    fn eval(&mut self) {
        self.settle();
    }
    fn eval_outputs(&mut self, outputs: &[PortId]) {
        if !(outputs.iter().all(|id| self.wiring.n_cone[id.0 as usize]) && self.settle_n_mode()) {
            self.settle();
        }
    }
    fn tick(&mut self) {
        // With every offered warp in N-mode, the edge needs no more than the
        // decisions' settle: the P-queue, the rename block and the stack
        // update from their inputs alone, and no command reads their
        // outputs (no push takes the rename registers; the P-mode status
        // reaches no N-mode decision). They settle when next asked.
        let full = self.settled || !self.settle_n_mode();
        if full {
            self.settle();
        }
        self.edge(full);
        for c in [SB, PQ, RN, ST, MC] {
            self.subs.step(&mut self.frame, c, true);
        }
        self.dirty = [true; 5];
        self.settled = false;
    }
}

impl Reference for PmodeUnitParams {
    type Model = PmodeUnitModel;
    fn model(&self) -> PmodeUnitModel {
        PmodeUnitModel::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units of a GPU's SMs keep one copy of their wiring and port ids.
    #[test]
    fn units_of_equal_parameters_share_their_wiring() {
        let p = PmodeUnitParams::default();
        let (a, b) = (PmodeUnitModel::new(&p), PmodeUnitModel::new(&p));
        assert!(Arc::ptr_eq(&a.wiring, &b.wiring));
        assert!(Arc::ptr_eq(&a.io, &b.io) && Arc::ptr_eq(&a.mc, &b.mc));
        let q = PmodeUnitParams { issue_ports: p.issue_ports + 1, ..p.clone() };
        let c = PmodeUnitModel::new(&q);
        assert!(!Arc::ptr_eq(&a.wiring, &c.wiring));
        assert!(!Arc::ptr_eq(&a.io, &c.io));
    }
}
