//! Verilog-2005 emitter: one file and one module per distinct module in the
//! hierarchy, the designer's names kept, sized literals, real memories,
//! synchronous active-high reset, no latches.
//!
//! The output passes `verilator --lint-only -Wall` without waivers: every
//! operator sees operands of equal width, array indices are exactly
//! `clog2(depth)` bits, and bits the logic never reads are gathered into one
//! `_unused` wire (Verilator's documented idiom, matched by its default
//! `--unused-regexp`), so unused-signal warnings stay meaningful.
//!
//! Memory and dynamic-shift semantics match the simulator exactly: a read past
//! the depth gives 0 and a write past it is dropped (guarded explicitly when
//! the depth is not a power of two), RAM powers up zero (`initial` block).
//! Unsigned ordered comparisons with a constant, those guards included, are
//! written as logic (see `below`).

use crate::ir::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A generated source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerilogFile {
    pub module: String,
    pub file_name: String,
    pub text: String,
}

/// Emit every module of the hierarchy, sub-modules first, top last.
pub fn emit(top: &Module) -> Vec<VerilogFile> {
    top.hierarchy()
        .into_iter()
        .map(|m| {
            let lowered = crate::ir::lower::for_verilog(m);
            VerilogFile { module: m.name.clone(), file_name: format!("{}.v", m.name), text: emit_module(&lowered) }
        })
        .collect()
}

fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

/// The reset of a register array. Verilator unrolls a `for` loop of
/// non-blocking array assignments only up to 64 iterations (and a bounded
/// number of statements in all; beyond that it reports BLKLOOPINIT), so a
/// deeper array is reset by one statement per word. Returns the loop
/// variables to declare and the statements.
fn reset_loops(name: &str, depth: u32, value: &str) -> (Vec<String>, String) {
    const IND: &str = "            ";
    if depth <= 64 {
        let v = format!("_i_{name}");
        let text = format!("{IND}for ({v} = 0; {v} < {depth}; {v} = {v} + 1) {name}[{v}] <= {value};\n");
        (vec![v], text)
    } else {
        (vec![], (0..depth).map(|k| format!("{IND}{name}[{k}] <= {value};\n")).collect())
    }
}

/// `x < bound` for the `n`-bit unsigned expression `x` (n < 64) as logic:
/// the OR, over the bits `i` set in `bound`, of "`x` has bit `i` clear and
/// equals `bound` above it", written `(x & mask) == value` (no bit select of
/// an expression). yosys maps `<` to a carry chain, which ABC cannot see
/// through: the bounds check `addr < 48` then hid that the 16 words yosys
/// adds to a 48-word array (it maps 2^6) are never written or read
/// (simt_stack at 48 warps kept 24,672 such flip-flops).
fn below(x: &str, n: u32, bound: u64) -> String {
    if bound >= 1 << n {
        return "1'b1".into();
    }
    let terms: Vec<String> = (0..n)
        .rev()
        .filter(|&i| bound >> i & 1 == 1)
        .map(|i| {
            let mask = ((1u64 << n) - 1) & !((1u64 << i) - 1);
            format!("(({x} & {n}'d{mask}) == {n}'d{})", bound & mask & !(1 << i))
        })
        .collect();
    if terms.is_empty() {
        "1'b0".into()
    } else {
        format!("({})", terms.join(" | "))
    }
}

struct Emitter<'a> {
    m: &'a Module,
    uses: Vec<u32>,
    live: Vec<bool>,
    temps: Vec<Option<String>>,
    /// Per node: which bits some logic reads.
    read_bits: Vec<Vec<bool>>,
    sig_node: std::collections::HashMap<&'a str, NodeId>,
    functions: BTreeMap<String, String>,
}

fn emit_module(m: &Module) -> String {
    let mut e = Emitter {
        m,
        uses: vec![0; m.nodes.len()],
        live: vec![false; m.nodes.len()],
        temps: vec![None; m.nodes.len()],
        read_bits: m.nodes.iter().map(|n| vec![false; n.width as usize]).collect(),
        sig_node: m
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| if let Op::Sig(s) = n.op { Some((m.signals[s as usize].name.as_str(), i as NodeId)) } else { None })
            .collect(),
        functions: BTreeMap::new(),
    };
    e.mark_live();
    e.choose_temps();
    e.generate()
}

