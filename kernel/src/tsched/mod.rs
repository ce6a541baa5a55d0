//! Warp-aware trace scheduling (Jablin et al., PACT 2014; seed 002): a
//! PTX-to-PTX pass. A training run on the functional model gives branch
//! probabilities ([`Profile`]); trace selection ([`select`]) groups likely
//! paths into traces rooted at likely non-divergent blocks; local
//! scheduling ([`motion`]) moves global loads and arithmetic upward along
//! each trace toward its root. The output is the input text with statements
//! moved (and moved loads predicated), so NVIDIA's `ptxas` and the SM both
//! take it like any compiler output; [`KernelReport::listing`] prints what
//! moved where. A kernel the pass cannot or need not change is left as it
//! is, with the reason.

pub mod motion;
pub mod profile;
pub mod select;

use std::fmt::Write as _;

pub use profile::{Counts, InstProfile, Profile};
use select::SeedClass;

use crate::cfg::Cfg;
use crate::error::KernelError;
use crate::inst::{Guard, Op};
use crate::ptx::ParsedFunc;
use motion::{Kind, Liveness, Unit};

/// The paper's trace-growth cutoff: an edge must be taken with a
/// probability above 65% (section 4.1, found by search in the paper).
pub const MIN_PROB: f64 = 0.65;

/// Pass parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Grow a trace only along an edge more probable than this.
    pub min_prob: f64,
    pub placement: Placement,
    /// Move statements along traces (the pass). Off: only list-schedule
    /// every block, the ablation that tells the motion's share of a
    /// speedup from the block scheduling's.
    pub hoist: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { min_prob: MIN_PROB, placement: Placement::List, hoist: true }
    }
}

/// Where a moved statement goes in the block it moves into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Appended, then every block that received statements list-scheduled
    /// by latency ([`motion::list_schedule`]): what ptxas does to the
    /// paper's output on hardware (the warpforge SM issues PTX as written).
    List,
    /// The earliest slot its dependences allow, the block otherwise as written.
    Earliest,
    /// Appended at the bottom, before the branch: the paper's pass output
    /// as it is, before ptxas schedules within the block.
    Bottom,
}

impl Placement {
    pub fn parse(s: &str) -> Result<Placement, String> {
        match s {
            "list" => Ok(Placement::List),
            "earliest" => Ok(Placement::Earliest),
            "bottom" => Ok(Placement::Bottom),
            _ => Err(format!("placement `{s}`: list, earliest or bottom")),
        }
    }
}

/// A statement the pass moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// Source line in the input.
    pub line: u32,
    pub text: String,
    pub from: String,
    pub to: String,
    /// Moved above a conditional branch (or guarded exit).
    pub speculative: bool,
    /// The predicate the pass added (a load above a branch), as written.
    pub guard: Option<String>,
    pub load: bool,
}

/// One trace: block names, root first, and why the root seeds a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub blocks: Vec<String>,
    pub seed: SeedClass,
}

/// What the pass did to one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelReport {
    pub name: String,
    pub blocks: usize,
    pub traces: Vec<Trace>,
    pub moved: Vec<Moved>,
    /// Why no statement moved (`None`: some did).
    pub unmoved: Option<String>,
    /// The list schedule reordered a block.
    pub reordered: bool,
    /// Why the kernel is unchanged (`None`: its text changed).
    pub unchanged: Option<String>,
}

impl KernelReport {
    fn unchanged(name: &str, why: impl Into<String>) -> KernelReport {
        let why: String = why.into();
        KernelReport { name: name.into(), blocks: 0, traces: Vec::new(), moved: Vec::new(), unmoved: Some(why.clone()), reordered: false, unchanged: Some(why) }
    }

