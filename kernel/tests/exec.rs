//! The one-warp-instruction-at-a-time API the timing SM drives: SIMT stack
//! updates (the P-mode `simt_stack` block's format and rule), exits in
//! divergent code, execution without side effects, skip, per-lane
//! addresses, and run-time errors.

mod common;
use kernel::{exec, skip, ExecCtx, Fault, Kernel, LaunchFile, Memory, Module, RunOptions, Space, StackEntry, WarpState, RPC_NONE};
use std::path::Path;

const DIVERGE: &str = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 2;
	@%p1 bra 	TAKEN;
	add.s32 	%r2, %r1, 100;
	bra.uni 	JOIN;
TAKEN:
	add.s32 	%r2, %r1, 200;
JOIN:
	ld.param.u64 	%rd1, [p];
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r2;
	ret;
}
"#;

struct Setup {
    m: Module,
    mem: Memory,
    params: Vec<u8>,
    shared: Vec<u8>,
    local: Vec<u8>,
}

impl Setup {
    fn new(ptx: &str, launch: &str) -> Setup {
        let m = Module::from_ptx(ptx, "t.ptx").unwrap();
        let lf = LaunchFile::parse(launch, Path::new("t.toml")).unwrap();
        let l = lf.bind(&m, &m.kernels[0]).unwrap();
        let shared = vec![0u8; m.kernels[0].dynamic_shared_base() as usize + l.dynamic_shared as usize];
        Setup { mem: l.memory.clone(), params: l.params.clone(), shared, local: vec![], m }
    }
    fn k(&self) -> &Kernel {
        &self.m.kernels[0]
    }
}

macro_rules! ctx {
    ($s:ident, $fx:expr) => {
        ExecCtx {
            global: kernel::memory::Global::Direct(&mut $s.mem),
            shared: &mut $s.shared,
            local: &mut $s.local,
            params: &$s.params,
            ntid: [4, 1, 1],
            ctaid: [0; 3],
            nctaid: [1; 3],
            side_effects: $fx,
            unmapped_reads_zero: false,
            clock: 0,
            clock_hz: 1,
            textures: &kernel::texture::Textures::EMPTY,
        }
    };
}

const OUT4: &str = "block = [4]\nargs = [\"out\"]\n[buffers.out]\ntype = \"u32\"\nlen = 4\n";

/// The slides' walk-through (seed 001): threads 0 and 1 take a branch;
/// the stack holds 1111 (reconvergence), 1100 (not taken) and 0011 (taken,
/// on top, executed first); both paths pop back to 1111 at the join.
#[test]
fn divergence_pushes_reconvergence_not_taken_taken() {
    let mut s = Setup::new(DIVERGE, OUT4);
    let k = s.k().clone();
    let mut w = WarpState::new(&k, 0, [4, 1, 1]);
    assert_eq!(w.stack, vec![StackEntry { pc: 0, rpc: RPC_NONE, mask: 0b1111 }]);
    let mut ctx = ctx!(s, true);
    exec(&k, &mut w, &mut ctx).unwrap();
    exec(&k, &mut w, &mut ctx).unwrap();
    let br = exec(&k, &mut w, &mut ctx).unwrap();
    let b = br.branch.unwrap();
    let (join, taken_pc) = (0x30, 0x28);
    assert_eq!(
        (br.pc, b.target_pc, b.reconv_pc, b.taken, b.not_taken, b.diverged, b.pushed),
        (0x10, taken_pc, join, 0b0011, 0b1100, true, 2)
    );
    assert_eq!(
        w.stack,
        vec![
            StackEntry { pc: join, rpc: RPC_NONE, mask: 0b1111 },
            StackEntry { pc: 0x18, rpc: join, mask: 0b1100 },
            StackEntry { pc: taken_pc, rpc: join, mask: 0b0011 },
        ]
    );
    let e = exec(&k, &mut w, &mut ctx).unwrap();
    assert_eq!((e.pc, e.exec_mask), (taken_pc, 0b0011));
    assert_eq!(w.stack.last().unwrap(), &StackEntry { pc: 0x18, rpc: join, mask: 0b1100 }, "the taken path reached the join and popped");
    exec(&k, &mut w, &mut ctx).unwrap();
    let j = exec(&k, &mut w, &mut ctx).unwrap();
    assert_eq!(j.branch.map(|b| b.diverged), Some(false));
    assert_eq!(w.stack, vec![StackEntry { pc: join, rpc: RPC_NONE, mask: 0b1111 }]);
    while !w.done {
        exec(&k, &mut w, &mut ctx).unwrap();
    }
    let out: Vec<u8> = s.mem.region("out").unwrap().data.clone();
    let got: Vec<u32> = out.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(got, vec![200, 201, 102, 103]);
}

