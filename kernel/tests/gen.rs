//! The random kernel generator (`kernel::gen`): its kernels compile with
//! clang, fit the register file (most at full size), bind their launch and
//! run on the functional model without faults within a small instruction
//! budget. (The differential test against the timing SM is
//! `sm/tests/random_kernels.rs`.)

mod common;
use kernel::gen::{build_fitting, SIZES};
use kernel::RunOptions;
use std::path::PathBuf;

#[test]
fn generated_kernels_build_and_run() {
    let n: u64 = std::env::var("WARPFORGE_GEN_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gen");
    let mut sizes = vec![0u32; SIZES as usize];
    let (mut insts, mut max_insts, mut max_regs) = (0u64, 0u64, 0u32);
    for seed in 0..n {
        let (g, b) = build_fitting(seed, &dir, &common::compile_opts()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        sizes[g.size as usize] += 1;
        max_regs = max_regs.max(b.kernel.regs_used);
        let r = kernel::run_functional(&b.kernel, &b.launch, &RunOptions { max_warp_insts: 2_000_000, ..Default::default() })
            .unwrap_or_else(|e| panic!("seed {seed} ({}): {e}", b.cu_path.display()));
        insts += r.stats.warp_insts;
        max_insts = max_insts.max(r.stats.warp_insts);
    }
    println!("{n} seeds: size classes {sizes:?}, registers at most {max_regs}, warp instructions {insts} (at most {max_insts} per kernel)");
    // Falling back to a smaller size is the exception.
    assert!(
        sizes[0] * 10 >= n as u32 * 8,
        "only {} of {n} kernels fit the registers at full size",
        sizes[0]
    );
}