    /// Traces and moved statements, before and after, as text.
    pub fn listing(&self) -> String {
        let mut s = String::new();
        if let Some(why) = &self.unchanged {
            let _ = writeln!(s, "kernel {}: unchanged: {why}", self.name);
            if self.traces.is_empty() {
                return s;
            }
        } else {
            let loads = self.moved.iter().filter(|m| m.load).count();
            let guarded = self.moved.iter().filter(|m| m.guard.is_some()).count();
            let spec = self.moved.iter().filter(|m| m.speculative && m.guard.is_none()).count();
            let _ = writeln!(
                s,
                "kernel {}: {} blocks, {} traces, {} statements moved ({loads} global loads, {guarded} of them predicated; {spec} speculative arithmetic){}",
                self.name,
                self.blocks,
                self.traces.len(),
                self.moved.len(),
                if self.reordered { "; blocks list-scheduled" } else { "" }
            );
            if let Some(why) = &self.unmoved {
                let _ = writeln!(s, "  no statement moved: {why}");
            }
        }
        for t in self.traces.iter().filter(|t| t.blocks.len() > 1) {
            let _ = writeln!(s, "  trace {} [{:?}]", t.blocks.join(" -> "), t.seed);
        }
        for m in &self.moved {
            let how = match (&m.guard, m.speculative) {
                (Some(g), _) => format!("predicated {g}"),
                (None, true) => "speculative".into(),
                (None, false) => "non-speculative".into(),
            };
            let _ = writeln!(s, "  line {:>5}  {:<48} {} -> {}  ({how})", m.line, m.text, m.from, m.to);
        }
        s
    }
}

/// The pass's result: the whole module as PTX, and a report per kernel.
#[derive(Clone, Debug)]
pub struct Scheduled {
    pub ptx: String,
    pub kernels: Vec<KernelReport>,
}

impl Scheduled {
    pub fn changed(&self) -> bool {
        self.kernels.iter().any(|k| k.unchanged.is_none())
    }
}

/// The training run: one launch on the functional model, its counts added
/// to `into`.
pub fn train(k: &crate::Kernel, launch: &crate::Launch, opts: &crate::RunOptions, into: &mut Profile) -> Result<(), crate::RunError> {
    let mut memory = launch.memory.clone();
    let mut p = InstProfile::new(k);
    crate::run_profiled(k, launch, &mut memory, opts, &mut p)?;
    into.add(k, &p);
    Ok(())
}

/// Trace-schedule every kernel of a PTX module the profile covers.
pub fn schedule(src: &str, file: &str, profile: &Profile, opts: &Options) -> Result<Scheduled, KernelError> {
    let m = crate::ptx::parse(src, file)?;
    // The original's allocation, needed once some kernel changes.
    let mut original: Option<crate::Module> = None;
    let spills = |m: &crate::Module, name: &str| m.kernels.iter().find(|k| k.name == name).map_or(0, |k| k.spills);
    let mut lines: Vec<String> = src.split('\n').map(str::to_string).collect();
    let mut kernels = Vec::new();
    for f in m.funcs.iter().filter(|f| f.is_entry) {
        // The pressure cap is a bound, not an allocation: should the
        // scheduled kernel still spill more than the original, schedule it
        // again with a tighter cap, and at last without motion.
        let mut result = None;
        let mut spilled = false;
        for (margin, hoist) in [(4, true), (8, true), (16, true), (0, false)] {
            spilled = !hoist;
            let o = Options { hoist: opts.hoist && hoist, ..*opts };
            let r = kernel(f, &lines, profile, &o, margin);
            if let Ok((_, Some((open, body)))) = &r {
                let mut trial = lines.clone();
                trial.splice(open + 1..open + 1 + body.len(), body.iter().cloned());
                let original = match &mut original {
                    Some(m) => m,
                    none => none.insert(crate::Module::from_ptx(src, file)?),
                };
                let before = spills(original, &f.name);
                let fits = crate::Module::from_ptx(&trial.join("\n"), file).is_ok_and(|t| spills(&t, &f.name) <= before);
                if !fits && o.hoist {
                    continue;
                }
            }
            result = Some(r);
            break;
        }
        let mut result = result.expect("the last attempt is taken");
        if let (Ok((report, _)), true, true) = (&mut result, spilled, opts.hoist) {
            report.unmoved = Some("with any motion this front end's allocator spills more than before".into());
        }
        match result {
            Ok((report, Some((open, body)))) => {
                // One line out for every line in: later kernels' lines stay put.
                let n = body.len();
                lines.splice(open + 1..open + 1 + n, body);
                kernels.push(report);
            }
            Ok((report, None)) => kernels.push(report),
            Err(why) => kernels.push(KernelReport::unchanged(&f.name, why)),
        }
    }
    let ptx = lines.join("\n");
    if kernels.iter().any(|k| k.unchanged.is_none()) {
        crate::Module::from_ptx(&ptx, file).map_err(|e| KernelError::Pass { file: file.into(), pass: "trace scheduling", msg: e.to_string() })?;
    }
    Ok(Scheduled { ptx, kernels })
}

