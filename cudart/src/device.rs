//! The simulated device behind the CUDA runtime API: registered modules
//! and kernels, device memory, launches on the functional model or the
//! timing SM, simulated time for events. Safe Rust; `crate::api` is the C
//! surface over it.

use kernel::memory::{Region, RegionKind, BUFFERS_BASE, BUFFER_ALIGN};
use kernel::{Kernel, Launch, Memory, Module, RegFile, RunOptions};
use sm::{Config, Engine};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// How launches run: from the environment `warpforge exec` sets.
#[derive(Clone, Debug)]
pub struct Options {
    /// `None`: the functional model only.
    pub timing: Option<(Config, Engine)>,
    /// The configuration (its clock times events and names the device) —
    /// also with the functional model.
    pub config: Config,
    /// Append one JSON line per launch here.
    pub stats: Option<PathBuf>,
    /// Write every copy from the device to the host here, one file each
    /// (`00001.bin`, ...): the results a program reads back, for checks.
    pub d2h: Option<PathBuf>,
    /// Count branches of every launch on the functional model and keep
    /// the profile here (trace scheduling's training run).
    pub profile: Option<PathBuf>,
    /// Trace-schedule every module on load with this profile, reporting
    /// what the pass did per kernel, one JSON line each, to the file.
    pub trace_schedule: Option<(kernel::tsched::Profile, kernel::tsched::Options, Option<PathBuf>)>,
}

/// The environment variables (documented in docs/exec.md).
pub const ENV_CONFIG: &str = "WARPFORGE_CONFIG";
pub const ENV_SET: &str = "WARPFORGE_SET";
pub const ENV_FUNCTIONAL: &str = "WARPFORGE_FUNCTIONAL";
pub const ENV_ENGINE: &str = "WARPFORGE_ENGINE";
pub const ENV_STATS: &str = "WARPFORGE_STATS";
pub const ENV_D2H: &str = "WARPFORGE_D2H";
pub const ENV_PROFILE: &str = "WARPFORGE_PROFILE";
pub const ENV_TRACE_SCHEDULE: &str = "WARPFORGE_TRACE_SCHEDULE";
pub const ENV_TRACE_REPORT: &str = "WARPFORGE_TRACE_REPORT";
pub const ENV_TRACE_PLACEMENT: &str = "WARPFORGE_TRACE_PLACEMENT";

impl Options {
    pub fn from_env() -> Result<Options, String> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let spec = var(ENV_CONFIG).unwrap_or_else(|| "hpca16_pmode".into());
        let (mut config, _) = Config::load(&spec).map_err(|e| format!("{ENV_CONFIG}={spec}: {e}"))?;
        for s in var(ENV_SET).iter().flat_map(|v| v.split(';')).map(str::trim).filter(|s| !s.is_empty()) {
            config = config.with_override(s).map_err(|e| format!("{ENV_SET}: {e}"))?;
        }
        let functional = match var(ENV_FUNCTIONAL).as_deref() {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => return Err(format!("{ENV_FUNCTIONAL}={v}: expected 0 or 1")),
        };
        let engine = var(ENV_ENGINE).unwrap_or_else(|| "model".into());
        let engine = sm::blocks::parse_engine(&engine).map_err(|e| format!("{ENV_ENGINE}: {e}"))?;
        let timing = (!functional).then(|| (config.clone(), engine));
        let trace_schedule = match var(ENV_TRACE_SCHEDULE) {
            Some(p) => {
                let profile = kernel::tsched::Profile::load(std::path::Path::new(&p)).map_err(|e| format!("{ENV_TRACE_SCHEDULE}: {e}"))?;
                let mut opts = kernel::tsched::Options::default();
                match var(ENV_TRACE_PLACEMENT).as_deref() {
                    None => {}
                    // The ablation: list-schedule every block, move nothing.
                    Some("blocks") => opts.hoist = false,
                    Some(p) => opts.placement = kernel::tsched::Placement::parse(p).map_err(|e| format!("{ENV_TRACE_PLACEMENT}: {e}"))?,
                }
                Some((profile, opts, var(ENV_TRACE_REPORT).map(PathBuf::from)))
            }
            None => None,
        };
        Ok(Options {
            timing,
            config,
            stats: var(ENV_STATS).map(PathBuf::from),
            d2h: var(ENV_D2H).map(PathBuf::from),
            profile: var(ENV_PROFILE).map(PathBuf::from),
            trace_schedule,
        })
    }
}

