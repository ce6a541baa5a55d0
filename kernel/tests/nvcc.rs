//! CUDA's math library (`expf`, `logf`, `sinf`, `powf`: sequences that use
//! `fma.rm.f32`, `ex2.approx`, extended-precision carries and friends),
//! compiled by nvcc and by clang with NVIDIA's libdevice, runs on the
//! functional model within the error bounds the CUDA C Programming Guide
//! gives for each function, against the host's libm in f64; warp
//! primitives and directed-rounding intrinsics through both compilers.
//! nvcc (and libdevice) come from `make setup` (or CUDA_HOME,
//! WARPFORGE_NVCC, the PATH).

mod common;
use kernel::{CompileOptions, Compiler, LaunchFile, RunOptions};
use std::path::PathBuf;

const MATH: &str = r#"
__global__ void mathk(const float *x, float *e, float *l, float *s, float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  e[i] = expf(x[i]);
  l[i] = logf(x[i] + 1.5f);
  s[i] = sinf(x[i]);
  p[i] = powf(x[i] + 1.5f, 1.3f);
}
"#;

const LAUNCH: &str = "grid = [4]\nblock = [64]\nargs = [\"x\", \"e\", \"l\", \"s\", \"p\"]\n[buffers.x]\ntype = \"f32\"\nlen = 256\ninit = { random = { seed = 3, min = -1.4, max = 4.0 } }\n[buffers.e]\ntype = \"f32\"\nlen = 256\n[buffers.l]\ntype = \"f32\"\nlen = 256\n[buffers.s]\ntype = \"f32\"\nlen = 256\n[buffers.p]\ntype = \"f32\"\nlen = 256\n";

fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i32).abs_diff(b.to_bits() as i32)
}

#[test]
fn math_library_within_cudas_error_bounds() {
    // nvcc inlines CUDA's math; clang links the same library as NVIDIA's
    // libdevice bitcode (its backend fuses some of libdevice's multiply-adds
    // that NVVM keeps apart, so powf can differ from nvcc's by one ulp).
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        math_library(compiler);
    }
}