impl<'a> Emitter<'a> {
    fn node(&self, n: NodeId) -> &'a Node {
        &self.m.nodes[n as usize]
    }

    /// Roots: every signal driver, every memory port of a live memory.
    fn roots(&self) -> Vec<NodeId> {
        let mut r: Vec<NodeId> = self.m.signals.iter().filter_map(|s| s.driver).collect();
        for mem in &self.m.mems {
            for w in &mem.write_ports {
                r.extend([w.addr, w.data, w.en]);
            }
        }
        r
    }

    fn mark_live(&mut self) {
        let mut stack = self.roots();
        for &r in &stack {
            self.uses[r as usize] += 1;
        }
        while let Some(n) = stack.pop() {
            if self.live[n as usize] {
                continue;
            }
            self.live[n as usize] = true;
            let mut ops = self.node(n).op.operands();
            if let Op::MemRead { mem, port } = self.node(n).op {
                ops.push(self.m.mems[mem as usize].read_ports[port as usize].addr);
            }
            for o in ops {
                self.uses[o as usize] += 1;
                stack.push(o);
            }
        }
        // Which bits of each node are read (slices read part of a node).
        for n in 0..self.m.nodes.len() {
            if !self.live[n] {
                continue;
            }
            match &self.node(n as NodeId).op {
                Op::Slice { src, lo } => {
                    let w = self.node(n as NodeId).width;
                    self.read_bits[*src as usize][*lo as usize..(*lo + w) as usize].fill(true);
                }
                op => {
                    let mut ops = op.operands();
                    if let Op::MemRead { mem, port } = op {
                        ops.push(self.m.mems[*mem as usize].read_ports[*port as usize].addr);
                    }
                    for o in ops {
                        self.read_bits[o as usize].fill(true);
                    }
                }
            }
        }
        for r in self.roots() {
            self.read_bits[r as usize].fill(true);
        }
        for s in &self.m.signals {
            if matches!(s.kind, SigKind::Output | SigKind::InstIn { .. }) {
                self.read_bits[self.sig_node[s.name.as_str()] as usize].fill(true);
            }
        }
    }

    /// Nodes that become `_tN` wires: shared ones, memory reads, and operands
    /// Verilog can only index when they are names.
    fn choose_temps(&mut self) {
        let mut need = vec![false; self.m.nodes.len()];
        for (n, node) in self.m.nodes.iter().enumerate() {
            if !self.live[n] {
                continue;
            }
            let simple = matches!(node.op, Op::Const(_) | Op::Sig(_));
            if !simple && self.uses[n] > 1 {
                need[n] = true;
            }
            match &node.op {
                // `$signed(x) >>> n` is only arithmetic where the whole
                // expression is signed: give it an assignment of its own.
                Op::MemRead { .. } | Op::Shift(ShiftOp::Sra, ..) => need[n] = true,
                Op::Slice { src, .. } | Op::Ext { src, signed: true } if !matches!(self.node(*src).op, Op::Sig(_)) => {
                    need[*src as usize] = true;
                }
                _ => {}
            }
        }
        for (n, &t) in need.iter().enumerate() {
            if t {
                self.temps[n] = Some(format!("_t{n}"));
            }
        }
    }

    /// The value of an address node that is a constant.
    fn const_addr(&self, n: NodeId) -> Option<u64> {
        match &self.node(n).op {
            Op::Const(b) => b.to_u64(),
            _ => None,
        }
    }

    fn name_of(&self, s: SigId) -> &'a str {
        &self.m.signals[s as usize].name
    }

    /// The expression text of a node: a name, a literal or an inline expression.
    fn expr(&mut self, n: NodeId) -> String {
        if let Some(t) = &self.temps[n as usize] {
            return t.clone();
        }
        self.expr_inline(n)
    }

    fn expr_inline(&mut self, n: NodeId) -> String {
        let node = self.node(n);
        match &node.op {
            Op::Const(b) => b.verilog(),
            Op::Sig(s) => self.name_of(*s).to_string(),
            Op::Unary(op, a) => {
                let w = self.node(*a).width;
                let x = self.expr(*a);
                match op {
                    UnOp::Not => format!("(~{x})"),
                    UnOp::RedAnd => format!("(&{x})"),
                    UnOp::RedOr => format!("(|{x})"),
                    UnOp::RedXor => format!("(^{x})"),
                    UnOp::Ffs => format!("{}({x})", self.ffs_fn(w, node.width)),
                    UnOp::Popcount => format!("{}({x})", self.popcount_fn(w, node.width)),
                }
            }
            Op::Binary(op, a, b) => {
                let (wa, wb) = (self.node(*a).width, self.node(*b).width);
                let (ka, kb) = (self.const_addr(*a), self.const_addr(*b));
                let (x, y) = (self.expr(*a), self.expr(*b));
                // Unsigned order against a constant as logic (`below`).
                match (op, ka, kb) {
                    (BinOp::Lt, None, Some(c)) if wa < 64 => return below(&x, wa, c),
                    (BinOp::Le, None, Some(c)) if wa < 64 => return below(&x, wa, c + 1),
                    (BinOp::Lt, Some(c), None) if wb < 64 => return format!("(~{})", below(&y, wb, c + 1)),
                    (BinOp::Le, Some(c), None) if wb < 64 => return format!("(~{})", below(&y, wb, c)),
                    _ => {}
                }
                match op {
                    BinOp::And => format!("({x} & {y})"),
                    BinOp::Or => format!("({x} | {y})"),
                    BinOp::Xor => format!("({x} ^ {y})"),
                    BinOp::Add => format!("({x} + {y})"),
                    BinOp::Sub => format!("({x} - {y})"),
                    BinOp::Mul => format!("({{{wb}'d0, {x}}} * {{{wa}'d0, {y}}})"),
                    BinOp::Eq => format!("({x} == {y})"),
                    BinOp::Ne => format!("({x} != {y})"),
                    BinOp::Lt => format!("({x} < {y})"),
                    BinOp::Le => format!("({x} <= {y})"),
                    BinOp::Lts => format!("($signed({x}) < $signed({y}))"),
                    BinOp::Les => format!("($signed({x}) <= $signed({y}))"),
                }
            }
            Op::Shift(op, a, b) => {
                let (x, y) = (self.expr(*a), self.expr(*b));
                match op {
                    ShiftOp::Shl => format!("({x} << {y})"),
                    ShiftOp::Shr => format!("({x} >> {y})"),
                    ShiftOp::Sra => format!("($signed({x}) >>> {y})"),
                }
            }
            Op::Mux { sel, t, f } => {
                let (s, x, y) = (self.expr(*sel), self.expr(*t), self.expr(*f));
                format!("({s} ? {x} : {y})")
            }
            Op::Cat(parts) => {
                let p: Vec<String> = parts.iter().map(|&p| self.expr(p)).collect();
                format!("{{{}}}", p.join(", "))
            }
            Op::Slice { src, lo } => {
                let x = self.expr(*src);
                if node.width == 1 {
                    format!("{x}[{lo}]")
                } else {
                    format!("{x}[{}:{lo}]", lo + node.width - 1)
                }
            }
            Op::Ext { src, signed } => {
                let w = self.node(*src).width;
                let pad = node.width - w;
                let x = self.expr(*src);
                if *signed {
                    let sign = if w == 1 { x.clone() } else { format!("{x}[{}]", w - 1) };
                    format!("{{{{{pad}{{{sign}}}}}, {x}}}")
                } else {
                    format!("{{{pad}'d0, {x}}}")
                }
            }
            Op::MemRead { mem, port } => {
                let mem = &self.m.mems[*mem as usize];
                let addr = mem.read_ports[*port as usize].addr;
                let a = self.expr(addr);
                let aw = mem.addr_width();
                let zero = Bits::zero(mem.width).verilog();
                if let Some(i) = self.const_addr(addr) {
                    if i < mem.depth as u64 {
                        format!("{}[{i}]", mem.name)
                    } else {
                        zero
                    }
                } else if mem.depth == 1 {
                    format!("(({a} == {aw}'d0) ? {}[0] : {zero})", mem.name)
                } else if mem.depth.is_power_of_two() {
                    format!("{}[{a}]", mem.name)
                } else {
                    format!("({} ? {}[{a}] : {zero})", below(&a, aw, mem.depth as u64), mem.name)
                }
            }
        }
    }

    fn ffs_fn(&mut self, w: u32, ow: u32) -> String {
        let name = format!("_ffs_w{w}");
        self.functions.entry(name.clone()).or_insert_with(|| {
            let bit = if w == 1 { "_fv".to_string() } else { "_fv[_fi]".to_string() };
            format!(
                "    // Index of the lowest set bit (0 when none).\n    function automatic {r}{name}(input {ri}_fv);\n        integer _fi;\n        begin\n            {name} = {ow}'d0;\n            for (_fi = {top}; _fi >= 0; _fi = _fi - 1)\n                if ({bit}) {name} = _fi[{hi}:0];\n        end\n    endfunction\n",
                r = range(ow),
                ri = range(w),
                top = w - 1,
                hi = ow - 1,
            )
        });
        name
    }

    fn popcount_fn(&mut self, w: u32, ow: u32) -> String {
        let name = format!("_popcount_w{w}");
        self.functions.entry(name.clone()).or_insert_with(|| {
            let bit = if w == 1 { "_fv".to_string() } else { "_fv[_fi]".to_string() };
            let ext = if ow == 1 { bit.clone() } else { format!("{{{}'d0, {bit}}}", ow - 1) };
            format!(
                "    // Number of set bits.\n    function automatic {r}{name}(input {ri}_fv);\n        integer _fi;\n        begin\n            {name} = {ow}'d0;\n            for (_fi = 0; _fi < {w}; _fi = _fi + 1)\n                {name} = {name} + {ext};\n        end\n    endfunction\n",
                r = range(ow),
                ri = range(w),
            )
        });
        name
    }

    fn generate(&mut self) -> String {
        let m = self.m;
        let mut decls = String::new();
        let mut assigns = String::new();
        let mut seq = String::new();

        // Temporaries, in node order (operands come first).
        for n in 0..m.nodes.len() {
            if let Some(t) = self.temps[n].clone() {
                let text = self.expr_inline(n as NodeId);
                let _ = writeln!(assigns, "    wire {}{t} = {text};", range(m.nodes[n].width));
            }
        }

        // Signals.
        for s in &m.signals {
            match &s.kind {
                SigKind::Input | SigKind::Output => {}
                SigKind::Reg { .. } => {
                    let _ = writeln!(decls, "    reg {}{};", range(s.width), s.name);
                }
                _ => {
                    let _ = writeln!(decls, "    wire {}{};", range(s.width), s.name);
                }
            }
            if matches!(s.kind, SigKind::Output | SigKind::Wire | SigKind::InstIn { .. }) {
                let d = s.driver.expect("checked: driven");
                let text = self.expr(d);
                let _ = writeln!(assigns, "    assign {} = {text};", s.name);
            }
        }

        // Registers: one always block.
        let regs: Vec<&Signal> = m.signals.iter().filter(|s| s.is_reg()).collect();
        if !regs.is_empty() {
            let _ = writeln!(seq, "    always @(posedge clk) begin\n        if (rst) begin");
            for r in &regs {
                if let SigKind::Reg { reset } = &r.kind {
                    let _ = writeln!(seq, "            {} <= {};", r.name, reset.verilog());
                }
            }
            let _ = writeln!(seq, "        end else begin");
            for r in &regs {
                if let Some(d) = r.driver {
                    let text = self.expr(d);
                    let _ = writeln!(seq, "            {} <= {text};", r.name);
                }
            }
            let _ = writeln!(seq, "        end\n    end");
        }

        // Memories.
        for mem in &m.mems {
            let _ = writeln!(decls, "    reg {}{} [0:{}];", range(mem.width), mem.name, mem.depth - 1);
            let i = format!("_i_{}", mem.name);
            let aw = mem.addr_width();
            let mut writes = String::new();
            for w in &mem.write_ports {
                let (a, d, en) = (self.expr(w.addr), self.expr(w.data), self.expr(w.en));
                if let Some(i) = self.const_addr(w.addr) {
                    // A word of its own (lowered per-word write); past the depth it is dropped.
                    if i < mem.depth as u64 {
                        let _ = writeln!(writes, "{{IND}}if ({en}) {}[{i}] <= {d};", mem.name);
                    }
                    continue;
                }
                let guard = if mem.depth == 1 {
                    format!(" && {a} == {aw}'d0")
                } else if mem.depth.is_power_of_two() {
                    String::new()
                } else {
                    format!(" && {}", below(&a, aw, mem.depth as u64))
                };
                let idx = if mem.depth == 1 { "0".to_string() } else { a.clone() };
                let _ = writeln!(writes, "{{IND}}if ({en}{guard}) {}[{idx}] <= {d};", mem.name);
            }
            match &mem.reset {
                Some(reset) => {
                    let (vars, clear) = reset_loops(&mem.name, mem.depth, &reset.verilog());
                    if !vars.is_empty() {
                        let _ = writeln!(decls, "    integer {};", vars.join(", "));
                    }
                    // The reset comes last and overrides the writes: flip-flops
                    // whose last assignment is the reset map to synchronous-reset
                    // cells (yosys sees `rst ? reset : ...` at their input).
                    let _ = writeln!(
                        seq,
                        "    always @(posedge clk) begin\n{w}        if (rst) begin\n{clear}        end\n    end",
                        w = writes.replace("{IND}", "        ")
                    );
                }
                None => {
                    let _ = writeln!(decls, "    integer {i};");
                    let _ = writeln!(
                        seq,
                        "    initial begin\n        for ({i} = 0; {i} < {d}; {i} = {i} + 1) {n}[{i}] = {z};\n    end",
                        d = mem.depth,
                        n = mem.name,
                        z = Bits::zero(mem.width).verilog()
                    );
                    if !writes.is_empty() {
                        let _ = writeln!(
                            seq,
                            "    always @(posedge clk) begin\n        if (!rst) begin\n{}        end\n    end",
                            writes.replace("{IND}", "            ")
                        );
                    }
                }
            }
        }

        // Instances.
        let mut insts = String::new();
        for inst in &m.instances {
            let sub = &inst.module;
            let mut pins: Vec<String> = Vec::new();
            if sub.uses_clock {
                pins.push("        .clk(clk)".into());
            }
            if sub.uses_reset {
                pins.push("        .rst(rst)".into());
            }
            let (mut ii, mut oi) = (0, 0);
            for &p in &sub.ports {
                let ps = &sub.signals[p as usize];
                let pin = if ps.kind == SigKind::Input {
                    ii += 1;
                    inst.inputs[ii - 1]
                } else {
                    oi += 1;
                    inst.outputs[oi - 1]
                };
                pins.push(format!("        .{}({})", ps.name, m.signals[pin as usize].name));
            }
            let _ = writeln!(insts, "    {} {} (\n{}\n    );", sub.name, inst.name, pins.join(",\n"));
        }

        // Bits nothing reads.
        let mut unused: Vec<String> = Vec::new();
        let named = m.signals.iter().map(|s| (s.name.clone(), self.sig_node[s.name.as_str()]));
        let temps = self.temps.iter().enumerate().filter_map(|(n, t)| t.clone().map(|t| (t, n as NodeId)));
        for (name, node) in named.chain(temps).collect::<Vec<_>>() {
            let bits = &self.read_bits[node as usize];
            let mut b = 0usize;
            while b < bits.len() {
                if bits[b] {
                    b += 1;
                    continue;
                }
                let start = b;
                while b < bits.len() && !bits[b] {
                    b += 1;
                }
                unused.push(if start == 0 && b == bits.len() {
                    name.clone()
                } else if b - start == 1 {
                    format!("{name}[{start}]")
                } else {
                    format!("{name}[{}:{start}]", b - 1)
                });
            }
        }
        for mem in &m.mems {
            if mem.read_ports.is_empty() {
                unused.push(format!("{}[0]", mem.name));
            }
        }
        // Clock and reset kept only for a uniform port list (keep_clock_and_reset).
        let has_regs = m.signals.iter().any(|s| s.is_reg());
        let clocked = has_regs || m.mems.iter().any(|x| !x.write_ports.is_empty()) || m.instances.iter().any(|i| i.module.uses_clock);
        let reset = has_regs
            || m.mems.iter().any(|x| x.reset.is_some() || !x.write_ports.is_empty())
            || m.instances.iter().any(|i| i.module.uses_reset);
        if m.uses_clock && !clocked {
            unused.push("clk".into());
        }
        if m.uses_reset && !reset {
            unused.push("rst".into());
        }

        // Assemble.
        let mut out = String::new();
        let _ = writeln!(out, "// Generated by warpforge from the Rust description of `{}`. Do not edit:", m.name);
        let _ = writeln!(out, "// the generator is the single source of this module, its model and its waves.");
        for line in m.doc.lines() {
            let _ = writeln!(out, "//{}{}", if line.is_empty() { "" } else { " " }, line);
        }
        let _ = writeln!(out, "`default_nettype none");
        let mut ports: Vec<String> = Vec::new();
        if m.uses_clock {
            ports.push("    input wire clk".into());
        }
        if m.uses_reset {
            ports.push("    input wire rst".into());
        }
        for &p in &m.ports {
            let s = &m.signals[p as usize];
            let dir = if s.kind == SigKind::Input { "input" } else { "output" };
            ports.push(format!("    {dir} wire {}{}", range(s.width), s.name));
        }
        if ports.is_empty() {
            let _ = writeln!(out, "module {};", m.name);
        } else {
            let _ = writeln!(out, "module {} (\n{}\n);", m.name, ports.join(",\n"));
        }
        for f in self.functions.values() {
            out.push_str(f);
        }
        out.push_str(&decls);
        out.push_str(&assigns);
        out.push_str(&insts);
        out.push_str(&seq);
        if !unused.is_empty() {
            let _ = writeln!(out, "    // Bits no logic reads (kept so the ports stay as declared).");
            let _ = writeln!(out, "    wire _unused = &{{1'b0, {}, 1'b0}};", unused.join(", "));
        }
        let _ = writeln!(out, "endmodule");
        let _ = writeln!(out, "`default_nettype wire");
        out
    }
}