/// A failure the program cannot continue from (an unsupported call, a
/// kernel fault, a model disagreement): the library prints it and exits.
#[derive(Debug)]
pub struct Fatal(pub String);

/// `cudaError_t` values the runtime returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum CudaError {
    Success = 0,
    InvalidValue = 1,
    MemoryAllocation = 2,
    InvalidConfiguration = 9,
    InvalidSymbol = 13,
    InvalidDevicePointer = 17,
    InvalidMemcpyDirection = 21,
    InvalidDeviceFunction = 98,
    InvalidDevice = 101,
    InvalidResourceHandle = 400,
    NotReady = 600,
}

impl CudaError {
    pub fn name(self) -> &'static str {
        match self {
            CudaError::Success => "cudaSuccess",
            CudaError::InvalidValue => "cudaErrorInvalidValue",
            CudaError::MemoryAllocation => "cudaErrorMemoryAllocation",
            CudaError::InvalidConfiguration => "cudaErrorInvalidConfiguration",
            CudaError::InvalidSymbol => "cudaErrorInvalidSymbol",
            CudaError::InvalidDevicePointer => "cudaErrorInvalidDevicePointer",
            CudaError::InvalidMemcpyDirection => "cudaErrorInvalidMemcpyDirection",
            CudaError::InvalidDeviceFunction => "cudaErrorInvalidDeviceFunction",
            CudaError::InvalidDevice => "cudaErrorInvalidDevice",
            CudaError::InvalidResourceHandle => "cudaErrorInvalidResourceHandle",
            CudaError::NotReady => "cudaErrorNotReady",
        }
    }

    pub fn from_code(code: i32) -> Option<CudaError> {
        use CudaError::*;
        [Success, InvalidValue, MemoryAllocation, InvalidConfiguration, InvalidSymbol, InvalidDevicePointer, InvalidMemcpyDirection, InvalidDeviceFunction, InvalidDevice, InvalidResourceHandle, NotReady]
            .into_iter()
            .find(|e| *e as i32 == code)
    }

    pub fn describe(code: i32) -> &'static str {
        match code {
            0 => "no error",
            1 => "invalid argument",
            2 => "out of memory",
            9 => "invalid configuration argument",
            13 => "invalid device symbol",
            17 => "invalid device pointer",
            21 => "invalid copy direction for memcpy",
            98 => "invalid device function",
            101 => "invalid device ordinal",
            400 => "invalid resource handle",
            600 => "device not ready",
            _ => "unrecognized error code",
        }
    }
}

/// A registered fatbinary: its PTX, parsed on first use.
struct ModuleSlot {
    /// The PTX, or why there is none.
    ptx: Result<String, String>,
    loaded: Option<Arc<Module>>,
    /// The module's constant bank (the device keeps one per module).
    konst: Vec<u8>,
    /// "module N" in messages (the program's N-th fatbinary).
    label: String,
}

struct Function {
    module: usize,
    name: String,
}

struct Var {
    module: usize,
    name: String,
}

/// A CUDA array: row-major texels in a device allocation.
#[derive(Clone, Copy, Debug)]
pub struct CudaArray {
    pub desc: crate::api::ChannelFormatDesc,
    /// Texels in x, y, z.
    pub size: [u64; 3],
    pub texel: u64,
}

/// A launch configuration pushed by `<<<...>>>`.
#[derive(Clone, Copy, Debug)]
pub struct CallConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u64,
    pub stream: usize,
}

