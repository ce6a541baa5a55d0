//! P-mode SIMT stacks: the generated hardware against the reference model
//! (arbitrary inputs and driver traffic over parameters), the IPDOM property
//! on both engines, the per-thread check of the IPDOM reference itself, the
//! slides' golden tests, co-simulation.

use crate::common::{driven, engines, matches_model, top_of, typed, Ov};
use hw::blocks::pmode::simt_stack::SimtStackParams;
use models::pmode::simt_stack::SimtStackModel;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::{Component, NetlistSim};
use std::collections::HashMap;
use verif::pmode::simt_stack::{check_ipdom, golden, Node, Program, SimtStackDriver};
use verif::stimulus::Stimulus;

const SMALL: Ov = &[("warps", 3), ("depth", 3), ("lanes", 4), ("pc_bits", 16), ("inst_bytes", 4)];
const TINY: Ov = &[("warps", 2), ("depth", 2), ("lanes", 2), ("pc_bits", 8), ("inst_bytes", 1)];

arbitrary_tests!("simt_stack", small SMALL, tiny TINY);

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    #[test]
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, depth in 2u64..10, lanes in 1u64..40, ports in 1u64..4) {
        let ov = [("warps", 6), ("depth", depth), ("lanes", lanes), ("issue_ports", ports)];
        prop_assert_eq!(matches_model("simt_stack", &ov, &driven("simt_stack", &ov, seed, 1500)), Ok(()));
    }
}

/// The IPDOM property on `n` driver cycles at `ov`, on `dut`.
fn ipdom(dut: &mut dyn Component, p: &SimtStackParams, seed: u64, n: u64) -> Result<(), String> {
    let mut d = SimtStackDriver::new(p, seed);
    let st = Stimulus::record(&mut d, n);
    check_ipdom(p, dut, &st, d.expectations())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    #[test]
    fn ipdom_holds_on_the_hardware_over_parameters(seed in 0u64..1_000_000, depth in 2u64..10, lanes in 1u64..40, ports in 1u64..4) {
        let ov = [("warps", 6), ("depth", depth), ("lanes", lanes), ("issue_ports", ports)];
        let p: SimtStackParams = typed("simt_stack", &ov);
        prop_assert_eq!(ipdom(&mut NetlistSim::new(&top_of("simt_stack", &ov)), &p, seed, 3000), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..Default::default() })]

    #[test]
    fn ipdom_holds_on_the_model_over_parameters(seed in 0u64..1_000_000, depth in 2u32..10, lanes in 1u32..40, ports in 1u32..4) {
        let p = SimtStackParams { warps: 6, depth, lanes, issue_ports: ports, ..SimtStackParams::default() };
        prop_assert_eq!(ipdom(&mut SimtStackModel::new(&p), &p, seed, 4000), Ok(()));
    }
}

#[test]
fn ipdom_holds_on_the_hardware() {
    for (ov, seed, n) in [(&[][..], 7, 20_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000)] {
        let p: SimtStackParams = typed("simt_stack", ov);
        assert_eq!(ipdom(&mut NetlistSim::new(&top_of("simt_stack", ov)), &p, seed, n), Ok(()), "{ov:?} seed {seed}");
    }
}

#[test]
fn random_programs_match_the_ipdom_reference_on_the_model() {
    for (p, seed) in [
        (SimtStackParams::default(), 1u64),
        (SimtStackParams { lanes: 8, depth: 4, issue_ports: 3, warps: 5, ..SimtStackParams::default() }, 2),
        (SimtStackParams { lanes: 64, depth: 16, issue_ports: 1, pc_bits: 20, inst_bytes: 4, ..SimtStackParams::default() }, 3),
    ] {
        let mut d = SimtStackDriver::new(&p, seed);
        let st = Stimulus::record(&mut d, 30_000);
        assert!(d.expectations().len() > 20_000);
        check_ipdom(&p, &mut SimtStackModel::new(&p), &st, d.expectations()).unwrap();
    }
}

/// Checks the recursive reference itself against plain per-thread
/// execution: each thread, walking the compiled instructions one by one
/// with the same branch outcomes, executes exactly the PCs of the steps it
/// is active in, in order.
#[test]
fn reference_agrees_with_per_thread_execution() {
    fn flatten(nodes: &[Node], out: &mut HashMap<u64, (u64, bool)>) {
        for n in nodes {
            match n {
                Node::Plain(_) => {}
                Node::If { br, body, end } => {
                    out.insert(*br, (*end, false));
                    flatten(body, out);
                }
                Node::IfElse { br, a, jmp, els, b, end } => {
                    out.insert(*br, (*els, false));
                    out.insert(*jmp, (*end, true));
                    flatten(a, out);
                    flatten(b, out);
                }
                Node::Loop { top, body, br } => {
                    out.insert(*br, (*top, false));
                    flatten(body, out);
                }
            }
        }
    }
    let p = SimtStackParams { lanes: 16, ..SimtStackParams::default() };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut divergent, mut steps) = (0, 0);
    for _ in 0..300 {
        let prog = Program::generate(&mut rng, &p, 0x1000);
        let mut branches = HashMap::new();
        flatten(&prog.nodes, &mut branches);
        for t in 0..p.lanes {
            if prog.launch_mask >> t & 1 == 0 {
                continue;
            }
            let (mut pc, mut trace, mut count) = (prog.base, Vec::new(), HashMap::new());
            while pc != prog.end {
                trace.push(pc);
                pc = match branches.get(&pc) {
                    Some(&(target, always)) => {
                        let n = count.entry(pc).or_insert(0u64);
                        let taken = always || prog.decisions[&(t, pc, *n)];
                        *n += 1;
                        if taken {
                            target
                        } else {
                            pc + 8
                        }
                    }
                    None => pc + 8,
                };
                assert!(trace.len() < 100_000);
            }
            let projected: Vec<u64> = prog.steps.iter().filter(|s| s.mask >> t & 1 == 1).map(|s| s.pc).collect();
            assert_eq!(trace, projected, "thread {t}");
        }
        steps += prog.steps.len();
        divergent += prog.steps.iter().filter(|s| s.br.is_some_and(|(t, _, _)| t & s.mask != 0 && t & s.mask != s.mask)).count();
    }
    assert!(divergent * 20 > steps, "{divergent} divergent branches in {steps} steps");
}

#[test]
fn golden_slides_p_stack_and_dropped_path() {
    let sp = golden::slides_params();
    for mut m in engines("simt_stack", &[("lanes", sp.lanes as u64)]) {
        golden::slides_p_stack(m.as_mut(), &sp);
    }
    for mut m in engines("simt_stack", &[("lanes", sp.lanes as u64)]) {
        golden::path_to_the_enclosing_reconvergence_pc_is_dropped(m.as_mut(), &sp);
    }
}

#[test]
fn golden_overflow_leaves_the_stack_unchanged() {
    let op = golden::overflow_params();
    for mut m in engines("simt_stack", &[("depth", op.depth as u64), ("lanes", op.lanes as u64)]) {
        golden::overflow_leaves_the_stack_unchanged(m.as_mut(), &op);
    }
}

#[test]
fn golden_same_cycle_conflicts() {
    for mut m in engines("simt_stack", &[]) {
        golden::same_cycle_conflicts(m.as_mut(), &SimtStackParams::default());
    }
}

cosim_tests!("simt_stack", seed 2026, small SMALL);
