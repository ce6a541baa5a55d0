//! Finishing a module: resolve conditional drivers into muxes, reject
//! undriven signals and combinational loops, and summarise which outputs
//! depend combinationally on which inputs (for loops through instances).

use super::builder::{HwError, Parts};
use super::module::*;
use std::collections::HashMap;
use std::sync::Arc;

/// FNV-1a, 64 bit: a stable hash (the same on every run and machine).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub(crate) fn finish(p: Parts) -> Result<Arc<Module>, HwError> {
    let Parts { name, doc, mut nodes, mut signals, default_driver, cond_drivers, declared_at, mems, instances, ports, keep_reset, errors } = p;
    if let Some(e) = errors.into_iter().next() {
        return Err(e);
    }
    let err = |message: String, at: &str| HwError { module: name.clone(), message, location: at.to_string() };

    // Drivers: default (or hold for registers), then conditional overrides.
    let sig_node: HashMap<SigId, NodeId> =
        nodes.iter().enumerate().filter_map(|(i, n)| if let Op::Sig(s) = n.op { Some((s, i as NodeId)) } else { None }).collect();
    for (id, sig) in signals.iter_mut().enumerate() {
        let conds = &cond_drivers[id];
        let base = match (&sig.kind, default_driver[id]) {
            (SigKind::Input | SigKind::InstOut { .. }, _) => continue,
            (SigKind::Reg { .. }, Some(d)) => Some(d),
            (SigKind::Reg { .. }, None) if conds.is_empty() => None,
            (SigKind::Reg { .. }, None) => Some(sig_node[&(id as SigId)]),
            (_, Some(d)) => Some(d),
            (_, None) if conds.is_empty() => {
                let what = match sig.kind {
                    SigKind::Output => "output",
                    SigKind::InstIn { .. } => "instance input",
                    _ => "wire",
                };
                return Err(err(format!("{what} `{}` is never driven", sig.name), &declared_at[id]));
            }
            (_, None) => {
                return Err(err(
                    format!("`{}` has only conditional drivers (set_if) and no default (set): it would be a latch", sig.name),
                    &declared_at[id],
                ));
            }
        };
        let mut cur = base;
        for &(c, v) in conds {
            let f = cur.expect("conditional driver without base");
            nodes.push(Node { width: sig.width, op: Op::Mux { sel: c, t: v, f } });
            cur = Some(nodes.len() as NodeId - 1);
        }
        sig.driver = cur;
    }

    let input_pos: HashMap<SigId, u32> = ports
        .iter()
        .filter(|&&s| signals[s as usize].kind == SigKind::Input)
        .enumerate()
        .map(|(i, &s)| (s, i as u32))
        .collect();
    let n_inputs = input_pos.len();

    // Combinational dependencies of each node (excluding through registers).
    let deps = |n: NodeId| -> Vec<NodeId> {
        match &nodes[n as usize].op {
            Op::Sig(s) => {
                let sig = &signals[*s as usize];
                match &sig.kind {
                    SigKind::Input | SigKind::Reg { .. } => vec![],
                    SigKind::Wire | SigKind::Output | SigKind::InstIn { .. } => sig.driver.into_iter().collect(),
                    SigKind::InstOut { inst, port } => {
                        let inst = &instances[*inst as usize];
                        let sub = &inst.module;
                        let out_pos = sub.ports[..*port as usize]
                            .iter()
                            .filter(|&&q| sub.signals[q as usize].kind == SigKind::Output)
                            .count();
                        sub.comb_deps[out_pos].iter().map(|&ip| sig_node[&inst.inputs[ip as usize]]).collect()
                    }
                }
            }
            Op::MemRead { mem, port } => vec![mems[*mem as usize].read_ports[*port as usize].addr],
            op => op.operands(),
        }
    };

    // Iterative depth-first search: detects loops, yields a topological order.
    let n = nodes.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut order: Vec<NodeId> = Vec::with_capacity(n);
    for root in 0..n as NodeId {
        if state[root as usize] != 0 {
            continue;
        }
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(root, deps(root), 0)];
        state[root as usize] = 1;
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let d = top.1[top.2];
                top.2 += 1;
                match state[d as usize] {
                    0 => {
                        state[d as usize] = 1;
                        let dd = deps(d);
                        stack.push((d, dd, 0));
                    }
                    1 => {
                        // Loop: the stack from `d` upwards.
                        let start = stack.iter().position(|e| e.0 == d).unwrap_or(0);
                        let mut names: Vec<String> = stack[start..]
                            .iter()
                            .filter_map(|e| match nodes[e.0 as usize].op {
                                Op::Sig(s) => Some(format!("`{}`", signals[s as usize].name)),
                                _ => None,
                            })
                            .collect();
                        names.dedup();
                        let at = match nodes[d as usize].op {
                            Op::Sig(s) => declared_at[s as usize].clone(),
                            _ => String::from("generator"),
                        };
                        return Err(err(format!("combinational loop through {}", names.join(" -> ")), &at));
                    }
                    _ => {}
                }
            } else {
                state[top.0 as usize] = 2;
                order.push(top.0);
                stack.pop();
            }
        }
    }

    // Input dependencies, as bit sets over input positions, in topological order.
    let words = n_inputs.div_ceil(64).max(1);
    let mut dep_sets = vec![0u64; n * words];
    for &node in &order {
        if let Op::Sig(s) = nodes[node as usize].op {
            if let Some(&ip) = input_pos.get(&s) {
                dep_sets[node as usize * words + ip as usize / 64] |= 1 << (ip % 64);
            }
        }
        for d in deps(node) {
            for k in 0..words {
                let v = dep_sets[d as usize * words + k];
                dep_sets[node as usize * words + k] |= v;
            }
        }
    }
    let comb_deps: Vec<Vec<u32>> = ports
        .iter()
        .filter(|&&s| signals[s as usize].kind == SigKind::Output)
        .map(|&s| {
            let node = sig_node[&s];
            (0..n_inputs as u32).filter(|&i| dep_sets[node as usize * words + i as usize / 64] >> (i % 64) & 1 == 1).collect()
        })
        .collect();

    let has_regs = signals.iter().any(|s| s.is_reg());
    let uses_clock =
        keep_reset || has_regs || mems.iter().any(|m| !m.write_ports.is_empty()) || instances.iter().any(|i| i.module.uses_clock);
    let uses_reset = keep_reset
        || has_regs
        || mems.iter().any(|m| m.reset.is_some() || !m.write_ports.is_empty())
        || instances.iter().any(|i| i.module.uses_reset);

    let mut module =
        Module { name: name.clone(), doc, nodes, signals, mems, instances, ports, uses_clock, uses_reset, comb_deps, fingerprint: 0 };
    module.fingerprint = fingerprint(&module);

    // One name, one module: the Verilog has one definition per name.
    let mut seen: HashMap<&str, u64> = HashMap::new();
    seen.insert(&module.name, module.fingerprint);
    for inst in &module.instances {
        for sub in inst.module.hierarchy() {
            if *seen.entry(&sub.name).or_insert(sub.fingerprint) != sub.fingerprint {
                return Err(err(
                    format!("two different modules are both named `{}`: put the parameters in the module name", sub.name),
                    &format!("instance `{}`", inst.name),
                ));
            }
        }
    }
    Ok(Arc::new(module))
}

/// Structural hash of a module and its sub-modules.
fn fingerprint(m: &Module) -> u64 {
    let mut text = format!("{}|{:?}|{:?}|{:?}|{:?}", m.name, m.nodes, m.signals, m.mems, m.ports);
    for i in &m.instances {
        text.push_str(&format!("|{}:{}:{:x}", i.name, i.module.name, i.module.fingerprint));
    }
    fnv1a(text.as_bytes())
}