/// Paths that only meet by exiting: the branch reconverges at RPC_NONE, the
/// taken path's threads exit and leave the stack, then the others run.
#[test]
fn exit_in_divergent_code() {
    let ptx = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	setp.eq.u32 	%p1, %r1, 1;
	@%p1 bra 	ONE;
	st.global.u32 	[%rd3], 7;
	ret;
ONE:
	st.global.u32 	[%rd3], 9;
	ret;
}
"#;
    let mut s = Setup::new(ptx, OUT4);
    let k = s.k().clone();
    let mut w = WarpState::new(&k, 0, [4, 1, 1]);
    let mut ctx = ctx!(s, true);
    let mut log = Vec::new();
    while !w.done {
        let e = exec(&k, &mut w, &mut ctx).unwrap();
        if let Some(b) = e.branch {
            assert_eq!(b.reconv_pc, RPC_NONE);
            assert_eq!(w.stack.len(), 2, "r == R: the paths reuse the top slot");
        }
        if e.exited != 0 {
            log.push((e.exited, e.warp_done));
        }
    }
    assert_eq!(log, vec![(0b0010, false), (0b1101, true)]);
    assert_eq!(w.exited, 0b1111);
    let got: Vec<u32> = s.mem.region("out").unwrap().data.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(got, vec![7, 9, 7, 7]);
}

/// Pre-execution on a copy: no stores or atomics, loads still read; the
/// original warp is untouched; skip moves past non-control instructions.
#[test]
fn no_side_effects_and_skip() {
    let ptx = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [p];
	ld.global.u32 	%r1, [%rd1];
	st.global.u32 	[%rd1+4], 5;
	atom.global.add.u32 	%r2, [%rd1+8], 1;
	add.s32 	%r3, %r1, 1;
	bra.uni 	END;
END:
	ret;
}
"#;
    let launch = "block = [4]\nargs = [\"out\"]\n[buffers.out]\ntype = \"u32\"\nlen = 4\ninit = { values = [11, 0, 3, 0] }\n";
    let mut s = Setup::new(ptx, launch);
    let k = s.k().clone();
    let w = WarpState::new(&k, 0, [4, 1, 1]);
    let before = s.mem.clone();
    let mut p = w.clone();
    {
        let mut ctx = ctx!(s, false);
        exec(&k, &mut p, &mut ctx).unwrap();
        let ld = exec(&k, &mut p, &mut ctx).unwrap();
        assert!(!ld.suppressed);
        assert_eq!(p.regs[k.insts[1].dst_reg().unwrap() as usize][0], 11, "loads read");
        let st = exec(&k, &mut p, &mut ctx).unwrap();
        assert!(st.suppressed);
        let m = st.mem.unwrap();
        assert_eq!((m.space, m.bytes), (Space::Global, 4));
        let base = s_base(&before);
        assert!((0..4).all(|l| m.addrs[l] == base + 4));
        let at = exec(&k, &mut p, &mut ctx).unwrap();
        assert!(at.suppressed);
    }
    assert!(s.mem == before, "memory unchanged");
    assert_eq!(w, WarpState::new(&k, 0, [4, 1, 1]), "the original warp is untouched");
    // skip: PC moves, nothing executes; branches cannot be skipped.
    let mut q = w.clone();
    for i in 0..5 {
        assert_eq!(skip(&k, &mut q).unwrap(), i);
    }
    assert_eq!(q.pc(), Some(5 * 8));
    assert_eq!(skip(&k, &mut q).unwrap_err().fault, Fault::SkipControl);
    assert!(q.regs.iter().all(|r| r.iter().all(|&x| x == 0)));
}