/// Where a module variable lives.
pub enum SymbolPlace {
    Global { addr: u64, size: u64 },
    Const { module: usize, offset: u64, size: u64 },
}

pub struct Device {
    pub opts: Options,
    modules: Vec<ModuleSlot>,
    functions: HashMap<usize, Function>,
    vars: HashMap<usize, Var>,
    pub memory: Memory,
    /// End of the modules' `.global` variables (offset from `GLOBAL_SYMBOLS_BASE`).
    symbols_end: u64,
    allocations: u64,
    pub configs: Vec<CallConfig>,
    /// The last error returned (`cudaGetLastError` reads and clears it).
    pub last_error: CudaError,
    /// Simulated cycles of every launch so far (the events' clock).
    pub cycles: u64,
    pub launches: u64,
    /// Event handle -> the cycle it was recorded at.
    events: HashMap<usize, Option<u64>>,
    next_event: usize,
    d2h_copies: u64,
    /// The branch profile so far (`Options::profile`).
    profile: kernel::tsched::Profile,
    /// Texture objects; handle `HANDLE_BASE + i` is `textures[i]` (in
    /// every launch).
    textures: Vec<kernel::texture::Texture>,
    /// CUDA arrays by their handle (their base address).
    arrays: HashMap<u64, CudaArray>,
    /// The caches the last timed launch left (`gpu.warm_l2`, `l1.warm_read_only`).
    warm: sm::run::Warm,
}

/// Device memory of the simulated GPU.
pub const MAX_DEVICE_BYTES: u64 = 4 << 30;

impl Device {
    pub fn new(opts: Options) -> Device {
        Device {
            opts,
            modules: Vec::new(),
            functions: HashMap::new(),
            vars: HashMap::new(),
            memory: Memory::new(),
            symbols_end: 0,
            allocations: 0,
            configs: Vec::new(),
            last_error: CudaError::Success,
            cycles: 0,
            launches: 0,
            events: HashMap::new(),
            next_event: 1,
            d2h_copies: 0,
            profile: Default::default(),
            textures: Vec::new(),
            arrays: HashMap::new(),
            warm: Default::default(),
        }
    }

    /// A fatbinary's PTX (or why it has none); returns the module handle.
    pub fn register_module(&mut self, ptx: Result<String, String>) -> usize {
        let label = format!("fatbinary {}", self.modules.len() + 1);
        self.modules.push(ModuleSlot { ptx, loaded: None, konst: Vec::new(), label });
        self.modules.len() - 1
    }

    pub fn register_function(&mut self, module: usize, host: usize, name: &str) {
        self.functions.insert(host, Function { module, name: name.into() });
    }

    pub fn register_var(&mut self, module: usize, host: usize, name: &str) {
        self.vars.insert(host, Var { module, name: name.into() });
    }

