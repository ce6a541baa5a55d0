//! Trace selection (section 4.1, Algorithms 1 and 2): seeds that are likely
//! non-divergent — control-equivalent to the entry, loop heads, blocks with
//! synchronisation, blocks control-equivalent to those — in breadth-first
//! order, each grown forward only along its most probable edge while that
//! edge's probability exceeds `MIN_PROB`, never across a back edge and
//! never into a loop head or a block already in a trace.

use crate::cfg::Cfg;

/// Dominator sets as bit rows: `dom[b]` has bit `a` when `a` dominates `b`.
pub struct Dom {
    rows: Vec<Vec<u64>>,
}

impl Dom {
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.rows[b][a / 64] >> (a % 64) & 1 != 0
    }

    /// Iterative data-flow from the entry block 0 (a block not reached
    /// from it is dominated by nothing but itself).
    fn of(cfg: &Cfg) -> Dom {
        let n = cfg.blocks.len();
        let words = n.div_ceil(64).max(1);
        let mut rows = vec![vec![!0u64; words]; n];
        if n > 0 {
            rows[0] = vec![0u64; words];
            rows[0][0] = 1;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let ps = &cfg.blocks[b].preds;
                let mut new = if ps.is_empty() { vec![0u64; words] } else { vec![!0u64; words] };
                for &p in ps {
                    for (w, x) in new.iter_mut().zip(&rows[p as usize]) {
                        *w &= x;
                    }
                }
                new[b / 64] |= 1 << (b % 64);
                if new != rows[b] {
                    rows[b] = new;
                    changed = true;
                }
            }
        }
        Dom { rows }
    }
}

/// The CFG facts trace selection and scheduling use.
pub struct Shape {
    pub dom: Dom,
    /// Each block's immediate post-dominator, as the CFG computed it for
    /// reconvergence (`None`: the virtual exit, or no exit reachable).
    ipdom: Vec<Option<u32>>,
    pub loop_head: Vec<bool>,
    /// Breadth-first order from the entry (blocks reached from it).
    pub bfs: Vec<usize>,
}

impl Shape {
    pub fn of(cfg: &Cfg) -> Shape {
        let n = cfg.blocks.len();
        let dom = Dom::of(cfg);
        let mut loop_head = vec![false; n];
        for (b, blk) in cfg.blocks.iter().enumerate() {
            for &s in &blk.succs {
                if dom.dominates(s as usize, b) {
                    loop_head[s as usize] = true;
                }
            }
        }
        let mut bfs = vec![0usize];
        let mut seen = vec![false; n];
        if n > 0 {
            seen[0] = true;
        }
        let mut i = 0;
        while i < bfs.len() {
            for &s in &cfg.blocks[bfs[i]].succs {
                if !std::mem::replace(&mut seen[s as usize], true) {
                    bfs.push(s as usize);
                }
            }
            i += 1;
        }
        Shape { dom, ipdom: cfg.blocks.iter().map(|b| b.ipdom).collect(), loop_head, bfs }
    }

    /// `a` dominates `b` and `b` post-dominates `a`.
    pub fn control_equivalent(&self, a: usize, b: usize) -> bool {
        self.dom.dominates(a, b) && self.post_dominates(b, a)
    }

    /// `a` is `b` or on `b`'s chain of immediate post-dominators.
    fn post_dominates(&self, a: usize, mut b: usize) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.ipdom[b] {
                Some(p) => b = p as usize,
                None => return false,
            }
        }
    }

    /// An edge to a block that dominates its source closes a loop.
    pub fn back_edge(&self, from: usize, to: usize) -> bool {
        self.dom.dominates(to, from)
    }
}

/// Why a block seeds a trace (lower sorts first), or `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SeedClass {
    EntryEquivalent,
    LoopHead,
    Synchronises,
    SyncEquivalent,
    Other,
}

/// Seeds in order: by class, then breadth-first height; blocks not reached
/// from the entry last.
pub fn seeds(cfg: &Cfg, shape: &Shape, syncs: &[bool]) -> Vec<(usize, SeedClass)> {
    let n = cfg.blocks.len();
    let sync_blocks: Vec<usize> = (0..n).filter(|&b| syncs[b]).collect();
    let class = |b: usize| {
        if shape.control_equivalent(0, b) {
            SeedClass::EntryEquivalent
        } else if shape.loop_head[b] {
            SeedClass::LoopHead
        } else if syncs[b] {
            SeedClass::Synchronises
        } else if sync_blocks.iter().any(|&s| shape.control_equivalent(s, b) || shape.control_equivalent(b, s)) {
            SeedClass::SyncEquivalent
        } else {
            SeedClass::Other
        }
    };
    let mut order: Vec<usize> = shape.bfs.clone();
    let mut reached = vec![false; n];
    for &b in &order {
        reached[b] = true;
    }
    order.extend((0..n).filter(|&b| !reached[b]));
    let mut out: Vec<(usize, SeedClass)> = order.into_iter().map(|b| (b, class(b))).collect();
    out.sort_by_key(|&(_, c)| c);
    out
}