fn s_base(m: &Memory) -> u64 {
    m.region("out").unwrap().base
}

trait DstReg {
    fn dst_reg(&self) -> Option<u32>;
}
impl DstReg for kernel::Inst {
    fn dst_reg(&self) -> Option<u32> {
        match self.dst[0] {
            kernel::Opnd::R(r) => Some(r),
            _ => None,
        }
    }
}

/// Generic accesses resolve per lane; the record carries the resolved space
/// and the shared offsets the SM needs for bank conflicts.
#[test]
fn generic_addresses_resolve_to_shared() {
    let ptx = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry k()
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 buf[128];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd1, %r1, 8;
	mov.u64 	%rd2, buf;
	cvta.shared.u64 	%rd3, %rd2;
	add.s64 	%rd4, %rd3, %rd1;
	st.u32 	[%rd4], %r1;
	ret;
}
"#;
    let mut s = Setup::new(ptx, "block = [4]\n");
    let k = s.k().clone();
    let mut w = WarpState::new(&k, 0, [4, 1, 1]);
    let mut ctx = ctx!(s, true);
    let mut rec = None;
    while !w.done {
        let e = exec(&k, &mut w, &mut ctx).unwrap();
        if e.mem.is_some() {
            rec = e.mem;
        }
    }
    let m = rec.unwrap();
    assert_eq!((m.space, m.shared_lanes), (Space::Shared, 0b1111));
    assert_eq!(&m.addrs[..4], &[0, 8, 16, 24]);
    assert_eq!(&s.shared[8..12], &1u32.to_le_bytes());
}

#[test]
fn partial_last_warp() {
    let s = Setup::new(DIVERGE, OUT4);
    let w = WarpState::new(s.k(), 1, [40, 1, 1]);
    assert_eq!(w.lanes, 0xff);
    assert_eq!(w.active_mask(), 0xff);
    assert_eq!(w.tid[0][7], 39);
}

/// An access outside every buffer names the kernel, PC, line, CTA, warp,
/// thread and address.
#[test]
fn out_of_bounds_is_a_clear_error() {
    let m = common::module("vecadd");
    let launch = r#"
grid = [2]
block = [64]
args = ["a", "b", "c", 128]
[buffers.a]
type = "f32"
len = 128
[buffers.b]
type = "f32"
len = 100
[buffers.c]
type = "f32"
len = 128
"#;
    let k = m.kernel("vecadd").unwrap();
    let l = LaunchFile::parse(launch, Path::new("oob.toml")).unwrap().bind(&m, k).unwrap();
    let e = kernel::run_functional(k, &l, &RunOptions::default()).unwrap_err().to_string();
    let b = l.buffers.iter().find(|b| b.name == "b").unwrap().base;
    assert!(e.starts_with("kernel `vecadd`: pc 0x"), "{e}");
    assert!(e.contains("CTA (1, 0, 0), warp 1, thread (36, 0, 0): load of 4 bytes at"), "{e}");
    assert!(e.contains(&format!("{:#x} is outside every buffer", b + 400)), "{e}");
}

/// A kernel that never ends (counting, so its state never recurs) stops at
/// the instruction budget.
#[test]
fn budget_stops_endless_kernels() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry spin()\n{\n.reg .b32 %r<2>;\nL:\nadd.s32 %r1, %r1, 1;\nbra.uni L;\n}\n";
    let m = Module::from_ptx(ptx, "spin.ptx").unwrap();
    let l = LaunchFile::parse("block = [64]\n", Path::new("s.toml")).unwrap().bind(&m, &m.kernels[0]).unwrap();
    let e = kernel::run_functional(&m.kernels[0], &l, &RunOptions { max_warp_insts: 10_000, ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("kernel `spin`: instruction budget of 10000 warp instructions exceeded"), "{e}");
}