    /// Parse a module's PTX on first use and map its variables.
    fn module(&mut self, m: usize) -> Result<Arc<Module>, Fatal> {
        let slot = &self.modules[m];
        if let Some(l) = &slot.loaded {
            return Ok(Arc::clone(l));
        }
        let ptx = slot.ptx.as_ref().map_err(|e| Fatal(format!("{}: {e}", slot.label)))?;
        let file = format!("{} (PTX)", slot.label);
        let scheduled;
        let ptx = match &self.opts.trace_schedule {
            Some((profile, opts, report)) => {
                let s = kernel::tsched::schedule(ptx, &file, profile, opts).map_err(|e| Fatal(e.to_string()))?;
                if let Some(r) = report {
                    let before = Module::from_ptx(ptx, &file).map_err(|e| Fatal(e.to_string()))?;
                    let after = Module::from_ptx(&s.ptx, &file).map_err(|e| Fatal(e.to_string()))?;
                    // NVIDIA's assembler's registers too, when it is at hand.
                    let work = std::env::temp_dir().join(format!("warpforge-ptxas-{}", std::process::id()));
                    let ptxas = kernel::compile::ptxas(ptx, &work).and_then(|b| Ok((b, kernel::compile::ptxas(&s.ptx, &work)?)));
                    let _ = std::fs::remove_dir_all(&work);
                    // No assembler at hand is no report; a rejection is the pass's bug.
                    if let Err(e) = ptxas.as_ref() {
                        if e.starts_with("ptxas rejects") {
                            return Err(Fatal(format!("{file}, trace-scheduled: {e}")));
                        }
                    }
                    append_line(r, ENV_TRACE_REPORT, &trace_report(&s, &before, &after, ptxas.ok()))?;
                }
                scheduled = s.ptx;
                &scheduled
            }
            None => ptx,
        };
        let module = Module::from_ptx_after(ptx, &file, RegFile::HARDWARE, self.symbols_end).map_err(|e| Fatal(e.to_string()))?;
        for g in &module.globals {
            let mut data = vec![0u8; g.size as usize];
            if let Some(init) = &g.init {
                data[..init.len()].copy_from_slice(init);
            }
            let name = format!("{}::{}", slot.label, g.name);
            self.memory.add(Region { name, kind: RegionKind::Symbol, base: g.addr, data }).map_err(Fatal)?;
        }
        let mut konst = vec![0u8; module.const_bytes as usize];
        for c in &module.consts {
            if let Some(init) = &c.init {
                konst[c.addr as usize..c.addr as usize + init.len()].copy_from_slice(init);
            }
        }
        self.symbols_end = module.global_bytes.div_ceil(BUFFER_ALIGN) * BUFFER_ALIGN;
        let module = Arc::new(module);
        let slot = &mut self.modules[m];
        slot.konst = konst;
        slot.loaded = Some(Arc::clone(&module));
        Ok(module)
    }

    /// The kernel a host stub address names.
    pub fn kernel(&mut self, host: usize) -> Result<Result<(Arc<Module>, usize), CudaError>, Fatal> {
        let Some(f) = self.functions.get(&host) else { return Ok(Err(CudaError::InvalidDeviceFunction)) };
        let (m, name) = (f.module, f.name.clone());
        let module = self.module(m)?;
        let i = module.kernels.iter().position(|k| k.name == name).ok_or_else(|| {
            Fatal(format!("kernel `{name}` is registered but not in the PTX of {}", self.modules[m].label))
        })?;
        Ok(Ok((module, i)))
    }

    /// Where a variable registered by its host shadow lives.
    pub fn symbol(&mut self, host: usize) -> Result<Result<SymbolPlace, CudaError>, Fatal> {
        let Some(v) = self.vars.get(&host) else { return Ok(Err(CudaError::InvalidSymbol)) };
        let (m, name) = (v.module, v.name.clone());
        self.place(m, name)
    }

    /// A registered variable by its device name (CUDA before 5.0 took
    /// symbols as strings, and old programs still pass them).
    pub fn symbol_named(&mut self, name: &str) -> Result<Result<SymbolPlace, CudaError>, Fatal> {
        let found: Vec<usize> = self.vars.values().filter(|v| v.name == name).map(|v| v.module).collect();
        match found.as_slice() {
            [m] => self.place(*m, name.to_string()),
            [] => Ok(Err(CudaError::InvalidSymbol)),
            _ => Err(Fatal(format!("the symbol name \"{name}\" is a variable of several translation units"))),
        }
    }

    fn place(&mut self, m: usize, name: String) -> Result<Result<SymbolPlace, CudaError>, Fatal> {
        let module = self.module(m)?;
        if let Some(g) = module.globals.iter().find(|g| g.name == name) {
            return Ok(Ok(SymbolPlace::Global { addr: g.addr, size: g.size }));
        }
        if let Some(c) = module.consts.iter().find(|c| c.name == name) {
            return Ok(Ok(SymbolPlace::Const { module: m, offset: c.addr, size: c.size }));
        }
        Err(Fatal(format!("variable `{name}` is registered but not in the PTX of {}", self.modules[m].label)))
    }

