//! The CUDA prelude through clang: a plain CUDA kernel using the prelude's
//! qualifiers, built-in variables, atomics, min/max, math, vector types,
//! `__constant__` and `__device__` variables, a struct parameter, dynamic
//! shared memory, a local array, bytes, shorts and doubles compiles
//! unchanged, and its functional run matches a host computation.

mod common;
use kernel::{LaunchFile, RunOptions};

const SRC: &str = r#"
struct S { int a; float b; double c; };
__constant__ float ctab[8];
__device__ int gtab[4] = {1, 2, 3, 4};

__global__ void probe(S s, const float4 *in4, float4 *out4, int *ints, unsigned *uns, float *flt,
                      double *dbl, unsigned char *bytes, short *shorts, int n) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  float4 v = in4[g];
  out4[g] = make_float4(v.x + v.w, v.y, v.z, v.w * 2.0f);
  atomicAdd(&ints[0], t);
  atomicSub(&ints[1], t);
  atomicMax(&ints[2], t);
  atomicMin(&ints[3], -t);
  atomicExch(&ints[4], 7);
  atomicCAS(&ints[5], 0, g + 1);
  int old = atomicAdd(&ints[6], 1);
  ints[264 + g] = old;
  atomicAdd(&uns[0], 2u);
  atomicOr(&uns[1], 1u << (t % 32));
  atomicAnd(&uns[2], ~(1u << (t % 32)));
  atomicXor(&uns[3], (unsigned)t);
  atomicMax(&uns[4], (unsigned)g);
  atomicAdd(&flt[0], 1.0f);
  int arr[8];
  for (int k = 0; k < 8; k++)
    arr[k] = t * k + s.a;
  ints[8 + g] = arr[(t + n) & 7];
  dyn[t] = t * 3;
  __syncthreads();
  ints[136 + g] = dyn[(t + 1) % blockDim.x] + min(t, 5) + max(t, 60) + (int)min(7u, (unsigned)t);
  flt[8 + g] = sqrtf((float)t) + fminf((float)t, 3.0f) + fmaxf((float)t, 50.0f) + fabsf(-(float)t)
             + __fdividef((float)t, 3.0f) + ctab[t & 7] + (float)gtab[t & 3] + s.b;
  dbl[g] = sqrt((double)t) + s.c;
  bytes[g] = (unsigned char)(t * 7);
  shorts[g] = (short)(t * -300);
}
"#;

const LAUNCH: &str = r#"
grid = [2]
block = [64]
shared_bytes = 256
# S { a = 5, b = 0.5, c = 0.25 }
args = [[5, 0, 0, 0, 0, 0, 0, 63, 0, 0, 0, 0, 0, 0, 208, 63], "in4", "out4", "ints", "uns", "flt", "dbl", "bytes", "shorts", 3]
[buffers.in4]
type = "f32"
len = 512
init = { random = { seed = 1, min = -4.0, max = 4.0 } }
[buffers.out4]
type = "f32"
len = 512
[buffers.ints]
type = "i32"
len = 400
[buffers.uns]
type = "u32"
len = 8
init = { values = [0, 0, 4294967295, 0, 0, 0, 0, 0] }
[buffers.flt]
type = "f32"
len = 136
[buffers.dbl]
type = "f64"
len = 128
[buffers.bytes]
type = "u8"
len = 128
[buffers.shorts]
type = "i16"
len = 128
[symbols.ctab]
type = "f32"
len = 8
init = { values = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5] }
"#;

#[test]
fn prelude_kernel_matches_the_host() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prelude");
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("probe.cu");
    std::fs::write(&cu, SRC).unwrap();
    let m = kernel::load(&cu, &common::compile_opts()).unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("probe").unwrap();
    assert!(k.local_bytes >= 32, "the dynamically indexed array lives in local memory");
    assert!(k.dynamic_shared_align.is_some());
    assert!(k.insts.iter().any(|i| i.mem.is_some_and(|m| m.vec == 4)), "clang vectorized the float4 access");
    let l = LaunchFile::parse(LAUNCH, &dir.join("probe.toml")).unwrap().bind(&m, k).unwrap();
    let r = kernel::run_functional(k, &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let buf = |n: &str| l.buffer(&r.memory, n).unwrap().to_vec();
    let ints = common::i32s(&buf("ints"));
    let uns = common::u32s(&buf("uns"));
    let flt = common::f32s(&buf("flt"));
    let (threads, total) = (64usize, 128usize);
    let tsum: i32 = (0..threads as i32).sum::<i32>() * 2;
    assert_eq!(&ints[..7], &[tsum, -tsum, 63, -63, 7, 1, total as i32]);
    assert_eq!(
        (0..total).map(|g| ints[264 + g]).collect::<Vec<_>>(),
        (0..total as i32).collect::<Vec<_>>(),
        "old values in execution order"
    );
    assert_eq!(&uns[..5], &[2 * total as u32, u32::MAX, 0, 0, total as u32 - 1]);
    assert_eq!(flt[0], total as f32);
    let in4 = common::f32s(l.buffer(&l.memory, "in4").unwrap());
    let mut out4 = in4.clone();
    for g in 0..total {
        out4[4 * g] = in4[4 * g] + in4[4 * g + 3];
        out4[4 * g + 3] = in4[4 * g + 3] * 2.0;
    }
    common::same("out4", &buf("out4"), &common::f32_bytes(&out4), 4);
    let ctab = [0.5f32, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5];
    let gtab = [1f32, 2.0, 3.0, 4.0];
    for g in 0..total {
        let t = g % threads;
        assert_eq!(ints[8 + g], (t * ((t + 3) & 7) + 5) as i32, "local array, thread {g}");
        let dynv = ((t + 1) % threads * 3) as i32;
        assert_eq!(ints[136 + g], dynv + t.min(5) as i32 + t.max(60) as i32 + t.min(7) as i32, "thread {g}");
        let tf = t as f32;
        let want = tf.sqrt() + tf.min(3.0) + tf.max(50.0) + tf.abs() + tf / 3.0 + ctab[t & 7] + gtab[t & 3] + 0.5;
        assert_eq!(flt[8 + g].to_bits(), want.to_bits(), "float chain, thread {g}");
        let d = f64::from_le_bytes(buf("dbl")[8 * g..8 * g + 8].try_into().unwrap());
        assert_eq!(d, (t as f64).sqrt() + 0.25);
        assert_eq!(buf("bytes")[g], (t * 7) as u8);
        let sh = i16::from_le_bytes(buf("shorts")[2 * g..2 * g + 2].try_into().unwrap());
        assert_eq!(sh, (t as i32 * -300) as i16);
    }
}
