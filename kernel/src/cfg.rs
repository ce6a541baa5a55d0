//! Control-flow graph, immediate post-dominators and reconvergence points.
//!
//! Basic blocks start at instruction 0, at every branch target and after
//! every branch or exit. A virtual exit node follows every block that ends
//! in an exit (guarded or not). A branch reconverges at the first
//! instruction of its block's immediate post-dominator (GPGPU-Sim's rule);
//! when that is the virtual exit (the paths only meet by exiting) or the
//! block cannot reach an exit, the reconvergence PC is [`RPC_NONE`], a PC
//! that is never reached.

use crate::inst::{Inst, Op, INST_BYTES};

/// The reconvergence PC of the base SIMT-stack entry and of branches whose
/// paths only meet at exit (the `simt_stack` block's `RPC_NONE`: all ones).
pub const RPC_NONE: u32 = u32::MAX;

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// First instruction index.
    pub start: u32,
    /// One past the last instruction index.
    pub end: u32,
    pub succs: Vec<u32>,
    pub preds: Vec<u32>,
    /// Ends in an exit (guarded or not): an edge to the virtual exit node.
    pub exits: bool,
    /// Immediate post-dominator block; `None` = the virtual exit (or none).
    pub ipdom: Option<u32>,
}

/// The CFG of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Block of each instruction.
    pub block_of: Vec<u32>,
}

impl Cfg {
    /// Build blocks and edges from instructions whose branch targets are
    /// instruction indices.
    pub fn build(insts: &[Inst]) -> Cfg {
        let n = insts.len();
        let mut leader = vec![false; n + 1];
        if n > 0 {
            leader[0] = true;
        }
        for (i, inst) in insts.iter().enumerate() {
            match inst.op {
                Op::Bra { target, .. } => {
                    leader[target as usize] = true;
                    leader[i + 1] = true;
                }
                Op::Exit | Op::Ret => leader[i + 1] = true,
                // A called function's body starts a block (its own region:
                // no edge from the call; control comes back after it).
                Op::Call { target } => leader[target as usize] = true,
                _ => {}
            }
        }
        let mut blocks = Vec::new();
        let mut block_of = vec![0u32; n];
        let mut start = 0;
        for i in 1..=n {
            if i == n || leader[i] {
                for b in &mut block_of[start..i] {
                    *b = blocks.len() as u32;
                }
                blocks.push(Block { start: start as u32, end: i as u32, succs: vec![], preds: vec![], exits: false, ipdom: None });
                start = i;
            }
        }
        for b in 0..blocks.len() {
            let last = &insts[blocks[b].end as usize - 1];
            let mut succs = Vec::new();
            let fall = blocks[b].end as usize;
            match last.op {
                Op::Bra { target, .. } => {
                    succs.push(block_of[target as usize]);
                    if last.guard.is_some() && fall < n {
                        succs.push(block_of[fall]);
                    }
                }
                Op::Exit | Op::Ret => {
                    blocks[b].exits = true;
                    if last.guard.is_some() && fall < n {
                        succs.push(block_of[fall]);
                    }
                }
                _ => {
                    if fall < n {
                        succs.push(block_of[fall]);
                    } else {
                        blocks[b].exits = true;
                    }
                }
            }
            succs.dedup();
            for &s in &succs {
                blocks[s as usize].preds.push(b as u32);
            }
            blocks[b].succs = succs;
        }
        let mut cfg = Cfg { blocks, block_of };
        cfg.compute_ipdom();
        cfg
    }