    pub fn const_bank(&mut self, m: usize) -> &mut Vec<u8> {
        &mut self.modules[m].konst
    }

    /// `cudaMalloc`: a zeroed region, 256-byte aligned, unmapped gaps between.
    pub fn malloc(&mut self, bytes: u64) -> Result<u64, CudaError> {
        let used: u64 = self.memory.regions().iter().filter(|r| r.kind == RegionKind::Buffer).map(|r| r.data.len() as u64).sum();
        if bytes > MAX_DEVICE_BYTES || used + bytes > MAX_DEVICE_BYTES {
            return Err(CudaError::MemoryAllocation);
        }
        let base = self.memory.next_buffer_base().max(BUFFERS_BASE);
        self.allocations += 1;
        let name = format!("cudaMalloc#{}", self.allocations);
        // A zero-byte allocation still gets a distinct address.
        let data = vec![0u8; bytes.max(1) as usize];
        self.memory.add(Region { name, kind: RegionKind::Buffer, base, data }).map_err(|_| CudaError::MemoryAllocation)?;
        Ok(base)
    }

    pub fn free(&mut self, addr: u64) -> Result<(), CudaError> {
        if addr == 0 {
            return Ok(());
        }
        match self.memory.regions().iter().find(|r| r.base == addr) {
            Some(r) if r.kind == RegionKind::Buffer => {
                self.memory.remove(addr);
                Ok(())
            }
            _ => Err(CudaError::InvalidDevicePointer),
        }
    }

    /// The device bytes `[addr, addr + n)`, all in one allocation.
    pub fn bytes(&mut self, addr: u64, n: u64) -> Result<&mut [u8], CudaError> {
        if n == 0 {
            return Ok(&mut []);
        }
        let (i, off) = self.memory.find(addr, n).ok_or(CudaError::InvalidValue)?;
        let r = &mut self.memory.regions_mut()[i];
        Ok(&mut r.data[off..off + n as usize])
    }

    /// Whether `addr` is inside a device allocation or variable (for
    /// `cudaMemcpyDefault`).
    pub fn is_device(&self, addr: u64) -> bool {
        self.memory.find(addr, 1).is_some()
    }

    pub fn create_event(&mut self) -> usize {
        let e = self.next_event;
        self.next_event += 1;
        self.events.insert(e, None);
        e
    }

    pub fn add_array(&mut self, base: u64, a: CudaArray) {
        self.arrays.insert(base, a);
    }

    pub fn array(&self, handle: u64) -> Option<CudaArray> {
        self.arrays.get(&handle).copied()
    }

    pub fn remove_array(&mut self, handle: u64) {
        self.arrays.remove(&handle);
    }

    /// A texture object over device memory; its handle.
    pub fn create_texture(&mut self, mut t: kernel::texture::Texture) -> u64 {
        t.name = format!("texture object {}", self.textures.len() + 1);
        self.textures.push(t);
        kernel::texture::HANDLE_BASE + self.textures.len() as u64 - 1
    }

    pub fn is_texture(&self, handle: u64) -> bool {
        handle.checked_sub(kernel::texture::HANDLE_BASE).is_some_and(|i| (i as usize) < self.textures.len())
    }

    /// A stream: a name only (work runs in program order).
    pub fn create_stream(&mut self) -> usize {
        self.next_event += 1;
        self.next_event - 1
    }

    pub fn record_event(&mut self, e: usize) -> Result<(), CudaError> {
        let c = self.cycles;
        *self.events.get_mut(&e).ok_or(CudaError::InvalidResourceHandle)? = Some(c);
        Ok(())
    }

    pub fn destroy_event(&mut self, e: usize) -> Result<(), CudaError> {
        self.events.remove(&e).map(|_| ()).ok_or(CudaError::InvalidResourceHandle)
    }