fn math_library(compiler: Compiler) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("math-{}", compiler.name()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("mathk.cu");
    std::fs::write(&cu, MATH).unwrap();
    let opts = CompileOptions { compiler, ..common::compile_opts() };
    let ptx = kernel::compile_cuda(&cu, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(ptx.contains("fma.rm.f32"), "{compiler:?}: the expf sequence rounds toward minus infinity");
    let m = kernel::Module::from_ptx(&ptx, "mathk.ptx").unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("mathk").unwrap();
    let l = LaunchFile::parse(LAUNCH, &dir.join("l.toml")).unwrap().bind(&m, k).unwrap();
    let r = kernel::run_functional(k, &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let get = |b: &str| common::f32s(l.buffer(&r.memory, b).unwrap());
    let (x, e, lg, s, p) = (get("x"), get("e"), get("l"), get("s"), get("p"));
    for i in 0..256 {
        let (xi, y) = (x[i] as f64, (x[i] + 1.5) as f64);
        // CUDA C Programming Guide, single-precision functions: maximum ulp error.
        assert!(ulps(e[i], xi.exp() as f32) <= 2, "expf({}) = {}", x[i], e[i]);
        assert!(ulps(lg[i], y.ln() as f32) <= 1, "logf({y}) = {}", lg[i]);
        assert!(ulps(s[i], xi.sin() as f32) <= 2, "sinf({}) = {}", x[i], s[i]);
        assert!(ulps(p[i], y.powf(1.3f32 as f64) as f32) <= 4, "powf({y}, 1.3) = {}", p[i]);
    }
}

/// Warp shuffles, votes and the active mask, compiled by nvcc (CUDA's
/// headers) and by clang (the prelude), against a reference computed here
/// from the kernel's definition (32-lane warps).
#[test]
fn warp_shuffles_and_votes_match_a_host_reference() {
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        warp_ops(compiler);
    }
}

fn warp_ops(compiler: Compiler) {
    let opts = CompileOptions { compiler, ..common::compile_opts() };
    let (r, l) = common::run_in("nvcc", "warp_ops", &opts).unwrap_or_else(|e| panic!("{e}"));
    let i32s = |b: &str| common::i32s(l.buffer(&r.memory, b).unwrap());
    let u32s = |b: &str| common::u32s(l.buffer(&r.memory, b).unwrap());
    let input = i32s("in");
    let (sum, scan, xsum, bcast, ballot, all_any, active) = (i32s("sum"), i32s("scan"), i32s("xsum"), i32s("bcast"), u32s("ballot"), i32s("all_any"), u32s("active"));
    for (w, warp) in input.chunks(32).enumerate() {
        let total: i32 = warp.iter().sum();
        assert_eq!(sum[w], total, "shfl.down reduction, warp {w}");
        let ballot_want = warp.iter().enumerate().fold(0u32, |b, (i, &v)| b | ((v > 50) as u32) << i);
        assert_eq!(ballot[w], ballot_want, "vote.ballot, warp {w}");
        let (all, any) = (warp.iter().all(|&v| v >= 0), warp.iter().any(|&v| v > 95));
        let divisible = warp.iter().enumerate().fold(0u32, |b, (i, &v)| b | ((v % 3 == 0) as u32) << i);
        for lane in 0..32 {
            let t = w * 32 + lane;
            assert_eq!(scan[t], warp[..=lane].iter().sum::<i32>(), "shfl.up scan, thread {t}");
            assert_eq!(xsum[t], total, "shfl.bfly all-reduce, thread {t}");
            assert_eq!(bcast[t], warp[(lane * 7 + 3) % 32], "shfl.idx, thread {t}");
            assert_eq!(all_any[t], all as i32 * 2 + any as i32, "vote.all/any, thread {t}");
            assert_eq!(active[t], if warp[lane] % 3 == 0 { divisible } else { 0 }, "activemask, thread {t}");
        }
    }
}

/// CUDA's directed-rounding intrinsics compiled by both compilers (clang
/// through the prelude, nvcc through CUDA's headers): byte-identical
/// results; for each operation rd <= rn <= ru one ulp apart at most, rz
/// the one of rd and ru nearer zero; add and mul (exact in f64 for these
/// operands) give the neighbours of the exact value.
#[test]
fn directed_rounding_intrinsics_by_both_compilers() {
    let run = |compiler| {
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let (r, l) = common::run_in("nvcc", "rounding", &opts).unwrap_or_else(|e| panic!("{e}"));
        let get = |b: &str| common::f32s(l.buffer(&r.memory, b).unwrap());
        (get("a"), get("b"), get("out"))
    };
    let (a, b, out) = run(Compiler::Clang);
    assert_eq!(run(Compiler::Nvcc).2.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), out.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    for i in 0..a.len() {
        for op in 0..6 {
            let [rd, rn, rz, ru] = [0, 1, 2, 3].map(|k| out[i * 24 + op * 4 + k]);
            assert!(rd <= rn && rn <= ru && (ru == rd || ru == rd.next_up()), "thread {i}, op {op}: {rd} {rn} {ru}");
            assert_eq!(rz, if rn >= 0.0 { rd } else { ru }, "thread {i}, op {op}: toward zero");
        }
        for (op, exact) in [(0, a[i] as f64 + b[i] as f64), (1, a[i] as f64 * b[i] as f64)] {
            let (rd, ru) = (out[i * 24 + op * 4], out[i * 24 + op * 4 + 3]);
            assert!(rd as f64 <= exact && exact <= ru as f64, "thread {i}, op {op}: {rd} <= {exact} <= {ru}");
            assert_eq!(rd == ru, rd as f64 == exact, "thread {i}, op {op}: exact results are not moved");
        }
    }
}

/// Out-of-line device functions (`__noinline__`: `.func`, `call`, `.param`
/// passing, a struct returned by value), through both compilers, against
/// the kernel's definition computed here.
#[test]
fn device_function_calls_match_a_host_reference() {
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let ptx = kernel::compile_cuda(&common::kernels_dir().join("nvcc/calls.cu"), &opts).unwrap_or_else(|e| panic!("{e}"));
        assert!(ptx.contains("call.uni"), "{compiler:?} keeps the calls");
        let (r, l) = common::run_in("nvcc", "calls", &opts).unwrap_or_else(|e| panic!("{e}"));
        let input = common::f32s(l.buffer(&r.memory, "in").unwrap());
        let poly = common::f32s(l.buffer(&r.memory, "poly").unwrap());
        let out = common::u32s(l.buffer(&r.memory, "out").unwrap());
        let horner = |x: f32, n: i32| (0..=n).rev().fold(0.0f32, |s, i| s.mul_add(x, i as f32));
        let (n, chunk) = (1000usize, 7usize);
        for i in 0..n {
            assert_eq!(poly[i].to_bits(), horner(input[i], i as i32 % 5).to_bits(), "{compiler:?}: poly[{i}]");
            let want = if i % 3 == 0 {
                let from = i * chunk % n;
                let (mut sum, mut count) = (0.0f32, 0u32);
                for &v in &input[from..(from + chunk).min(n)] {
                    if v > 0.0 {
                        sum += horner(v, 3);
                        count += 1;
                    }
                }
                (sum.to_bits(), count)
            } else {
                (0, 0)
            };
            assert_eq!((out[2 * i], out[2 * i + 1]), want, "{compiler:?}: out[{i}]");
        }
    }
}

