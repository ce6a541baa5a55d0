//! Modules and kernels after register allocation: what the functional model
//! and the timing SM execute.

use crate::cfg::Cfg;
use crate::error::{AllocError, KernelError};
use crate::inst::{Inst, Op, Opnd, RegWidth, INST_BYTES, MAX_PREDS, MAX_REGS};
use crate::ptx::parse::{ParamDecl, ParsedFunc, VarDecl};
use crate::ptx::base_name;
use crate::regalloc::{allocate, rewrite};

/// Each thread's stack for recursive calls, above its own frame (CUDA's
/// default `cudaLimitStackSize` is 1 KiB; this allows deeper recursion).
pub const STACK_BYTES: u32 = 16 * 1024;

/// Most virtual registers spilled before a kernel is refused.
const MAX_SPILLS: u32 = 256;

/// The size of the register file allocation fits a kernel into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegFile {
    /// 32-bit registers per thread.
    pub regs: u32,
    /// Predicate registers per thread.
    pub preds: u32,
}

impl RegFile {
    /// The hardware's: 63 registers (seed 000, section 2) and 7 predicates.
    pub const HARDWARE: RegFile = RegFile { regs: MAX_REGS, preds: MAX_PREDS };
}

/// A kernel (`.entry`) ready to execute.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The name as in the PTX (possibly C++-mangled).
    pub name: String,
    /// The demangled base name (`_Z6vecaddPKfS0_Pfi` -> `vecadd`).
    pub base_name: String,
    /// The PTX file it came from (for messages).
    pub file: String,
    pub line: u32,
    pub params: Vec<ParamDecl>,
    /// Bytes of the parameter buffer.
    pub param_bytes: u32,
    /// Instruction `i` is at PC `i * INST_BYTES`.
    pub insts: Vec<Inst>,
    /// Architected 32-bit registers per thread (highest used + 1).
    pub regs_used: u32,
    /// Predicate registers per thread.
    pub preds_used: u32,
    /// Most 32-bit registers live at once (a lower bound on `regs_used`).
    pub reg_pressure: u32,
    /// Static shared memory per CTA, bytes.
    pub shared_bytes: u32,
    /// `Some(align)` if the kernel uses dynamic (`.extern .shared`) memory:
    /// it starts at `shared_bytes` rounded up to `align`.
    pub dynamic_shared_align: Option<u32>,
    /// `.local` bytes per thread (spill slots included; with recursive
    /// calls, the frame and the stack above it).
    pub local_bytes: u32,
    /// One frame of `.local` memory (`local_bytes` when the kernel makes no
    /// recursive call): each call level's locals sit a frame higher.
    pub frame_bytes: u32,
    /// Virtual registers spilled (to local memory, predicates to registers)
    /// to fit the register file.
    pub spills: u32,
    pub cfg: Cfg,
    /// Labels of the PTX and the instruction index each names.
    pub labels: Vec<(String, u32)>,
    /// Every PTX register the kernel uses and where it lives (`R4`, `R6:R7`, `P1`).
    pub reg_names: Vec<(String, String)>,
    /// A decoupled kernel (DAC, [`crate::dac`]): this is the non-affine
    /// stream, and this its affine stream, which feeds its `deq`s.
    pub affine: Option<std::sync::Arc<Kernel>>,
}

impl Kernel {
    /// PC of instruction `i`.
    pub fn pc(i: usize) -> u32 {
        i as u32 * INST_BYTES
    }
    /// The instruction at `pc`.
    pub fn inst_at(&self, pc: u32) -> Option<&Inst> {
        if !pc.is_multiple_of(INST_BYTES) {
            return None;
        }
        self.insts.get((pc / INST_BYTES) as usize)
    }
    /// The PTX source line of the instruction at `pc` (0 if none).
    pub fn line_at(&self, pc: u32) -> u32 {
        self.inst_at(pc).map_or(0, |i| i.line)
    }

    /// `pc 0x0048 (line 31)`, for messages.
    pub fn where_is(&self, pc: u32) -> String {
        format!("pc {pc:#06x} (line {})", self.line_at(pc))
    }

    /// Byte offset where dynamic shared memory starts.
    pub fn dynamic_shared_base(&self) -> u32 {
        let a = self.dynamic_shared_align.unwrap_or(1).max(1);
        self.shared_bytes.div_ceil(a) * a
    }

    /// Allocate registers and build the CFG of a parsed `.entry`.
    pub fn from_parsed(f: ParsedFunc, file: &str) -> Result<Kernel, AllocError> {
        Kernel::from_parsed_within(f, file, RegFile::HARDWARE)
    }