    /// Milliseconds of simulated time between two recorded events.
    pub fn elapsed_ms(&self, a: usize, b: usize) -> Result<f32, CudaError> {
        let at = |e| self.events.get(&e).copied().ok_or(CudaError::InvalidResourceHandle)?.ok_or(CudaError::InvalidResourceHandle);
        let (a, b) = (at(a)?, at(b)?);
        let hz = self.opts.config.core.clock_mhz as f64 * 1e6;
        Ok(((b as f64 - a as f64) / hz * 1e3) as f32)
    }

    /// Run one launch: the functional model decides the memory; the timing
    /// SM (unless functional-only) runs from the same memory and must
    /// leave the same. Appends the launch's statistics line.
    pub fn launch(&mut self, module: &Arc<Module>, k: usize, c: CallConfig, params: Vec<u8>) -> Result<Result<(), CudaError>, Fatal> {
        let kernel: &Kernel = &module.kernels[k];
        let bad_dims = c.grid.contains(&0) || c.block.contains(&0) || kernel::launch::shape_limits(c.grid, c.block).is_err();
        if bad_dims || kernel.dynamic_shared_base() as u64 + c.shared > kernel::memory::WINDOW_BYTES {
            return Ok(Err(CudaError::InvalidConfiguration));
        }
        let slot = self.modules.iter().position(|s| s.loaded.as_ref().is_some_and(|l| Arc::ptr_eq(l, module))).expect("a loaded module");
        self.memory.konst = std::mem::take(&mut self.modules[slot].konst);
        let launch = Launch {
            grid: c.grid,
            block: c.block,
            params,
            memory: Memory::new(),
            buffers: Vec::new(),
            dynamic_shared: c.shared as u32,
            textures: kernel::texture::Textures { list: self.textures.clone(), texrefs: Vec::new() },
            file: PathBuf::from(format!("launch {}", self.launches + 1)),
        };
        let r = self.run(kernel, launch);
        self.modules[slot].konst = std::mem::take(&mut self.memory.konst);
        r.map(Ok)
    }

    fn run(&mut self, kernel: &Kernel, mut launch: Launch) -> Result<(), Fatal> {
        let n = self.launches + 1;
        let what = format!("launch {n} of kernel `{}` (grid {:?}, block {:?})", kernel.base_name, launch.grid, launch.block);
        let cfg = &self.opts.config;
        let max_warp_insts = match cfg.limits.max_instructions {
            0 => RunOptions::default().max_warp_insts,
            n => n,
        };
        let opts = RunOptions { max_warp_insts, unmapped_reads_zero: cfg.memory.unmapped_reads == sm::config::UnmappedReads::Zero };
        let t = Instant::now();
        let before = self.opts.timing.as_ref().map(|_| self.memory.clone());
        let fstats = match &self.opts.profile {
            None => kernel::run_on(kernel, &launch, &mut self.memory, &opts),
            Some(p) => {
                let mut counts = kernel::tsched::InstProfile::new(kernel);
                let r = kernel::run_profiled(kernel, &launch, &mut self.memory, &opts, &mut counts);
                self.profile.add(kernel, &counts);
                self.profile.save(p).map_err(|e| Fatal(format!("{ENV_PROFILE}: {e}")))?;
                r
            }
        }
        .map_err(|e| Fatal(format!("{what}: {e}")))?;
        let mut line = format!(
            "{{\"launch\":{n},\"kernel\":{},\"grid\":{:?},\"block\":{:?},\"shared_bytes\":{},\"warp_insts\":{},\"thread_insts\":{},\"divergent_warp_insts\":{}",
            json_str(&kernel.base_name),
            launch.grid,
            launch.block,
            launch.dynamic_shared,
            fstats.warp_insts,
            fstats.thread_insts,
            fstats.divergent_warp_insts
        );
        if let (Some((cfg, engine)), Some(before)) = (&self.opts.timing, before) {
            launch.memory = before;
            let warm = std::mem::take(&mut self.warm);
            let mut o = sm::run::simulate_warm(Arc::new(kernel.clone()), Arc::new(launch), cfg, *engine, sm::core::Outputs::default(), warm)
                .map_err(|e| Fatal(format!("{what} on the timing SM: {e}")))?;
            self.warm = std::mem::take(&mut o.warm);
            self.cycles += o.stats.cycles;
            let stats = serde_json::to_string(&o.stats).expect("stats serialize");
            line += &format!(",\"cycles\":{},\"wall_seconds\":{:.6},\"sm\":{stats}}}", o.stats.cycles, t.elapsed().as_secs_f64());
            self.append_stats(&line)?;
            if let Some(d) = self.memory.difference(&o.memory) {
                return Err(Fatal(format!(
                    "{what}: the final memory of the functional model and of the timing SM differ: {d} (a data race in the program, floating-point atomics whose order changes the rounding, or a warpforge bug)"
                )));
            }
        } else {
            line += &format!(",\"wall_seconds\":{:.6}}}", t.elapsed().as_secs_f64());
            self.append_stats(&line)?;
        }
        self.launches = n;
        Ok(())
    }

