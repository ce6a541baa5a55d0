//! What the block test files share: parameters by name, elaboration (cached),
//! driver traffic, netlist-vs-model comparison, arbitrary stimulus
//! strategies, the Verilator run at the paper's parameters, and a wrapper that
//! corrupts one output (to show that a property can fail).

#![allow(dead_code)]

use hw::ir::Module;
use hw::params::{BlockParams, Params};
use proptest::prelude::*;
use sim::{Component, NetlistSim, PortId, PortSpec};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use verif::cosim::{cosim, CosimReport, Simulator};
use verif::run::{first_mismatch, run};
use verif::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};

/// Parameter overrides by name (the registry's names, as on the command line).
pub type Ov<'a> = &'a [(&'a str, u64)];

/// The resolved parameters of `block` with overrides `ov`.
pub fn params(block: &str, ov: Ov) -> Params {
    let info = hw::registry::find(block).unwrap();
    info.params(&ov.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect::<Vec<_>>()).unwrap()
}

/// The typed parameters of `block` with overrides `ov`.
pub fn typed<P: BlockParams>(block: &str, ov: Ov) -> P {
    P::from_params(&params(block, ov)).unwrap()
}

/// The hardware of `block` at `ov`.
pub fn build(block: &str, ov: Ov) -> Arc<Module> {
    hw::registry::find(block).unwrap().elaborate(&params(block, ov)).unwrap()
}

/// The hardware of `block` at `ov`, built once per test binary.
pub fn top_of(block: &str, ov: Ov) -> Arc<Module> {
    static TOPS: OnceLock<Mutex<HashMap<String, Arc<Module>>>> = OnceLock::new();
    let key = format!("{block}{ov:?}");
    let mut tops = TOPS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    tops.entry(key).or_insert_with(|| build(block, ov)).clone()
}

/// The reference model of `block` at `ov` (from the `models` registry).
pub fn model(block: &str, ov: Ov) -> Box<dyn Component> {
    models::model(block, &params(block, ov)).unwrap()
}

/// Every engine a directed test runs on: the netlist simulation of the
/// generated hardware and the reference model.
pub fn engines(block: &str, ov: Ov) -> Vec<Box<dyn Component>> {
    vec![Box::new(NetlistSim::new(&top_of(block, ov))), model(block, ov)]
}

/// `cycles` of the block's driver traffic at `ov`.
pub fn driven(block: &str, ov: Ov, seed: u64, cycles: u64) -> Stimulus {
    let v = verif::registry::find(block).unwrap();
    let mut d = (v.driver)(&params(block, ov), seed).unwrap();
    Stimulus::record(d.as_mut(), cycles)
}

pub fn record(d: &mut dyn Driver, cycles: u64) -> Stimulus {
    Stimulus::record(d, cycles)
}

/// The netlist simulation of `top` and `model` have the same ports and give
/// the same outputs on every cycle of `stim`.
pub fn same(top: &Arc<Module>, model: &mut dyn Component, stim: &Stimulus) -> Result<(), String> {
    let mut hw = NetlistSim::new(top);
    if model.ports() != hw.ports() {
        return Err(format!("{}: the reference model's ports differ from the hardware's", top.name));
    }
    let a = run(&mut hw, stim)?;
    let b = run(model, stim)?;
    match first_mismatch(&b, &a) {
        None => Ok(()),
        Some(m) => Err(format!("{}: model vs netlist: {m}", top.name)),
    }
}

/// [`same`] for the hardware of `block` at `ov` and its registered model.
pub fn matches_model(block: &str, ov: Ov, stim: &Stimulus) -> Result<(), String> {
    same(&top_of(block, ov), model(block, ov).as_mut(), stim)
}

pub fn work(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("blocks").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 100,000 driver cycles of `block` at the paper's parameters (the registry's
/// module, as `warpforge verilog` emits it) co-simulated under Verilator;
/// returns the module, the stimulus and the report.
pub fn verilator_100k(block: &str, seed: u64) -> (Arc<Module>, Stimulus, CosimReport) {
    verilator(block, &[], seed, 100_000)
}

/// `cycles` driver cycles of `block` at `ov` co-simulated under Verilator
/// (a harness per module, so parameter sets build apart).
pub fn verilator(block: &str, ov: Ov, seed: u64, cycles: u64) -> (Arc<Module>, Stimulus, CosimReport) {
    let top = top_of(block, ov);
    let stim = driven(block, ov, seed, cycles);
    let t = std::time::Instant::now();
    let dir = if ov.is_empty() { format!("{block}-verilator") } else { format!("{}-verilator", top.name) };
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work(&dir)).unwrap();
    println!(
        "{}: {} cycles, {} outputs, harness {}, {:.1} s",
        top.name,
        r.cycles,
        r.outputs,
        if r.built { "built" } else { "cached" },
        t.elapsed().as_secs_f64()
    );
    if let Some(m) = &r.mismatch {
        panic!("{m}");
    }
    assert_eq!(r.cycles as u64, cycles);
    (top, stim, r)
}

/// A few thousand driver cycles of `block` at `ov` under iverilog.
pub fn iverilog(block: &str, ov: Ov, seed: u64, cycles: u64) {
    let top = top_of(block, ov);
    let stim = driven(block, ov, seed, cycles);
    let r = cosim(&top, None, &stim, Simulator::Iverilog, &work(&format!("{block}-iverilog"))).unwrap();
    assert!(r.mismatch.is_none(), "{block}: {}", r.mismatch.unwrap());
}

// ---------------------------------------------------------------------------
// Arbitrary stimulus (proptest: every input random, so shrinking finds
// minimal failing sequences). Each family keeps its own value distribution.

fn frames_to_stimulus(layout: Arc<InputLayout>, cycles: &[Vec<Vec<u64>>], rst: impl Fn(usize, u64) -> u64) -> Stimulus {
    let mut s = Stimulus::new(layout.clone());
    let mut f = Frame::new(layout.clone());
    for (c, values) in cycles.iter().enumerate() {
        for (k, v) in values.iter().enumerate() {
            if layout.ports()[k].is_reset() {
                f.set(Slot(k), rst(c, v[0]));
            } else {
                f.set_wide(Slot(k), v);
            }
        }
        s.push(&f);
    }
    s
}

/// P-mode blocks: 1-bit inputs biased to 0, wider ones uniform; `rst` only on
/// every `rst_every`-th cycle, and then half of the time.
pub fn arbitrary(ports: &[PortSpec], max_cycles: usize, rst_every: usize) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(ports);
    let frame = layout
        .ports()
        .iter()
        .map(|q| match q.width {
            1 => prop_oneof![3 => Just(vec![0u64]), 2 => Just(vec![1u64])].boxed(),
            w if w < 64 => (0u64..(1u64 << w)).prop_map(|v| vec![v]).boxed(),
            w => prop::collection::vec(any::<u64>(), w.div_ceil(64) as usize).boxed(),
        })
        .collect::<Vec<_>>();
    prop::collection::vec(frame, 1..max_cycles)
        .prop_map(move |cycles| frames_to_stimulus(layout.clone(), &cycles, |c, v| (v == 1 && c % rst_every == rst_every - 1) as u64))
}

/// Replay blocks: 1-bit inputs set 40% of the time, wider ones any value of
/// their width (at most 64 bits); `rst` now and then.
pub fn arbitrary_any(ports: &[PortSpec], max_cycles: usize) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(ports);
    let frame = layout
        .ports()
        .iter()
        .map(|q| {
            let w = q.width;
            if w == 1 {
                prop_oneof![3 => Just(vec![0u64]), 2 => Just(vec![1u64])].boxed()
            } else {
                any::<u64>().prop_map(move |v| vec![if w >= 64 { v } else { v & ((1u64 << w) - 1) }]).boxed()
            }
        })
        .collect::<Vec<_>>();
    prop::collection::vec(frame, 1..max_cycles)
        .prop_map(move |cycles| frames_to_stimulus(layout.clone(), &cycles, |c, v| (v & 1 == 1 && c % 11 == 10) as u64))
}

