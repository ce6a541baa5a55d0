//! Random netlists for testing the IR, the Verilog emitter and the simulator
//! against each other, against Verilator/iverilog and against the bit-serial
//! evaluator in [`crate::bitref`]: every operator, narrow and wide widths
//! (word boundaries included), registers, a RAM and a register array; with
//! [`FuzzShape::constants`], constants among the operands, so the simulators'
//! optimisation passes (folding, known bits, simplification) get exercised.

use hw::ir::{cat, lit, lit_bits, mux, Bits, HwError, Module, ModuleBuilder, Sig};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Shape of a random netlist.
#[derive(Clone, Copy, Debug)]
pub struct FuzzShape {
    pub inputs: usize,
    pub ops: usize,
    pub regs: usize,
    pub outputs: usize,
    /// Include a RAM and a register array.
    pub memories: bool,
    /// Largest width drawn (widths cluster near 1, 8, 63..65, 127..129).
    pub max_width: u32,
    /// Put constants (zeros, all-ones, random values) among the operands.
    pub constants: bool,
}

impl Default for FuzzShape {
    fn default() -> Self {
        FuzzShape { inputs: 6, ops: 120, regs: 6, outputs: 10, memories: true, max_width: 130, constants: false }
    }
}

fn width(rng: &mut ChaCha8Rng, max: u32) -> u32 {
    let w = match rng.random_range(0..8) {
        0 => 1,
        1 => rng.random_range(2..=8),
        2 => rng.random_range(9..=40),
        3 => rng.random_range(62..=66),
        4 => rng.random_range(126..=130),
        _ => rng.random_range(1..=max),
    };
    w.clamp(1, max)
}

/// A random module named `name`, deterministic in `seed`.
pub fn random_module(name: &str, seed: u64, shape: FuzzShape) -> Result<Arc<Module>, HwError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let m = ModuleBuilder::new(name);
    let mut pool: Vec<Sig> = (0..shape.inputs).map(|i| m.input(&format!("in{i}"), width(&mut rng, shape.max_width))).collect();
    let regs: Vec<Sig> = (0..shape.regs)
        .map(|i| {
            let w = width(&mut rng, shape.max_width);
            let reset = if w >= 64 { rng.random::<u64>() } else { rng.random::<u64>() & ((1u64 << w) - 1) };
            m.reg(&format!("r{i}"), w, reset)
        })
        .collect();
    pool.extend(regs.iter().copied());
    if shape.constants {
        for _ in 0..6 {
            let w = width(&mut rng, shape.max_width);
            let words: Vec<u64> = match rng.random_range(0..3) {
                0 => vec![0; w.div_ceil(64) as usize],
                1 => vec![u64::MAX; w.div_ceil(64) as usize],
                _ => (0..w.div_ceil(64)).map(|_| rng.random::<u64>()).collect(),
            };
            let mut words = words;
            let top = w.div_ceil(64) as usize - 1;
            if !w.is_multiple_of(64) {
                words[top] &= (1u64 << (w % 64)) - 1;
            }
            pool.push(lit_bits(&Bits::from_words(&words, w).expect("masked")));
        }
    }
    let (ram, arr) = if shape.memories {
        (Some(m.mem("ram", 5, width(&mut rng, shape.max_width))), Some(m.reg_array("arr", 8, width(&mut rng, shape.max_width).max(2), 3)))
    } else {
        (None, None)
    };
    let pick = |rng: &mut ChaCha8Rng, pool: &Vec<Sig>| pool[rng.random_range(0..pool.len())];
    for k in 0..shape.ops {
        let a = pick(&mut rng, &pool);
        let b = pick(&mut rng, &pool).resize(a.width());
        let v = match rng.random_range(0..30) {
            0 => a & b,
            1 => a | b,
            2 => a ^ b,
            3 => !a,
            4 => a + b,
            5 => a - b,
            6 => {
                let x = a.resize(a.width().min(70));
                let y = pick(&mut rng, &pool);
                let y = y.resize(y.width().min(70));
                x * y
            }
            7 => a.eq(b),
            8 => a.ne(b),
            9 => a.lt(b),
            10 => a.le(b),
            11 => a.lt_s(b),
            12 => a.ge_s(b),
            13 => a.shl(pick(&mut rng, &pool).resize(rng.random_range(1..=9))),
            14 => a.shr(pick(&mut rng, &pool).resize(rng.random_range(1..=9))),
            15 => a.sra(pick(&mut rng, &pool).resize(rng.random_range(1..=9))),
            16 => mux(pick(&mut rng, &pool).bit(0), a, b),
            17 => cat(&[a, pick(&mut rng, &pool)]).resize(a.width() + 7),
            18 => {
                let lo = rng.random_range(0..a.width());
                let w = rng.random_range(1..=a.width() - lo);
                a.slice(lo, w)
            }
            19 => a.sext(a.width() + rng.random_range(1..70)),
            20 => a.zext(a.width() + rng.random_range(1..70)),
            21 => a.any(),
            22 => a.all(),
            23 => a.parity(),
            24 => a.ffs(),
            25 => a.count_ones(),
            26 => a.bit_at(pick(&mut rng, &pool).resize(8)),
            27 => a << rng.random_range(0..a.width() + 2),
            28 => match (&ram, &arr) {
                (Some(r), Some(t)) => {
                    if rng.random_bool(0.5) {
                        r.read(b.resize(r.addr_width()))
                    } else {
                        t.read(b.resize(t.addr_width()))
                    }
                }
                _ => a >> 1,
            },
            _ => (a + lit(k as u64 % 2, 1).resize(a.width())) ^ b,
        };
        pool.push(v);
    }
    // Registers take random pool values; memories get two write ports each.
    for r in &regs {
        let v = pick(&mut rng, &pool).resize(r.width());
        if rng.random_bool(0.5) {
            r.set(v);
        } else {
            r.set_if(pick(&mut rng, &pool).bit(0), v);
        }
    }
    if let (Some(ram), Some(arr)) = (ram, arr) {
        for mem in [ram, arr] {
            for _ in 0..2 {
                let addr = pick(&mut rng, &pool).resize(mem.addr_width());
                let data = pick(&mut rng, &pool).resize(mem.width());
                let en = pick(&mut rng, &pool).bit(0);
                mem.write(addr, data, en);
            }
        }
        let q = ram.read_sync("ram_q", pick(&mut rng, &pool).resize(ram.addr_width()), pick(&mut rng, &pool).bit(0));
        pool.push(q);
    }
    if shape.outputs == usize::MAX {
        // Debugging aid: every value is an output, in creation order.
        for (o, v) in pool.iter().enumerate() {
            m.output(&format!("out{o}"), v.width()).set(*v);
        }
    } else {
        for o in 0..shape.outputs {
            let v = pool[pool.len() - 1 - (o * 7) % pool.len()];
            m.output(&format!("out{o}"), v.width()).set(v);
        }
    }
    m.finish()
}