/// Named barriers (`bar.sync a, b` and `bar.arrive a, b`, with register and
/// immediate operands) in a producer/consumer kernel, through both
/// compilers, against the kernel's definition computed here.
#[test]
fn named_barriers_match_a_host_reference() {
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let (r, l) = common::run_in("nvcc", "named_barriers", &opts).unwrap_or_else(|e| panic!("{e}"));
        let input = common::i32s(l.buffer(&r.memory, "in").unwrap());
        let out = common::i32s(l.buffer(&r.memory, "out").unwrap());
        let (n, rounds) = (1024usize, 5usize);
        for b in 0..4 {
            let mut acc = [0i32; 128];
            for r in 0..rounds {
                let stage: Vec<i32> = (0..64).map(|t| input[(b * 64 + t + 7 * r) % n]).collect();
                let tile: Vec<i32> = (0..64).map(|t| stage[t] + stage[63 - t]).collect();
                for t in 0..128 {
                    acc[t] = if t < 64 { tile[t] } else { acc[t] + tile[127 - t] * (r as i32 + 1) };
                }
            }
            assert_eq!(&out[b * 128..b * 128 + 128], &acc[..], "{compiler:?}: CTA {b}");
        }
    }
}

/// Half precision (cuda_fp16.h, cuda_bf16.h; nvcc only) against the `half`
/// crate: f16 sums, differences and products computed in f32 and rounded
/// once to f16 (exact: f32 holds twice f16's precision plus two bits), fma
/// in f64 (exact for these magnitudes) rounded once.
#[test]
fn half_precision_matches_the_half_crate() {
    use half::{bf16, f16};
    let opts = CompileOptions { compiler: Compiler::Nvcc, ..common::compile_opts() };
    let (r, l) = common::run_in("nvcc", "halves", &opts).unwrap_or_else(|e| panic!("{e}"));
    let (x, y) = (common::f32s(l.buffer(&r.memory, "x").unwrap()), common::f32s(l.buffer(&r.memory, "y").unwrap()));
    let out = common::f32s(l.buffer(&r.memory, "out").unwrap());
    let neg: Vec<u16> = l.buffer(&r.memory, "neg").unwrap().chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let cmp = common::u32s(l.buffer(&r.memory, "cmp").unwrap());
    let h = |v: f32| f16::from_f32(v);
    let fma = |a: f16, b: f16, c: f16| f16::from_f64(a.to_f64() * b.to_f64() + c.to_f64());
    for i in 0..1000 {
        let a = h(x[i]);
        // __float2half_rz: toward zero.
        let b = {
            let n = h(y[i]);
            if n.to_f32().abs() > y[i].abs() { f16::from_bits(n.to_bits() - 1) } else { n }
        };
        let s = h(a.to_f32() + b.to_f32());
        let p = h(a.to_f32() * b.to_f32());
        let (b2lo, b2hi) = (h(y[i]), h(x[i]));
        let want = [
            s.to_f32(),
            h(a.to_f32() - b.to_f32()).to_f32(),
            p.to_f32(),
            fma(a, b, s).to_f32(),
            fma(a, b2lo, h(a.to_f32() * a.to_f32())).to_f32(),
            fma(b, b2hi, h(b.to_f32() * b.to_f32())).to_f32(),
            a.min(b).to_f32(),
            a.max(b).to_f32(),
            bf16::from_f32(x[i]).to_f32(),
            f32::from_bits(y[i].to_bits() & 0xffff_0000),
            {
                let v = x[i] * 3.0;
                let n = bf16::from_f32(v);
                (if n.to_f32() > v { bf16::from_bits(if v > 0.0 { n.to_bits() - 1 } else { n.to_bits() + 1 }) } else { n }).to_f32()
            },
            p.to_f32().trunc() as i32 as f32,
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(out[12 * i + k].to_bits(), w.to_bits(), "element {i}, output {k}: x {} y {}", x[i], y[i]);
        }
        assert_eq!(neg[i], (-p).to_bits(), "neg {i}");
        let c = (a < b) as u32 | ((a >= b) as u32) << 1 | ((a > b2lo && b > b2hi) as u32) << 2 | 1 << 3;
        assert_eq!(cmp[i], c, "comparisons {i}");
    }
}