fn mask_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// A port value: mostly small numbers (so indices hit, dimensions stay small
/// and walks short), sometimes any value of the width.
pub fn small_word(width: u32) -> BoxedStrategy<Vec<u64>> {
    let m = mask_of(width);
    if width == 1 {
        prop_oneof![3 => Just(vec![0u64]), 2 => Just(vec![1u64])].boxed()
    } else if width <= 64 {
        prop_oneof![3 => (0u64..4).prop_map(move |v| vec![v & m]), 2 => any::<u64>().prop_map(move |v| vec![v & m])].boxed()
    } else {
        let n = width.div_ceil(64) as usize;
        let top = mask_of(width - 64 * (n as u32 - 1));
        prop::collection::vec(any::<u64>(), n)
            .prop_map(move |mut w| {
                *w.last_mut().unwrap() &= top;
                w
            })
            .boxed()
    }
}

/// DAC blocks: every input from [`small_word`] unless `special` gives a
/// strategy for the port; `rst` one cycle in sixteen.
pub fn arbitrary_small(
    ports: &[PortSpec],
    max_cycles: usize,
    special: impl Fn(&PortSpec) -> Option<BoxedStrategy<Vec<u64>>>,
) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(ports);
    let frame: Vec<BoxedStrategy<Vec<u64>>> = layout
        .ports()
        .iter()
        .map(|q| {
            if q.is_reset() {
                prop_oneof![15 => Just(vec![0u64]), 1 => Just(vec![1u64])].boxed()
            } else {
                special(q).unwrap_or_else(|| small_word(q.width))
            }
        })
        .collect();
    prop::collection::vec(frame, 1..max_cycles).prop_map(move |cycles| frames_to_stimulus(layout.clone(), &cycles, |_, v| v))
}