    /// [`Kernel::from_parsed`] on a register file of `rf`'s size.
    pub fn from_parsed_within(mut f: ParsedFunc, file: &str, rf: RegFile) -> Result<Kernel, AllocError> {
        let mut insts = std::mem::take(&mut f.insts);
        let mut spills = 0u32;
        // Registers live across a recursive call live in the caller's frame
        // (a predicate goes to a register first, spilled in the next round).
        let calls = insts.iter().any(|i| matches!(i.op, Op::Call { .. }));
        if calls {
            loop {
                let cfg = Cfg::build(&insts);
                let blocks: Vec<(usize, usize, Vec<usize>)> =
                    cfg.blocks.iter().map(|b| (b.start as usize, b.end as usize, b.succs.iter().map(|&s| s as usize).collect())).collect();
                let across = crate::regalloc::live_across_calls(&insts, f.vregs.len(), &blocks);
                if across.is_empty() {
                    break;
                }
                for v in across {
                    insts = crate::spill::spill(&insts, &mut f.vregs, v, &mut f.local_bytes, &mut f.labels);
                }
            }
        }
        // Allocate; while registers or predicates run out, spill one more
        // virtual register (crate::spill) and try again.
        let (cfg, blocks, alloc) = loop {
            let cfg = Cfg::build(&insts);
            let blocks: Vec<(usize, usize, Vec<usize>)> =
                cfg.blocks.iter().map(|b| (b.start as usize, b.end as usize, b.succs.iter().map(|&s| s as usize).collect())).collect();
            match allocate(&insts, &f.vregs, &blocks, rf.regs, rf.preds) {
                Ok(a) => break (cfg, blocks, a),
                Err(n) => {
                    let preds = n.regs <= rf.regs;
                    let chosen = crate::spill::choose(&insts, &f.vregs, preds).filter(|_| spills < MAX_SPILLS);
                    let Some(v) = chosen else {
                        return Err(if preds {
                            AllocError::TooManyPreds { file: file.into(), kernel: f.name, needed: n.preds, max: rf.preds }
                        } else {
                            AllocError::TooManyRegs { file: file.into(), kernel: f.name, needed: n.regs, max: rf.regs }
                        });
                    };
                    insts = crate::spill::spill(&insts, &mut f.vregs, v, &mut f.local_bytes, &mut f.labels);
                    spills += 1;
                }
            }
        };
        // Thread frames lie back to back: keep every slot aligned in every frame.
        f.local_bytes = f.local_bytes.div_ceil(16) * 16;
        let frame_bytes = f.local_bytes;
        if calls {
            f.local_bytes += STACK_BYTES;
        }
        let pressure = crate::regalloc::max_pressure(&insts, &f.vregs, &blocks);
        rewrite(&mut insts, &alloc.map);
        for (i, inst) in insts.iter_mut().enumerate() {
            if let Op::Bra { reconv, .. } = &mut inst.op {
                *reconv = cfg.reconv_pc(i);
            }
            inst.finish();
        }
        let mut reg_names = Vec::new();
        for (v, info) in f.vregs.iter().enumerate() {
            let a = alloc.map[v];
            if a == u32::MAX {
                continue;
            }
            let loc = match info.width {
                RegWidth::Pred => format!("P{a}"),
                RegWidth::W32 => format!("R{a}"),
                RegWidth::W64 => format!("R{}:R{}", a, a + 1),
            };
            reg_names.push((info.name.clone(), loc));
        }
        Ok(Kernel {
            base_name: base_name(&f.name),
            name: f.name,
            file: file.into(),
            line: f.line,
            params: f.params,
            param_bytes: f.param_bytes,
            insts,
            regs_used: alloc.regs_used,
            preds_used: alloc.preds_used,
            reg_pressure: pressure,
            shared_bytes: f.shared_bytes,
            dynamic_shared_align: f.dynamic_shared_align,
            local_bytes: f.local_bytes,
            frame_bytes,
            spills,
            cfg,
            labels: f.labels,
            reg_names,
            affine: None,
        })
    }

    /// The allocated code as text: one line per instruction with its PC,
    /// block boundaries, reconvergence points and labels.
    pub fn listing(&self) -> String {
        let mut s = String::new();
        s += &format!(
            "kernel {} ({}): {} instructions, {} registers (at most {} live at once), {} predicates, {} B static shared, {} B local per thread, {} B params{}{}\n",
            self.base_name,
            self.name,
            self.insts.len(),
            self.regs_used,
            self.reg_pressure,
            self.preds_used,
            self.shared_bytes,
            self.local_bytes,
            self.param_bytes,
            if self.dynamic_shared_align.is_some() { ", dynamic shared" } else { "" },
            if self.spills > 0 { format!(", {} registers spilled", self.spills) } else { String::new() }
        );
        s += "  params:";
        for p in &self.params {
            s += &format!(" {}@{}:.{}{}", p.name, p.offset, p.ty.name(), p.array.map(|n| format!("[{n}]")).unwrap_or_default());
        }
        s += "\n  registers:";
        for (n, l) in &self.reg_names {
            s += &format!(" {n}={l}");
        }
        s += "\n";
        for (bi, b) in self.cfg.blocks.iter().enumerate() {
            let succ: Vec<String> = b.succs.iter().map(|x| format!("B{x}")).collect();
            let ipdom = b.ipdom.map(|p| format!("B{p}")).unwrap_or_else(|| "exit".into());
            s += &format!(
                "B{bi}: pc {:#06x}..{:#06x} -> [{}]{} ipdom {ipdom}\n",
                b.start * INST_BYTES,
                b.end * INST_BYTES,
                succ.join(" "),
                if b.exits { " exit" } else { "" }
            );
            for i in b.start..b.end {
                for (l, _) in self.labels.iter().filter(|(_, t)| *t == i) {
                    s += &format!("  {l}:\n");
                }
                let inst = &self.insts[i as usize];
                let mut line = format!("    {:#06x}  {:<44}", i * INST_BYTES, inst.text(true));
                if let Op::Bra { reconv, .. } = inst.op {
                    if reconv == crate::cfg::RPC_NONE {
                        line += " ; reconverge: exit";
                    } else {
                        line += &format!(" ; reconverge at {reconv:#06x}");
                    }
                }
                line += &format!(" ; line {}", inst.line);
                s += line.trim_end();
                s += "\n";
            }
        }
        s
    }