/// Opening brace, closing brace (line indices), nested scopes (line ranges).
type BodyLines = (usize, usize, Vec<(u32, u32)>);

/// The body of a function in the text: the line index of its opening brace,
/// of its closing brace, and the nested scopes in it as 1-based line ranges
/// (`{ .reg .b32 %temp; ... }`: nvcc's inline-assembly sequences), each of
/// which stays one fixed statement. A call sequence (`{ // callseq`) is
/// refused: the pass is intraprocedural.
fn body(lines: &[String], first: usize) -> Result<BodyLines, String> {
    let mut depth = 0i32;
    let mut open = None;
    let mut scopes = Vec::new();
    let mut scope_start = None;
    for (i, l) in lines.iter().enumerate().skip(first) {
        let code = l.split("//").next().unwrap_or("");
        let before = depth;
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    open.get_or_insert(i);
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if open.is_some() && before == 1 && depth > 1 {
            if l.contains("callseq") {
                return Err(format!("line {}: it calls a function (the pass is intraprocedural, as the paper's)", i + 1));
            }
            scope_start = Some(i as u32 + 1);
        }
        if let (Some(s), true, 1) = (scope_start, before > 1, depth) {
            scopes.push((s, i as u32 + 1));
            scope_start = None;
        }
        if let (Some(o), 0) = (open, depth) {
            return Ok((o, i, scopes));
        }
    }
    Err("its body does not end".into())
}

type Body = Option<(usize, Vec<String>)>;