/// The input ports of the hardware of `block` at `ov`, in component order.
pub fn ports_of(block: &str, ov: Ov) -> Vec<PortSpec> {
    NetlistSim::new(&top_of(block, ov)).ports().to_vec()
}

// ---------------------------------------------------------------------------
// Mutation: a property must reject an engine whose output is corrupted once,
// or it could not catch a wrong netlist either.

/// Decides, per cycle, the corrupted value of the target output (or `None`
/// when this cycle does not count).
pub type Pick = Box<dyn Fn(&dyn Component) -> Option<Vec<u64>>>;

/// Wraps a component; on the `nth` cycle where `pick` returns a value, that
/// value replaces output `port`.
pub struct Corrupt {
    inner: Box<dyn Component>,
    port: PortId,
    nth: u64,
    seen: u64,
    pick: Pick,
    buf: Option<Vec<u64>>,
}

impl Corrupt {
    pub fn new(inner: Box<dyn Component>, port: PortId, nth: u64, pick: impl Fn(&dyn Component) -> Option<Vec<u64>> + 'static) -> Self {
        Corrupt { inner, port, nth, seen: 0, pick: Box::new(pick), buf: None }
    }
}

impl Component for Corrupt {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn ports(&self) -> &[PortSpec] {
        self.inner.ports()
    }
    fn set(&mut self, port: PortId, value: &[u64]) {
        self.inner.set(port, value)
    }
    fn get(&self, port: PortId) -> &[u64] {
        match &self.buf {
            Some(b) if port == self.port => b,
            _ => self.inner.get(port),
        }
    }
    fn eval(&mut self) {
        self.inner.eval();
        self.buf = None;
        if let Some(v) = (self.pick)(self.inner.as_ref()) {
            self.seen += 1;
            if self.seen == self.nth {
                self.buf = Some(v);
            }
        }
    }
    fn tick(&mut self) {
        self.inner.tick()
    }
}

// ---------------------------------------------------------------------------
// DAC input values.