/// Texture objects through nvcc's `tex1Dfetch`/`tex2D`, against the CUDA
/// C Programming Guide's texture-fetching rules written out here: integer
/// fetches read zero outside; point sampling takes floor(x) under the
/// address mode; linear filtering blends the four texels around x - 0.5
/// with weights in 1/256ths; 8-bit texels read as normalized floats are
/// value / 255; a one-channel float fetch returns (v, 0, 0, 1).
#[test]
fn texture_fetches_follow_the_programming_guide() {
    let opts = CompileOptions { compiler: Compiler::Nvcc, ..common::compile_opts() };
    let (r, l) = common::run_in("nvcc", "textures", &opts).unwrap_or_else(|e| panic!("{e}"));
    let f = |b: &str| common::f32s(l.buffer(&r.memory, b).unwrap());
    let (data, image, out) = (f("data"), f("image"), f("out"));
    let labels = common::i32s(l.buffer(&r.memory, "labels").unwrap());
    let pixels = l.buffer(&r.memory, "pixels").unwrap().to_vec();
    let iout = common::i32s(l.buffer(&r.memory, "iout").unwrap());
    let (w, h, n) = (16i64, 8i64, 200usize);
    let texel = |i: i64, j: i64| image[(j * w + i) as usize] as f64;
    let mirror = |i: i64, n: i64| {
        let p = i.rem_euclid(2 * n);
        if p < n {
            p
        } else {
            2 * n - 1 - p
        }
    };
    for i in 0..n {
        let x = (i % 23) as f32 * 0.75 - 1.3;
        let y = (i / 23) as f32 * 0.6 - 0.9;
        let j = 3 * i as i64 - 7;
        let fetch = if (0..512).contains(&j) { data[j as usize] } else { 0.0 };
        let (xi, yi) = (x.floor() as i64, y.floor() as i64);
        let point = texel(xi.clamp(0, w - 1), yi.clamp(0, h - 1)) as f32;
        let (xb, yb) = (x as f64 - 0.5, y as f64 - 0.5);
        let (a, b) = (((xb - xb.floor()) * 256.0).round() / 256.0, ((yb - yb.floor()) * 256.0).round() / 256.0);
        let (i0, j0) = (xb.floor() as i64, yb.floor() as i64);
        let t = |di: i64, dj: i64| texel((i0 + di).rem_euclid(w), (j0 + dj).rem_euclid(h));
        let bilinear = ((1.0 - a) * (1.0 - b) * t(0, 0) + a * (1.0 - b) * t(1, 0) + (1.0 - a) * b * t(0, 1) + a * b * t(1, 1)) as f32;
        let byte = (pixels[(mirror(yi, h) * w + mirror(xi, w)) as usize] as f64 / 255.0) as f32;
        let want = [fetch, point, bilinear, byte, data[i] + 1.0];
        for (k, v) in want.iter().enumerate() {
            assert_eq!(out[5 * i + k].to_bits(), v.to_bits(), "thread {i}, output {k} (x {x}, y {y}): {} vs {v}", out[5 * i + k]);
        }
        assert_eq!(iout[i], labels[n - 1 - i], "integer texture, thread {i}");
    }
}

/// Recursive device functions (Fibonacci, mutual recursion 37 deep, a
/// tree walk pruned by the data so that lanes recurse to different depths)
/// through both compilers, against the recursion computed here; the two
/// compilers' results are byte-identical.
#[test]
fn recursion_matches_a_host_reference() {
    let mut first: Option<Vec<u8>> = None;
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let (r, l) = common::run_in("nvcc", "recursion", &opts).unwrap_or_else(|e| panic!("{e}"));
        let tree = common::f32s(l.buffer(&r.memory, "tree").unwrap());
        let (fibs, parity) = (common::u32s(l.buffer(&r.memory, "fibs").unwrap()), common::i32s(l.buffer(&r.memory, "parity").unwrap()));
        let (sums, counts) = (common::f32s(l.buffer(&r.memory, "sums").unwrap()), common::i32s(l.buffer(&r.memory, "counts").unwrap()));
        fn fib(n: u32) -> u32 {
            if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
        }
        fn walk(t: &[f32], node: usize, depth: u32) -> (f64, i32) {
            if node >= t.len() {
                return (0.0, 0);
            }
            let (mut s, mut c) = (t[node] as f64 * depth as f64, 1);
            if t[node] > 0.0 {
                let (l, r) = (walk(t, 2 * node + 1, depth + 1), walk(t, 2 * node + 2, depth + 1));
                s += l.0 + r.0;
                c += l.1 + r.1;
            }
            (s, c)
        }
        for i in 0..128 {
            assert_eq!(fibs[i], fib(i as u32 % 16), "{compiler:?}: fib({})", i % 16);
            assert_eq!(parity[i], ((i % 37) % 2 == 0) as i32, "{compiler:?}: even({})", i % 37);
            let (s, c) = walk(&tree, i % 64, 1);
            assert_eq!(counts[i], c, "{compiler:?}: nodes walked from {}", i % 64);
            // The walk's sum in f32 (its order of additions) against f64.
            assert!((sums[i] as f64 - s).abs() <= 1e-5 * s.abs().max(1.0), "{compiler:?}: sum from {}: {} vs {s}", i % 64, sums[i]);
        }
        let bytes = [l.buffer(&r.memory, "sums").unwrap(), l.buffer(&r.memory, "counts").unwrap()].concat();
        match &first {
            None => first = Some(bytes),
            Some(b) => assert_eq!(b, &bytes, "clang's and nvcc's results differ"),
        }
    }
}