/// A random module shaped like the blocks the Verilog lowering rewrites
/// (`hw::ir::lower`): register arrays (power-of-two depth and not) whose
/// write ports rebuild a row from the row at their own address (set / clear
/// masks from other ports' decoded addresses, self-comparisons of the port's
/// address, reads of another array at that address), some ports whose data
/// does not qualify (an adder on the row), and counters updated by sums of
/// one- and two-bit events. Deterministic in `seed`.
pub fn random_row_module(name: &str, seed: u64) -> Result<Arc<Module>, HwError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let m = ModuleBuilder::new(name);
    let depth = [3u32, 4, 5, 8][rng.random_range(0..4)];
    let width = rng.random_range(1..=12);
    let aw = hw::params::clog2(depth as u64);
    let ports = rng.random_range(1..=4);
    let addrs: Vec<Sig> = (0..ports).map(|k| m.input(&format!("a{k}"), aw)).collect();
    let ens: Vec<Sig> = (0..ports).map(|k| m.input(&format!("e{k}"), 1)).collect();
    let vals: Vec<Sig> = (0..ports).map(|k| m.input(&format!("v{k}"), width)).collect();
    let sel = m.input("sel", 1);
    let arrays: Vec<_> = (0..2).map(|k| m.reg_array(&format!("arr{k}"), depth, width, rng.random_range(0..2))).collect();
    // The same row update for any address x, as the scoreboard writes it.
    let next_row = |arr: hw::ir::MemHandle, other: hw::ir::MemHandle, x: Sig, rng: &mut ChaCha8Rng| -> Sig {
        let mut set = lit(0, width);
        let mut clr = lit(0, width);
        for k in 0..ports {
            let here = ens[k] & addrs[k].eq(x);
            if rng.random_bool(0.5) {
                set = set | mux(here, vals[k], lit(0, width));
            } else {
                clr = clr | mux(here & sel, vals[k], lit(0, width));
            }
        }
        let row = if rng.random_bool(0.3) { mux(sel, other.read(x), arr.read(x)) } else { arr.read(x) };
        (row & !clr) | set
    };
    for (i, &arr) in arrays.iter().enumerate() {
        let other = arrays[1 - i];
        let shape = rng.random::<u64>();
        for k in 0..ports {
            let mut r = ChaCha8Rng::seed_from_u64(shape);
            let data = match rng.random_range(0..6) {
                0 => arr.read(addrs[k]) + vals[k],
                1 => vals[k],
                // Copied per word around an adder that stays shared.
                2 => next_row(arr, other, addrs[k], &mut r) ^ (arr.read(addrs[k]) + vals[k]),
                _ => next_row(arr, other, addrs[k], &mut r),
            };
            let extra = if rng.random_bool(0.2) { sel } else { lit(0, 1) };
            arr.write(addrs[k], data, ens[k] | extra);
        }
        for (o, &a) in addrs.iter().enumerate() {
            m.output(&format!("q{i}_{o}"), width).set(arr.read(a));
        }
        for w in 0..depth {
            m.output(&format!("w{i}_{w}"), width).set(arr.at(w));
        }
    }
    // Counters: a wide value plus and minus single events.
    let events: Vec<Sig> = (0..5).map(|k| m.input(&format!("ev{k}"), if k == 4 { 2 } else { 1 })).collect();
    for c in 0..2 {
        let cw = rng.random_range(4..=12);
        let cnt = m.reg(&format!("cnt{c}"), cw, rng.random_range(0..16));
        let mut next = cnt;
        for e in &events {
            if rng.random_bool(0.8) {
                next = if rng.random_bool(0.5) { next + e.zext(cw) } else { next - e.zext(cw) };
            }
        }
        if rng.random_bool(0.5) {
            next = next + lit(rng.random_range(0..4), cw);
        }
        cnt.set(next);
        m.output(&format!("cnt{c}_q"), cw).set(cnt);
    }
    m.finish()
}