/// An affine tuple with offsets from the interesting set (zero, unit and
/// power-of-two strides of every granularity, negative, huge, odd) and every
/// kind and operation.
pub fn tuple_value() -> BoxedStrategy<Vec<u64>> {
    use models::dac::affine::Aff;
    use models::dac::TupleCmd;
    let off = prop_oneof![
        4 => Just(0u32),
        1 => Just(1u32),
        1 => Just(2u32),
        2 => Just(4u32),
        1 => Just(8u32),
        1 => Just(12u32),
        1 => Just(128u32),
        1 => Just(0xffff_fffcu32),
        1 => Just(0x8000_0000u32),
        1 => any::<u32>(),
    ];
    let base = prop_oneof![any::<u32>(), 0u32..512, 0xffff_ff00u32..=u32::MAX];
    let ctas = prop_oneof![2 => Just(TupleCmd::ALL_CTAS), 1 => any::<u16>()];
    (base, prop::array::uniform6(off), any::<u32>(), 0u64..4, 0u64..16, ctas)
        .prop_map(|(base, off, rhs, kind, op, ctas)| {
            let rhs = if rhs & 1 == 0 { base.wrapping_add(off[0].wrapping_mul(rhs >> 27)) } else { rhs };
            TupleCmd { aff: Aff::new(base, off), rhs, kind, op, ctas }.pack().to_vec()
        })
        .boxed()
}

/// The expansion units' active-thread tests: two CTAs of 128 threads in 8
/// warp slots (the second at slots 4..8).
pub const MASKED_UNIT: Ov = &[("warps", 8), ("ctas", 2)];

pub fn two_ctas_of_128() -> models::dac::CtaConfig {
    models::dac::CtaConfig { dims: [128, 1, 1], valid: vec![true; 2], bid: vec![[0, 0, 0], [1, 0, 0]], warp0: vec![0, 4] }
}

/// Per-warp thread masks: all, none, half or any, per warp.
pub fn cond_value(warps: u32) -> BoxedStrategy<Vec<u64>> {
    let m = prop_oneof![Just(u32::MAX), Just(0u32), Just(0xffffu32), any::<u32>()];
    prop::collection::vec(m, warps as usize).prop_map(|ms| models::dac::warp_words(&ms)).boxed()
}

// ---------------------------------------------------------------------------
// Test sets several blocks share word for word.

/// The co-simulations of a block: `verilator_cosim_100k` (100,000 driver
/// cycles at the paper's parameters under Verilator; with `and_model`, the
/// same stimulus through the netlist and the reference model too) and
/// `iverilog_cosim_second_opinion` (3,000 driver cycles at `small`).
macro_rules! cosim_tests {
    ($block:literal, seed $seed:literal, small $small:expr) => {
        #[test]
        fn verilator_cosim_100k() {
            crate::common::verilator_100k($block, $seed);
        }

        #[test]
        fn iverilog_cosim_second_opinion() {
            crate::common::iverilog($block, $small, 11, 3000);
        }
    };
    ($block:literal, seed $seed:literal, small $small:expr, and_model) => {
        #[test]
        fn verilator_cosim_100k() {
            let (_, stim, _) = crate::common::verilator_100k($block, $seed);
            crate::common::matches_model($block, &[], &stim).unwrap();
        }

        #[test]
        fn iverilog_cosim_second_opinion() {
            crate::common::iverilog($block, $small, 11, 3000);
        }
    };
}

/// Netlist == reference model on arbitrary inputs (proptest, 40 cases of up
/// to 60 cycles, `rst` on every ninth cycle at most) at a small and a tiny
/// parameter set: `matches_reference_on_arbitrary_inputs_{small,tiny}`.
macro_rules! arbitrary_tests {
    ($block:literal, small $small:expr, tiny $tiny:expr) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig { cases: 40, .. proptest::prelude::ProptestConfig::default() })]

            #[test]
            fn matches_reference_on_arbitrary_inputs_small(stim in crate::common::arbitrary(&crate::common::ports_of($block, $small), 60, 9)) {
                proptest::prop_assert_eq!(crate::common::matches_model($block, $small, &stim), Ok(()));
            }

            #[test]
            fn matches_reference_on_arbitrary_inputs_tiny(stim in crate::common::arbitrary(&crate::common::ports_of($block, $tiny), 60, 9)) {
                proptest::prop_assert_eq!(crate::common::matches_model($block, $tiny, &stim), Ok(()));
            }
        }
    };
}