/// Grow traces (Algorithm 1): `prob(from, to)` is the edge's probability
/// (0 when the training run never left `from` that way).
pub fn traces(cfg: &Cfg, shape: &Shape, seeds: &[(usize, SeedClass)], prob: &dyn Fn(usize, usize) -> f64, min_prob: f64) -> Vec<Vec<usize>> {
    let mut visited = vec![false; cfg.blocks.len()];
    let mut out = Vec::new();
    for &(seed, _) in seeds {
        if std::mem::replace(&mut visited[seed], true) {
            continue;
        }
        let mut trace = vec![seed];
        let mut cur = seed;
        // Algorithm 2: the most probable edge, if above MIN_PROB, to a
        // block not yet in a trace, not closing a loop, not a loop head.
        while let Some(&s) = cfg.blocks[cur].succs.iter().max_by(|&&a, &&b| prob(cur, a as usize).total_cmp(&prob(cur, b as usize))) {
            let s = s as usize;
            if prob(cur, s) <= min_prob || visited[s] || shape.back_edge(cur, s) || shape.loop_head[s] {
                break;
            }
            visited[s] = true;
            trace.push(s);
            cur = s;
        }
        out.push(trace);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::{Guard, Inst, Op};

    /// Seed 002's Figure 1, from its prose: if-statements (A,B,C), (D,E,F)
    /// — also the loop, F's back edge to D —, (J,K,L) and (G,H,I); A, C, D,
    /// J, F, G end in conditional branches, B, E, K, H in unconditional
    /// ones. One block per instruction, laid out A B C D E F G H I J K L.
    fn figure1() -> Cfg {
        let (a, b, c, d, e, f, g, h, i, j, k, l) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        let _ = (a, b, e, h, k);
        let cond = |t: u32| {
            let mut x = Inst::new(Op::Bra { target: t, uni: false, reconv: 0 }, "bra", 0, 0);
            x.guard = Some(Guard { pred: 0, neg: false });
            x
        };
        let jump = |t: u32| Inst::new(Op::Bra { target: t, uni: false, reconv: 0 }, "bra", 0, 0);
        let insts = vec![
            cond(c),   // A: -> C, else B
            jump(c),   // B
            cond(j),   // C: -> J, else D
            cond(f),   // D: -> F, else E
            jump(f),   // E
            cond(d),   // F: -> D (back edge), else G
            cond(i),   // G: -> I, else H
            jump(i),   // H
            Inst::new(Op::Exit, "ret", 0, 0), // I
            cond(l),   // J: -> L, else K
            jump(l),   // K
            jump(g),   // L
        ];
        Cfg::build(&insts)
    }

    /// Probabilities of the taken edge of each conditional block.
    fn prob_with(c_to_j: f64) -> impl Fn(usize, usize) -> f64 {
        move |from, to| {
            let (taken_target, p) = match from {
                0 => (2, 0.10),
                2 => (9, c_to_j),
                3 => (5, 0.20),
                5 => (3, 0.90),
                6 => (8, 0.80),
                9 => (11, 0.50),
                _ => return 1.0,
            };
            if to == taken_target {
                p
            } else {
                1.0 - p
            }
        }
    }

    fn names(ts: &[Vec<usize>]) -> Vec<String> {
        ts.iter().map(|t| t.iter().map(|&b| "ABCDEFGHIJKL".as_bytes()[b] as char).collect()).collect()
    }

    #[test]
    fn figure1_control_equivalence_and_loop() {
        let cfg = figure1();
        let s = Shape::of(&cfg);
        for x in [2, 6, 8] {
            assert!(s.control_equivalent(0, x), "A ~ {}", "ABCDEFGHIJKL".as_bytes()[x] as char);
        }
        assert!(s.control_equivalent(3, 5), "D ~ F");
        assert!(s.control_equivalent(9, 11), "J ~ L");
        assert!(!s.control_equivalent(0, 1) && !s.control_equivalent(0, 3), "B and D depend on branches");
        assert_eq!((0..12).filter(|&b| s.loop_head[b]).collect::<Vec<_>>(), vec![3], "D is the only loop head");
        assert!(s.back_edge(5, 3));
    }

    #[test]
    fn figure1_traces() {
        let cfg = figure1();
        let s = Shape::of(&cfg);
        let seeds = seeds(&cfg, &s, &[false; 12]);
        let first: Vec<usize> = seeds.iter().take(5).map(|x| x.0).collect();
        assert_eq!(first, vec![0, 2, 6, 8, 3], "A, C, G, I (entry-equivalent), then the loop head D");
        let t = names(&traces(&cfg, &s, &seeds, &prob_with(0.05), MIN));
        for want in ["ABC", "GI", "DEF", "J"] {
            assert!(t.contains(&want.to_string()), "trace {want} in {t:?}");
        }
        // C's branch reversed: the first trace continues into J.
        let t = names(&traces(&cfg, &s, &seeds, &prob_with(0.95), MIN));
        for want in ["ABCJ", "DEF", "GI"] {
            assert!(t.contains(&want.to_string()), "trace {want} in {t:?}");
        }
    }

    const MIN: f64 = crate::tsched::MIN_PROB;
}
