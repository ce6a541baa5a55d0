//! Kernels that can never finish are reported as such by the functional
//! model (`kernel::progress`), a spinning warp yields to the others, and a
//! barrier in divergent code is counted.

mod common;
use kernel::{LaunchFile, Module, RunError, RunOptions};
use std::path::Path;

/// Run `kernels/edge/NAME.cu` with its launch file.
fn run(name: &str) -> Result<(kernel::FunctionalResult, kernel::Launch), RunError> {
    common::run_in("edge", name, &common::compile_opts())
}

fn never_finishes(name: &str, stuck: &[&str]) {
    let e = run(name).err().unwrap_or_else(|| panic!("{name} finished"));
    assert!(matches!(e, RunError::NoProgress { .. }), "{name}: {e}");
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("kernel `{name}` can never finish: in CTA (0, 0, 0) every live warp is stuck")), "{msg}");
    for s in stuck {
        assert!(msg.contains(s), "{name}: `{s}` not in: {msg}");
    }
}

#[test]
fn a_flag_set_after_a_barrier_the_spinner_never_reaches() {
    never_finishes("flag_after_barrier", &["warp 0 loops at pc", "with memory unchanged", "warp 1 waits at barrier 0 before"]);
}

#[test]
fn an_intra_warp_spin_lock() {
    never_finishes("spin_lock", &["warp 0 loops at pc"]);
}

#[test]
fn a_cta_waiting_for_a_later_cta() {
    never_finishes("cta_wait", &["warp 0 loops at pc"]);
}

/// An empty loop (`L: bra L`) is found at once, not after the budget.
#[test]
fn a_branch_to_itself() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry spin()\n{\nL:\nbra.uni L;\n}\n";
    let m = Module::from_ptx(ptx, "spin.ptx").unwrap();
    let l = LaunchFile::parse("block = [64]\n", Path::new("s.toml")).unwrap().bind(&m, &m.kernels[0]).unwrap();
    let e = kernel::run_functional(&m.kernels[0], &l, &RunOptions { max_warp_insts: 1 << 20, ..Default::default() }).unwrap_err();
    assert!(matches!(e, RunError::NoProgress { .. }), "{e}");
}

/// Warp 0 spins until warp 1 (no barrier between) sets the flag: the
/// spinning warp yields, warp 1 runs, and warp 0 then sees the value.
#[test]
fn a_spinning_warp_yields_to_the_warp_it_waits_for() {
    let (r, l) = run("flag_handoff").unwrap_or_else(|e| panic!("{e}"));
    let out = common::i32s(l.buffer(&r.memory, "out").unwrap());
    assert_eq!(out, (0..32).map(|t| 1000 + t).collect::<Vec<_>>());
}

#[test]
fn a_barrier_in_divergent_code_is_counted_and_released() {
    let (r, l) = run("divergent_barrier").unwrap_or_else(|e| panic!("{e}"));
    // Both warps reach the barrier with 16 of 32 live threads.
    assert_eq!(r.stats.partial_barriers, 2);
    let w = r.stats.barrier_warning("divergent_barrier").unwrap();
    assert!(w.contains("2 bar.sync executed by only part of a warp's live threads") && w.contains("CTA (0, 0, 0), warp 0"), "{w}");
    // Released as on pre-Volta hardware: every thread below 16 of each warp
    // reads what its mirror thread stored before the barrier.
    let out = common::i32s(l.buffer(&r.memory, "out").unwrap());
    for t in (0..64).filter(|t| t % 32 < 16) {
        assert_eq!(out[t], 63 - t as i32, "thread {t}");
    }
    // A kernel whose barriers every thread reaches has none.
    let ran = common::run("reduction");
    let r = kernel::run_functional(ran.kernel(), &ran.launch, &RunOptions::default()).unwrap();
    assert_eq!((r.stats.partial_barriers, r.stats.barrier_warning("reduction")), (0, None));
}