    /// The program copied `bytes` at device address `addr` to or from the
    /// host (the next launch finds the lines in L2: `gpu.copies_fill_l2`).
    pub fn copied(&mut self, addr: u64, bytes: u64) {
        self.warm.copied(addr, bytes);
    }

    /// Record a copy from the device to the host (`Options::d2h`).
    pub fn record_d2h(&mut self, bytes: &[u8]) -> Result<(), Fatal> {
        let Some(dir) = &self.opts.d2h else { return Ok(()) };
        self.d2h_copies += 1;
        let p = dir.join(format!("{:05}.bin", self.d2h_copies));
        std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&p, bytes)).map_err(|e| Fatal(format!("cannot write {} ({ENV_D2H}): {e}", p.display())))
    }

    fn append_stats(&self, line: &str) -> Result<(), Fatal> {
        match &self.opts.stats {
            Some(p) => append_line(p, ENV_STATS, line),
            None => Ok(()),
        }
    }
}

fn append_line(p: &std::path::Path, var: &str, line: &str) -> Result<(), Fatal> {
    let r = std::fs::OpenOptions::new().create(true).append(true).open(p).and_then(|mut f| writeln!(f, "{line}"));
    r.map_err(|e| Fatal(format!("cannot append to {} ({var}): {e}", p.display())))
}

/// ptxas's registers per kernel: before and after the pass.
type PtxasRegs = (Vec<(String, u32)>, Vec<(String, u32)>);

/// One JSON line per kernel: what trace scheduling did, and the registers
/// before and after (this front end's allocation, and ptxas's when at hand).
fn trace_report(s: &kernel::tsched::Scheduled, before: &Module, after: &Module, ptxas: Option<PtxasRegs>) -> String {
    let regs = |m: &Module, name: &str| m.kernels.iter().find(|k| k.name == name).map_or(0, |k| k.regs_used);
    let nv = |l: &[(String, u32)], name: &str| l.iter().find(|(n, _)| n == name).map(|r| r.1);
    let lines: Vec<String> = s
        .kernels
        .iter()
        .map(|k| {
            serde_json::json!({
                "kernel": kernel::ptx::base_name(&k.name),
                "blocks": k.blocks,
                "traces": k.traces.iter().filter(|t| t.blocks.len() > 1).count(),
                "moved": k.moved.len(),
                "moved_loads": k.moved.iter().filter(|m| m.load).count(),
                "predicated": k.moved.iter().filter(|m| m.guard.is_some()).count(),
                "regs_before": regs(before, &k.name),
                "regs_after": regs(after, &k.name),
                "ptxas_regs_before": ptxas.as_ref().and_then(|p| nv(&p.0, &k.name)),
                "ptxas_regs_after": ptxas.as_ref().and_then(|p| nv(&p.1, &k.name)),
                "unmoved": k.unmoved,
                "unchanged": k.unchanged,
            })
            .to_string()
        })
        .collect();
    lines.join("\n")
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}