    /// Immediate post-dominators (Cooper, Harvey and Kennedy's iterative
    /// algorithm on the reverse CFG rooted at the virtual exit).
    fn compute_ipdom(&mut self) {
        let nb = self.blocks.len();
        let exit = nb; // virtual node
                       // Reverse-graph successors of v are v's CFG predecessors; the exit's
                       // are the exiting blocks. Postorder of the reverse graph from exit.
        let rsucc = |v: usize| -> Vec<usize> {
            if v == exit {
                (0..nb).filter(|&b| self.blocks[b].exits).collect()
            } else {
                self.blocks[v].preds.iter().map(|&p| p as usize).collect()
            }
        };
        let mut order = Vec::with_capacity(nb + 1);
        let mut seen = vec![false; nb + 1];
        let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(exit, rsucc(exit), 0)];
        seen[exit] = true;
        while let Some((v, succ, k)) = stack.last_mut() {
            if *k < succ.len() {
                let s = succ[*k];
                *k += 1;
                if !seen[s] {
                    seen[s] = true;
                    let ss = rsucc(s);
                    stack.push((s, ss, 0));
                }
            } else {
                order.push(*v);
                stack.pop();
            }
        }
        // order = postorder; rpo number.
        let mut po = vec![usize::MAX; nb + 1];
        for (i, &v) in order.iter().enumerate() {
            po[v] = i;
        }
        let mut idom = vec![usize::MAX; nb + 1];
        idom[exit] = exit;
        let intersect = |idom: &Vec<usize>, mut a: usize, mut b: usize| -> usize {
            while a != b {
                while po[a] < po[b] {
                    a = idom[a];
                }
                while po[b] < po[a] {
                    b = idom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &v in order.iter().rev() {
                if v == exit {
                    continue;
                }
                // Reverse-graph predecessors of v: its CFG successors (and the
                // exit node if v exits).
                let mut preds: Vec<usize> = self.blocks[v].succs.iter().map(|&s| s as usize).collect();
                if self.blocks[v].exits {
                    preds.push(exit);
                }
                let mut new = usize::MAX;
                for p in preds {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX { p } else { intersect(&idom, p, new) };
                }
                if new != usize::MAX && idom[v] != new {
                    idom[v] = new;
                    changed = true;
                }
            }
        }
        for (b, &d) in self.blocks.iter_mut().zip(&idom) {
            b.ipdom = match d {
                x if x == exit || x == usize::MAX => None,
                x => Some(x as u32),
            };
        }
    }

    /// The block control falls through to from block `b` (the next one in
    /// the code; `None` after the last).
    pub fn fallthrough(&self, b: usize) -> Option<usize> {
        self.block_of.get(self.blocks[b].end as usize).map(|&f| f as usize)
    }

    /// The reconvergence PC of a branch at instruction `i`.
    pub fn reconv_pc(&self, i: usize) -> u32 {
        let b = self.block_of[i] as usize;
        match self.blocks[b].ipdom {
            Some(p) => self.blocks[p as usize].start * INST_BYTES,
            None => RPC_NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::{Guard, Inst, Op};

    /// A tiny CFG language: `n` plain, `b T` unconditional branch, `c T`
    /// guarded branch, `x` exit, `g` guarded exit.
    fn prog(code: &[&str]) -> Vec<Inst> {
        code.iter()
            .map(|s| {
                let mut p = s.split(' ');
                let k = p.next().unwrap();
                let t: u32 = p.next().map(|t| t.parse().unwrap()).unwrap_or(0);
                let guard = Some(Guard { pred: 0, neg: false });
                let mut i = match k {
                    "n" => Inst::new(Op::Membar, "nop", 0, 0),
                    "b" | "c" => Inst::new(Op::Bra { target: t, uni: false, reconv: 0 }, "bra", 0, 0),
                    "x" | "g" => Inst::new(Op::Exit, "ret", 0, 0),
                    _ => unreachable!(),
                };
                if k == "c" || k == "g" {
                    i.guard = guard;
                }
                i
            })
            .collect()
    }

    #[test]
    fn if_else_reconverges_at_join() {
        // 0: @p bra 3; 1: n; 2: bra 4; 3: n; 4: n; 5: exit
        let c = Cfg::build(&prog(&["c 3", "n", "b 4", "n", "n", "x"]));
        assert_eq!(c.blocks.len(), 4);
        assert_eq!(c.reconv_pc(0), 4 * 8);
        assert_eq!(c.blocks[c.block_of[4] as usize].ipdom, None);
    }

    #[test]
    fn if_then_and_loop() {
        // 0: n; 1: @p bra 3; 2: n; 3: n (loop head); 4: @p bra 3; 5: exit
        let c = Cfg::build(&prog(&["n", "c 3", "n", "n", "c 3", "x"]));
        assert_eq!(c.reconv_pc(1), 3 * 8, "if-then joins at its target");
        assert_eq!(c.reconv_pc(4), 5 * 8, "a loop's back edge reconverges at the loop exit");
    }

    #[test]
    fn paths_that_only_meet_at_exit() {
        // 0: @p bra 3; 1: n; 2: exit; 3: n; 4: exit
        let c = Cfg::build(&prog(&["c 3", "n", "x", "n", "x"]));
        assert_eq!(c.reconv_pc(0), RPC_NONE);
    }

    #[test]
    fn guarded_exit_and_nested_branches() {
        // 0: @p ret; 1: @p bra 5; 2: @p bra 4; 3: n; 4: n; 5: n; 6: exit
        let c = Cfg::build(&prog(&["g", "c 5", "c 4", "n", "n", "n", "x"]));
        assert_eq!(c.reconv_pc(1), 5 * 8);
        assert_eq!(c.reconv_pc(2), 4 * 8);
        let b0 = &c.blocks[0];
        assert!(b0.exits);
        assert_eq!(b0.succs, vec![1]);
    }

    #[test]
    fn paths_that_never_exit_are_ignored() {
        // 0: @p bra 2; 1: bra 1 (spins forever); 2: exit
        let c = Cfg::build(&prog(&["c 2", "b 1", "x"]));
        assert_eq!(c.reconv_pc(0), 2 * 8, "the only exiting path decides");
        assert_eq!(c.reconv_pc(1), RPC_NONE, "a block that cannot exit has no post-dominator");
    }

    #[test]
    fn unstructured_loop_exit_from_middle() {
        // 0: n; 1: @p bra 4 (break); 2: n; 3: @p bra 0 (continue); 4: exit
        let c = Cfg::build(&prog(&["n", "c 4", "n", "c 0", "x"]));
        assert_eq!(c.reconv_pc(1), 4 * 8);
        assert_eq!(c.reconv_pc(3), 4 * 8);
    }
}
