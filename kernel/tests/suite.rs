//! The kernel suite: every shipped CUDA kernel, compiled by clang, run on
//! the functional model with its launch file, equals an independent host
//! reference byte for byte. Floating-point references perform the same
//! operations in the same order as the compiled PTX (`mul_add` where clang
//! contracted to `fma.rn.f32`), so IEEE results are identical.

mod common;
use common::*;

#[test]
fn vecadd() {
    let r = run("vecadd");
    let n = r.arg_int(3) as usize;
    let (a, b) = (f32s(r.initial("a")), f32s(r.initial("b")));
    let mut c = vec![0f32; a.len()];
    for i in 0..n {
        c[i] = a[i] + b[i];
    }
    same("c", r.after("c"), &f32_bytes(&c), 4);
    same("a", r.after("a"), r.initial("a"), 4);
}

#[test]
fn saxpy() {
    let r = run("saxpy");
    let (n, alpha) = (r.arg_int(0) as usize, r.arg_f32(1));
    let x = f32s(r.initial("x"));
    let mut y = f32s(r.initial("y"));
    for i in 0..n {
        // fma.rn.f32 y, x, alpha, y
        y[i] = x[i].mul_add(alpha, y[i]);
    }
    same("y", r.after("y"), &f32_bytes(&y), 4);
}

#[test]
fn reduction() {
    let r = run("reduction");
    let n = r.arg_int(2) as usize;
    let input = f32s(r.initial("input"));
    let (ctas, threads) = (r.launch.grid[0] as usize, r.launch.block[0] as usize);
    let mut partial = vec![0f32; ctas];
    for (b, p) in partial.iter_mut().enumerate() {
        let mut s: Vec<f32> = (0..threads).map(|t| if b * threads + t < n { input[b * threads + t] } else { 0.0 }).collect();
        let mut stride = threads / 2;
        while stride > 0 {
            for t in 0..stride {
                s[t] += s[t + stride];
            }
            stride /= 2;
        }
        *p = s[0];
    }
    same("partial", r.after("partial"), &f32_bytes(&partial), 4);
}

#[test]
fn histogram() {
    let r = run("histogram");
    let n = r.arg_int(1) as usize;
    let data = u32s(r.initial("data"));
    let mut bins = vec![0u32; 64];
    for &d in &data[..n] {
        bins[(d % 64) as usize] += 1;
    }
    same("bins", r.after("bins"), &u32_bytes(&bins), 4);
}

#[test]
fn scan() {
    let r = run("scan");
    let input = i32s(r.initial("input"));
    let mut out = vec![0i32; input.len()];
    let mut sums = vec![0i32; r.launch.grid[0] as usize];
    for (b, s) in sums.iter_mut().enumerate() {
        let mut acc = 0i32;
        for i in b * 256..(b + 1) * 256 {
            acc = acc.wrapping_add(input[i]);
            out[i] = acc;
        }
        *s = acc;
    }
    same("output", r.after("output"), &i32_bytes(&out), 4);
    same("sums", r.after("sums"), &i32_bytes(&sums), 4);
}

fn transpose(name: &str) {
    let r = run(name);
    let (rows, cols) = (r.arg_int(2) as usize, r.arg_int(3) as usize);
    let input = f32s(r.initial("input"));
    let mut out = vec![0f32; rows * cols];
    for y in 0..rows {
        for x in 0..cols {
            out[x * rows + y] = input[y * cols + x];
        }
    }
    same("output", r.after("output"), &f32_bytes(&out), 4);
}

#[test]
fn transpose_naive() {
    transpose("transpose_naive");
}

#[test]
fn transpose_tiled() {
    transpose("transpose_tiled");
}

#[test]
fn sgemm() {
    let r = run("sgemm");
    let (m, n, k) = (r.arg_int(3) as usize, r.arg_int(4) as usize, r.arg_int(5) as usize);
    let (a, b) = (f32s(r.initial("A")), f32s(r.initial("B")));
    let mut c = vec![0f32; m * n];
    for row in 0..m {
        for col in 0..n {
            let mut acc = 0f32;
            for i in 0..k {
                // fma.rn.f32 acc, As[ty][i], Bs[i][tx], acc, in k order.
                acc = a[row * k + i].mul_add(b[i * n + col], acc);
            }
            c[row * n + col] = acc;
        }
    }
    same("C", r.after("C"), &f32_bytes(&c), 4);
}

#[test]
fn stencil2d() {
    let r = run("stencil2d");
    let (rows, cols, c0, c1) = (r.arg_int(2) as usize, r.arg_int(3) as usize, r.arg_f32(4), r.arg_f32(5));
    let input = f32s(r.initial("input"));
    let mut out = vec![0f32; rows * cols];
    for y in 0..rows {
        for x in 0..cols {
            let i = y * cols + x;
            out[i] = if x == 0 || y == 0 || x == cols - 1 || y == rows - 1 {
                input[i]
            } else {
                let around = input[i - cols] + input[i + cols] + input[i - 1] + input[i + 1];
                // fma.rn.f32 out, in[i], c0, (around * c1)
                input[i].mul_add(c0, around * c1)
            };
        }
    }
    same("output", r.after("output"), &f32_bytes(&out), 4);
}