/// An aligned local access outside the thread's frame is out of bounds at
/// the offset the thread used (it was reported as misaligned at the
/// address the frame mapping put it at).
#[test]
fn local_out_of_bounds_names_the_offset() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{\n.local .align 4 .b8 buf[16];\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nmov.u64 %rd1, buf;\nld.local.u32 %r1, [%rd1+64];\nret;\n}\n";
    let m = Module::from_ptx(ptx, "local.ptx").unwrap();
    let l = LaunchFile::parse("block = [32]\n", Path::new("l.toml")).unwrap().bind(&m, &m.kernels[0]).unwrap();
    let e = kernel::run_functional(&m.kernels[0], &l, &RunOptions::default()).unwrap_err().to_string();
    assert!(e.ends_with(".local load of 4 bytes at offset 0x40 is out of bounds"), "{e}");
}

/// A 32-bit shared address plus an offset wraps at 2^32 (nvcc's nw kernel
/// forms `[%r - 256 + 260]`); it was "out of bounds at 0x100000004".
#[test]
fn shared_addresses_wrap_at_32_bits() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.shared .align 4 .b8 s[64];\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\nmov.u32 %r1, s;\nadd.s32 %r2, %r1, -256;\nmov.u32 %r3, 77;\nst.shared.u32 [%r2+260], %r3;\nld.shared.u32 %r3, [%r1+4];\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r3;\nret;\n}\n";
    let m = Module::from_ptx(ptx, "wrap.ptx").unwrap();
    let l = LaunchFile::parse("block = [1]\nargs = [\"out\"]\n[buffers.out]\ntype = \"u32\"\nlen = 1\n", Path::new("l.toml")).unwrap().bind(&m, &m.kernels[0]).unwrap();
    let r = kernel::run_functional(&m.kernels[0], &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(common::u32s(l.buffer(&r.memory, "out").unwrap()), vec![77]);
}

/// Vector byte loads and stores through 16-bit registers (Parboil histo's
/// `st.global.v4.u8 [%rd12], {%rs12, ...}`): stores truncate, loads
/// zero-extend, as the scalar forms do.
#[test]
fn vector_bytes_through_16_bit_registers() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.reg .b16 %rs<5>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u16 %rs1, 0x1201;\nmov.u16 %rs2, 2;\nmov.u16 %rs3, 0xff03;\nmov.u16 %rs4, 4;\nst.global.v4.u8 [%rd2], {%rs1, %rs2, %rs3, %rs4};\nld.global.v4.u8 {%rs1, %rs2, %rs3, %rs4}, [%rd2];\nst.global.v4.u16 [%rd2+8], {%rs1, %rs2, %rs3, %rs4};\nret;\n}\n";
    let m = Module::from_ptx(ptx, "v4u8.ptx").unwrap_or_else(|e| panic!("{e}"));
    let l = LaunchFile::parse("block = [1]\nargs = [\"out\"]\n[buffers.out]\ntype = \"u8\"\nlen = 16\n", Path::new("l.toml")).unwrap().bind(&m, &m.kernels[0]).unwrap();
    let r = kernel::run_functional(&m.kernels[0], &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.buffer(&r.memory, "out").unwrap(), &[1, 2, 3, 4, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0]);
}

/// With `unmapped_reads_zero`, a global load past every allocation reads
/// zero and is counted (GPGPU-Sim's behaviour, which Rodinia's srad_v2
/// relies on); by default it stays an error.
#[test]
fn unmapped_reads_can_read_zero() {
    let m = common::module("vecadd");
    let launch = "grid = [2]\nblock = [64]\nargs = [\"a\", \"b\", \"c\", 128]\n[buffers.a]\ntype = \"f32\"\nlen = 128\ninit = { random = { seed = 1, min = 1, max = 2 } }\n[buffers.b]\ntype = \"f32\"\nlen = 100\n[buffers.c]\ntype = \"f32\"\nlen = 128\n";
    let k = m.kernel("vecadd").unwrap();
    let l = LaunchFile::parse(launch, Path::new("l.toml")).unwrap().bind(&m, k).unwrap();
    assert!(kernel::run_functional(k, &l, &RunOptions::default()).is_err());
    let r = kernel::run_functional(k, &l, &RunOptions { unmapped_reads_zero: true, ..Default::default() }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.stats.unmapped_reads, 28);
    let (a, c) = (common::f32s(l.buffer(&r.memory, "a").unwrap()), common::f32s(l.buffer(&r.memory, "c").unwrap()));
    assert_eq!(&c[100..], &a[100..], "b reads as zero past its 100 elements");
}