/// Recursion deeper than the thread's stack is one error naming the depth.
#[test]
fn recursion_past_the_stack_is_an_error() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deep");
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("deep.cu");
    // Work after the recursive call (a store): no tail call to turn into a loop.
    let src = "__device__ int down(int n, int *o) {\n  if (n == 0) return 0;\n  int r = down(n - 1, o);\n  o[32 + n % 32] += 1;\n  return r + 1;\n}\nextern \"C\" __global__ void deep(int *o, int n) { if (threadIdx.x == 0) o[0] = down(n, o); }\n";
    std::fs::write(&cu, src).unwrap();
    let m = kernel::load(&cu, &common::compile_opts()).unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("deep").unwrap();
    let run = |n: u32| {
        let text = format!("grid = [1]\nblock = [32]\nargs = [\"o\", {n}]\n[buffers.o]\ntype = \"i32\"\nlen = 64\n");
        let l = LaunchFile::parse(&text, &dir.join("l.toml")).unwrap().bind(&m, k).unwrap();
        kernel::run_functional(k, &l, &RunOptions::default()).map(|r| common::i32s(l.buffer(&r.memory, "o").unwrap())[0])
    };
    assert_eq!(run(20).unwrap(), 20);
    let e = run(1_000_000).unwrap_err().to_string();
    assert!(e.contains("call stack overflow:") && e.contains("nested calls of") && e.contains("16384 bytes"), "{e}");
}

/// `__syncthreads_count/and/or` (PTX `bar.red`) in CTAs with a partial last
/// warp, and as the stopping test of a relaxation loop, through both
/// compilers, against the kernel's definition computed here.
#[test]
fn barrier_reductions_match_a_host_reference() {
    for compiler in [Compiler::Nvcc, Compiler::Clang] {
        let opts = CompileOptions { compiler, ..common::compile_opts() };
        let (r, l) = common::run_in("nvcc", "sync_reductions", &opts).unwrap_or_else(|e| panic!("{e}"));
        let input = common::i32s(l.buffer(&r.memory, "in").unwrap());
        let (out, rounds) = (common::i32s(l.buffer(&r.memory, "out").unwrap()), common::i32s(l.buffer(&r.memory, "rounds").unwrap()));
        for b in 0..3 {
            let x = &input[100 * b..100 * b + 100];
            let count = x.iter().filter(|&&v| v > 0).count() as i32;
            let all = x.iter().all(|&v| v > -900) as i32;
            let any = x.iter().any(|&v| v > 990) as i32;
            let mut v: Vec<i32> = x.iter().map(|a| a.abs()).collect();
            let mut changed = [true; 100];
            let mut r = 0;
            while changed.iter().any(|&c| c) {
                let left: Vec<i32> = (0..100).map(|t| v[(t + 99) % 100]).collect();
                for t in 0..100 {
                    changed[t] = v[t] > 1 && v[t] > left[t] / 2;
                    if changed[t] {
                        v[t] /= 2;
                    }
                }
                r += 1;
            }
            assert_eq!(rounds[b], r, "{compiler:?}: CTA {b} rounds");
            for (t, vt) in v.iter().enumerate() {
                let g = 100 * b + t;
                assert_eq!(&out[4 * g..4 * g + 4], &[count, all, any, *vt], "{compiler:?}: thread {g}");
            }
        }
    }
}