#[test]
fn spmv() {
    let r = run("spmv");
    let rows = r.arg_int(0) as usize;
    let (row_ptr, col) = (i32s(r.initial("row_ptr")), i32s(r.initial("col")));
    let (val, x) = (f32s(r.initial("val")), f32s(r.initial("x")));
    let mut y = vec![0f32; rows];
    for (row, out) in y.iter_mut().enumerate() {
        let mut sum = 0f32;
        for j in row_ptr[row] as usize..row_ptr[row + 1] as usize {
            sum = val[j].mul_add(x[col[j] as usize], sum);
        }
        *out = sum;
    }
    same("y", r.after("y"), &f32_bytes(&y), 4);
}

#[test]
fn bfs() {
    let r = run("bfs");
    let nodes = r.arg_int(0) as usize;
    let (row_ptr, adj, sources) = (i32s(r.initial("row_ptr")), i32s(r.initial("adj")), i32s(r.initial("sources")));
    let mut cost = vec![-1i32; sources.len() * nodes];
    for (b, &s) in sources.iter().enumerate() {
        let c = &mut cost[b * nodes..(b + 1) * nodes];
        let mut queue = std::collections::VecDeque::from([s as usize]);
        c[s as usize] = 0;
        while let Some(v) = queue.pop_front() {
            for &u in &adj[row_ptr[v] as usize..row_ptr[v + 1] as usize] {
                if c[u as usize] < 0 {
                    c[u as usize] = c[v] + 1;
                    queue.push_back(u as usize);
                }
            }
        }
    }
    assert!(cost.iter().any(|&c| c < 0) && cost.iter().any(|&c| c > 10), "the graph has unreachable nodes and long paths");
    same("cost", r.after("cost"), &i32_bytes(&cost), 4);
    let zeros = vec![0u8; sources.len() * nodes];
    same("frontier", r.after("frontier"), &zeros, 1);
    same("next", r.after("next"), &zeros, 1);
}

#[test]
fn pathfinder() {
    let r = run("pathfinder");
    let (steps, cols, start) = (r.arg_int(0) as usize, r.arg_int(4) as usize, r.arg_int(5) as usize);
    let (wall, mut prev) = (i32s(r.initial("wall")), i32s(r.initial("src")));
    for row in start + 1..=start + steps {
        prev = (0..cols)
            .map(|c| {
                let l = prev[c.saturating_sub(1)];
                let rr = prev[(c + 1).min(cols - 1)];
                l.min(prev[c]).min(rr) + wall[row * cols + c]
            })
            .collect();
    }
    same("dst", r.after("dst"), &i32_bytes(&prev), 4);
}

#[test]
fn pmode_loop() {
    let r = run("pmode_loop");
    let (n, stride) = (r.arg_int(2) as usize, r.arg_int(3) as usize);
    let a = i32s(r.initial("a"));
    let threads = (r.launch.grid[0] * r.launch.block[0]) as usize;
    let out: Vec<i32> = (0..threads).map(|t| (0..n).fold(1i32, |p, i| p.wrapping_mul(a[i * stride + t]))).collect();
    same("out", r.after("out"), &i32_bytes(&out), 4);
}

#[test]
fn dac_fig4() {
    let r = run("dac_fig4");
    let (num, dim) = (r.arg_int(2) as usize, r.arg_int(3) as usize);
    let a = i32s(r.initial("A"));
    let mut b = vec![0i32; a.len()];
    let threads = (r.launch.grid[0] * r.launch.block[0]) as usize;
    for tid in 0..threads {
        for i in 0..dim {
            b[i * num + tid] = a[i * num + tid].wrapping_add(1);
        }
    }
    same("B", r.after("B"), &i32_bytes(&b), 4);
}

/// The registers each shipped kernel needs after allocation (a regression
/// check; the numbers are reported in docs/kernels.md).
#[test]
fn registers_fit_and_pairs_are_aligned() {
    for name in [
        "vecadd",
        "saxpy",
        "reduction",
        "histogram",
        "scan",
        "transpose_naive",
        "transpose_tiled",
        "sgemm",
        "stencil2d",
        "spmv",
        "bfs",
        "pathfinder",
        "pmode_loop",
        "dac_fig4",
    ] {
        let m = module(name);
        let k = m.kernel(name).unwrap();
        assert!(k.regs_used <= kernel::MAX_REGS && k.preds_used <= kernel::MAX_PREDS, "{name}");
        assert!(k.operands_valid(), "{name}: operands outside the register file");
        assert!(k.regs_used <= k.reg_pressure + 1, "{name}: {} registers for a pressure of {}", k.regs_used, k.reg_pressure);
        println!("{name}: {} registers (pressure {}), {} predicates", k.regs_used, k.reg_pressure, k.preds_used);
    }
}