fn kernel(f: &ParsedFunc, lines: &[String], profile: &Profile, opts: &Options, margin: u32) -> Result<(KernelReport, Body), String> {
    let name = f.name.as_str();
    let Some(counts) = profile.kernels.get(name) else {
        return Err("not in the profile (the training run never launched it)".into());
    };
    if f.insts.iter().any(|i| matches!(i.op, Op::Call { .. } | Op::Ret)) {
        return Err("it calls a function".into());
    }
    let (open, close, scopes) = body(lines, (f.line as usize).saturating_sub(1))?;
    let (lo, hi) = (open as u32 + 1, close as u32 + 1);
    let scope_of = |l: u32| scopes.iter().find(|s| (s.0..=s.1).contains(&l)).copied();
    // Statements: the instructions of each source line, or of each nested
    // scope; (first line, last line, instructions).
    let mut stmts: Vec<(u32, u32, Vec<usize>)> = Vec::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if inst.line <= lo || inst.line >= hi {
            return Err(format!("line {}: code from outside its body (an inlined function)", inst.line));
        }
        let (first, last) = scope_of(inst.line).unwrap_or((inst.line, inst.line));
        match stmts.last_mut() {
            Some((l, _, v)) if *l == first => v.push(i),
            Some((l, _, _)) if *l > first => return Err(format!("line {}: statements out of source order", inst.line)),
            _ => stmts.push((first, last, vec![i])),
        }
    }
    let in_stmt = |ln: u32| {
        let k = stmts.partition_point(|s| s.1 < ln);
        k < stmts.len() && stmts[k].0 <= ln
    };
    let first = stmts.first().map_or(u32::MAX, |s| s.0);
    for (i, l) in lines.iter().enumerate().take(close).skip(open + 1) {
        let (t, ln) = (l.trim(), i as u32 + 1);
        if scope_of(ln).is_some() {
            if !in_stmt(ln) {
                return Err(format!("line {ln}: a nested scope without instructions"));
            }
            continue;
        }
        // A declaration after the first statement: a statement moving above
        // it could name what it declares before the declaration.
        if ln > first && t.starts_with('.') && ![".loc", ".pragma", ".file"].iter().any(|d| t.starts_with(d)) {
            return Err(format!("line {ln}: a declaration among its statements"));
        }
        let known = t.is_empty() || t.starts_with("//") || t.starts_with('.') || t.ends_with(':') || in_stmt(ln);
        if !known {
            return Err(format!("line {ln}: a statement the front end did not turn into an instruction"));
        }
    }
    let cfg = Cfg::build(&f.insts);
    let nb = cfg.blocks.len();
    let mut blocks: Vec<Vec<Unit>> = vec![Vec::new(); nb];
    for (line, last, idx) in &stmts {
        let b = cfg.block_of[idx[0]] as usize;
        if idx.iter().any(|&i| cfg.block_of[i] as usize != b) {
            return Err(format!("line {line}: one statement spans two blocks"));
        }
        let insts = idx.iter().map(|&i| f.insts[i].clone()).collect();
        blocks[b].push(Unit::new(*line, *last, insts, &lines[*line as usize - 1]));
    }
    let block_name = |b: usize| {
        let start = cfg.blocks[b].start;
        f.labels.iter().find(|(_, i)| *i == start).map_or_else(|| format!("B{b}"), |(n, _)| n.clone())
    };
    let line_counts = |b: usize, last: bool| {
        let i = if last { cfg.blocks[b].end - 1 } else { cfg.blocks[b].start };
        counts.get(&f.insts[i as usize].line).copied().unwrap_or_default()
    };
    let prob = |from: usize, to: usize| -> f64 {
        if line_counts(from, false).execs == 0 {
            return 0.0;
        }
        let last = &f.insts[cfg.blocks[from].end as usize - 1];
        match last.op {
            Op::Bra { target, .. } if last.guard.is_some() => {
                let c = line_counts(from, true);
                let total = c.taken + c.not_taken;
                let tb = cfg.block_of[target as usize] as usize;
                if total == 0 {
                    0.0
                } else if cfg.fallthrough(from) == Some(tb) {
                    1.0
                } else if to == tb {
                    c.taken as f64 / total as f64
                } else {
                    c.not_taken as f64 / total as f64
                }
            }
            _ => 1.0,
        }
    };
    let syncs: Vec<bool> = cfg.blocks.iter().map(|b| f.insts[b.start as usize..b.end as usize].iter().any(motion::syncs)).collect();
    let shape = select::Shape::of(&cfg);
    let seeds = select::seeds(&cfg, &shape, &syncs);
    let traces = select::traces(&cfg, &shape, &seeds, &prob, opts.min_prob);
    let seed_class = |b: usize| seeds.iter().find(|s| s.0 == b).map_or(SeedClass::Other, |s| s.1);
    let guard_text = |g: Guard| format!("@{}{}", if g.neg { "!" } else { "" }, f.vregs[g.pred as usize].name);

    let mut moved = Vec::new();
    let mut live = Liveness::of(&blocks, &cfg, f.vregs.len());
    // Motion lengthens live ranges. ptxas reallocates (the paper: 4 more
    // registers on average); this front end's allocator spills past the
    // register file, so a move that would take the pressure above what the
    // kernel had and the file's size less `margin` is undone.
    let before = live.pressure(&blocks, &cfg, &f.vregs);
    let cap = (before.0.max(crate::inst::MAX_REGS.saturating_sub(margin)), before.1.max(crate::inst::MAX_PREDS));
    for trace in traces.iter().filter(|t| t.len() > 1 && opts.hoist) {
        for i in 1..trace.len() {
            let home = trace[i];
            let candidates: Vec<u32> = blocks[home].iter().filter(|u| u.kind != Kind::Fixed).map(|u| u.line).collect();
            for line in candidates {
                let Some(mut idx) = blocks[home].iter().position(|u| u.line == line) else { continue };
                let (mut j, mut speculative) = (i, false);
                while j > 0 {
                    let unit = blocks[trace[j]][idx].clone();
                    let Some((q, spec)) = motion::step(&cfg, &mut blocks, &live, trace[j], idx, trace[j - 1], opts.placement) else { break };
                    let after = Liveness::of(&blocks, &cfg, f.vregs.len());
                    let p = after.pressure(&blocks, &cfg, &f.vregs);
                    if p.0 > cap.0 || p.1 > cap.1 {
                        blocks[trace[j - 1]].remove(q);
                        blocks[trace[j]].insert(idx, unit);
                        break;
                    }
                    live = after;
                    speculative |= spec;
                    idx = q;
                    j -= 1;
                }
                if j < i {
                    let u = &blocks[trace[j]][idx];
                    let guard = u.added_guard.map(guard_text);
                    moved.push(Moved {
                        line,
                        text: lines[line as usize - 1].split_whitespace().collect::<Vec<_>>().join(" "),
                        from: block_name(home),
                        to: block_name(trace[j]),
                        speculative,
                        guard,
                        load: u.kind == Kind::Load,
                    });
                }
            }
        }
    }
    // ptxas schedules every block on hardware, moved statements or not.
    let mut reordered = false;
    if opts.placement == Placement::List {
        for units in &mut blocks {
            let before: Vec<u32> = units.iter().map(|u| u.line).collect();
            motion::list_schedule(units);
            reordered |= units.iter().map(|u| u.line).ne(before);
        }
    }
    let mut report = KernelReport {
        name: name.into(),
        blocks: nb,
        traces: traces.iter().map(|t| Trace { blocks: t.iter().map(|&b| block_name(b)).collect(), seed: seed_class(t[0]) }).collect(),
        moved,
        unmoved: None,
        reordered: false,
        unchanged: None,
    };
    if report.moved.is_empty() {
        report.unmoved = Some(if !opts.hoist {
            "motion off (the block-scheduling ablation)".into()
        } else if traces.iter().all(|t| t.len() == 1) {
            format!("no trace longer than one block (no executed edge above MIN_PROB = {})", opts.min_prob)
        } else {
            "nothing on its traces can move up (dependences, side entrances, stores or barriers in the way)".into()
        });
        if !reordered {
            report.unchanged = Some(format!("{}; its blocks are in list-schedule order already", report.unmoved.as_deref().unwrap_or("")));
            return Ok((report, None));
        }
    }
    report.reordered = reordered;
    // The new body: every block's statements at the place of its first
    // original statement; labels, directives and comments where they were.
    let anchor: Vec<u32> = cfg.blocks.iter().map(|b| scope_of(f.insts[b.start as usize].line).map_or(f.insts[b.start as usize].line, |s| s.0)).collect();
    let mut out = Vec::with_capacity(close - open);
    for (i, l) in lines.iter().enumerate().take(close).skip(open + 1) {
        let ln = i as u32 + 1;
        if let Some(b) = anchor.iter().position(|&a| a == ln) {
            for u in &blocks[b] {
                let text = &lines[u.line as usize - 1];
                out.push(match u.added_guard {
                    Some(g) => {
                        let ws = text.len() - text.trim_start().len();
                        format!("{}{} {}", &text[..ws], guard_text(g), &text[ws..])
                    }
                    None => text.clone(),
                });
                out.extend(lines[u.line as usize..u.last_line as usize].iter().cloned());
            }
        } else if !in_stmt(ln) {
            out.push(l.clone());
        }
    }
    Ok((report, Some((open, out))))
}