    /// Every register operand is inside the allocated register file and
    /// every pair is aligned.
    pub fn operands_valid(&self) -> bool {
        self.insts.iter().all(|i| {
            i.dst.iter().chain(i.src.iter()).all(|o| match *o {
                Opnd::R(r) => r < self.regs_used,
                Opnd::D(r) => r % 2 == 0 && r + 1 < self.regs_used,
                Opnd::P(p) => p < self.preds_used,
                _ => true,
            })
        })
    }
}

/// A PTX module: its kernels and module-scope variables.
#[derive(Clone, Debug)]
pub struct Module {
    pub file: String,
    pub version: (u32, u32),
    pub target: String,
    pub kernels: Vec<Kernel>,
    /// Names of the `.func` device functions (parsed, not executable: calls
    /// are not supported).
    pub funcs: Vec<String>,
    /// Module-scope `.global` variables at their device addresses.
    pub globals: Vec<VarDecl>,
    /// Module-scope `.const` variables at their constant-bank offsets.
    pub consts: Vec<VarDecl>,
    pub const_bytes: u64,
    /// End of the `.global` variables, as an offset from `GLOBAL_SYMBOLS_BASE`.
    pub global_bytes: u64,
    /// Texture references (`.global .texref`), bound by name at launch.
    pub texrefs: Vec<String>,
}

impl Module {
    /// Parse and allocate PTX text; `file` names it in errors.
    pub fn from_ptx(src: &str, file: &str) -> Result<Module, KernelError> {
        Module::from_ptx_within(src, file, RegFile::HARDWARE)
    }

    /// [`Module::from_ptx`] on a smaller register file (to exercise
    /// spilling in tests).
    pub fn from_ptx_within(src: &str, file: &str, rf: RegFile) -> Result<Module, KernelError> {
        Module::from_ptx_after(src, file, rf, 0)
    }

    /// [`Module::from_ptx_within`], the `.global` variables placed from
    /// `GLOBAL_SYMBOLS_BASE + symbols_offset` (see [`crate::ptx::parse_after`]).
    pub fn from_ptx_after(src: &str, file: &str, rf: RegFile, symbols_offset: u64) -> Result<Module, KernelError> {
        let pm = crate::ptx::parse_after(src, file, symbols_offset).map_err(KernelError::Parse)?;
        let mut kernels = Vec::new();
        let mut funcs = Vec::new();
        for f in pm.funcs {
            if f.is_entry {
                kernels.push(Kernel::from_parsed_within(f, file, rf)?);
            } else {
                funcs.push(f.name);
            }
        }
        Ok(Module {
            file: file.into(),
            version: pm.version,
            target: pm.target,
            kernels,
            funcs,
            globals: pm.globals,
            consts: pm.consts,
            const_bytes: pm.const_bytes,
            global_bytes: pm.global_bytes,
            texrefs: pm.texrefs,
        })
    }

    /// A kernel by its PTX name or its demangled base name.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, KernelError> {
        if let Some(k) = self.kernels.iter().find(|k| k.name == name) {
            return Ok(k);
        }
        let m: Vec<&Kernel> = self.kernels.iter().filter(|k| k.base_name == name).collect();
        match m.as_slice() {
            [k] => Ok(k),
            [] => Err(KernelError::NoKernel {
                file: self.file.clone(),
                name: name.into(),
                available: if self.kernels.is_empty() {
                    "none".into()
                } else {
                    self.kernels.iter().map(|k| k.base_name.as_str()).collect::<Vec<_>>().join(", ")
                },
            }),
            _ => Err(KernelError::Ambiguous {
                file: self.file.clone(),
                name: name.into(),
                matches: m.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", "),
            }),
        }
    }

    /// The module's only kernel, or an error listing them.
    pub fn only_kernel(&self) -> Result<&Kernel, KernelError> {
        match self.kernels.as_slice() {
            [k] => Ok(k),
            [] => Err(KernelError::NoEntry { file: self.file.clone() }),
            _ => Err(KernelError::Several {
                file: self.file.clone(),
                available: self.kernels.iter().map(|k| k.base_name.as_str()).collect::<Vec<_>>().join(", "),
            }),
        }
    }
}
