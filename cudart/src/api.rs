//! The CUDA runtime API's C surface: what nvcc's generated host code
//! calls (registration, `<<<...>>>` launches) and what CUDA programs call
//! (memory, copies, symbols, device queries, errors, events, streams).
//!
//! Calls run in program order and synchronously: a stream is a name, an
//! asynchronous copy completes before it returns, and an event holds the
//! simulated cycle count at which it was recorded (so `cudaEventElapsedTime`
//! gives simulated time at the configured clock).
//!
//! A call the library cannot honour exactly stops the program with one
//! line naming it (`warpforge: unsupported: ...`) and exit status 1; an
//! invalid argument returns CUDA's error code, as NVIDIA's library does,
//! and says so on standard error.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use crate::device::{CallConfig, CudaError, Device, Fatal, Options, SymbolPlace};
use crate::fatbin;
use crate::props::{DeviceProp, FuncAttributes};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::panic::AssertUnwindSafe;
use std::sync::{Mutex, OnceLock};

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    fn array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
}

type Error = c_int;
type Stream = *mut c_void;
type Event = *mut c_void;

const MEMCPY_HOST_TO_HOST: c_int = 0;
const MEMCPY_HOST_TO_DEVICE: c_int = 1;
const MEMCPY_DEVICE_TO_HOST: c_int = 2;
const MEMCPY_DEVICE_TO_DEVICE: c_int = 3;
const MEMCPY_DEFAULT: c_int = 4;

static DEVICE: OnceLock<Mutex<Device>> = OnceLock::new();

fn die(msg: &str) -> ! {
    eprintln!("warpforge: {msg}");
    // `exit` flushes the program's stdio; the atexit handlers it runs
    // (nvcc's unregistration) take no lock.
    std::process::exit(1)
}

/// Run `f` on the device; a fatal error or a panic ends the program with
/// one line naming `call`.
fn with<T>(call: &str, f: impl FnOnce(&mut Device) -> Result<T, Fatal>) -> T {
    let device = DEVICE.get_or_init(|| match Options::from_env() {
        Ok(o) => Mutex::new(Device::new(o)),
        Err(e) => die(&e),
    });
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut d = device.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut d)
    }));
    match r {
        Ok(Ok(v)) => v,
        Ok(Err(Fatal(m))) => die(&format!("{call}: {m}")),
        Err(_) => die(&format!("{call}: internal error (a warpforge bug; its message is above)")),
    }
}

/// A call that returns `cudaError_t`: an error is remembered for
/// `cudaGetLastError` and reported on standard error.
fn api(call: &str, f: impl FnOnce(&mut Device) -> Result<Result<(), (CudaError, String)>, Fatal>) -> Error {
    with(call, |d| {
        Ok(match f(d)? {
            Ok(()) => 0,
            Err((e, why)) => {
                eprintln!("warpforge: {call} returns {}: {why}", e.name());
                d.last_error = e;
                e as Error
            }
        })
    })
}

fn unsupported(what: String) -> Fatal {
    Fatal(format!("unsupported: {what}"))
}

fn bad<T>(e: CudaError, why: impl Into<String>) -> Result<Result<T, (CudaError, String)>, Fatal> {
    Ok(Err((e, why.into())))
}

unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

// ---- registration (nvcc's generated host code) ----

/// The handle nvcc's code passes back: a small block holding our module index.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(wrapper: *mut c_void) -> *mut *mut c_void {
    let ptx = read_fatbinary(wrapper);
    let m = with("__cudaRegisterFatBinary", |d| Ok(d.register_module(ptx)));
    Box::into_raw(Box::new([m as *mut c_void, wrapper])) as *mut *mut c_void
}

/// The PTX of the fatbinary a wrapper points at, or why there is none.
unsafe fn read_fatbinary(wrapper: *mut c_void) -> Result<String, String> {
    if wrapper.is_null() {
        return Err("a null fatbinary wrapper was registered".into());
    }
    let w = &*(wrapper as *const [u8; 24]);
    let (version, addr) = fatbin::wrapper(w).map_err(|e| e.to_string())?;
    if version != 1 {
        return Err(format!("a version-{version} fatbinary (relocatable device code, nvcc -rdc): link the program without -rdc"));
    }
    if addr == 0 {
        return Err("the fatbinary wrapper points at address 0".into());
    }
    let header = &*(addr as *const [u8; fatbin::HEADER_BYTES]);
    let total = fatbin::total_bytes(header).map_err(|e| e.to_string())?;
    let fb = std::slice::from_raw_parts(addr as *const u8, total);
    match fatbin::ptx(fb).map_err(|e| e.to_string())? {
        Some(p) => Ok(p),
        None => Err(format!(
            "the fatbinary holds no PTX, only cubins for sm_{:?}: warpforge runs PTX; rebuild with `-arch=sm_75` (which embeds compute_75 PTX) or add `-gencode arch=compute_75,code=compute_75`",
            fatbin::cubin_archs(fb)
        )),
    }
}

unsafe fn module_of(handle: *mut *mut c_void) -> usize {
    *handle as usize
}

#[no_mangle]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// Nothing to release: the device lives as long as the process.
#[no_mangle]
pub extern "C" fn __cudaUnregisterFatBinary(_handle: *mut *mut c_void) {}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _bdim: *mut c_void,
    _gdim: *mut c_void,
    _wsize: *mut c_int,
) {
    let (m, name) = (module_of(handle), cstr(device_name));
    with("__cudaRegisterFunction", |d| {
        d.register_function(m, host_fun as usize, &name);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let (m, name) = (module_of(handle), cstr(device_name));
    with("__cudaRegisterVar", |d| {
        d.register_var(m, host_var as usize, &name);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    _handle: *mut *mut c_void,
    _host_var: *mut *mut c_void,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let name = cstr(device_name);
    with("__cudaRegisterManagedVar", |_| Err::<(), _>(unsupported(format!("`__managed__ {name}`: managed memory"))))
}

// ---- launches ----

#[no_mangle]
pub extern "C" fn __cudaPushCallConfiguration(grid: Dim3, block: Dim3, shared: usize, stream: Stream) -> c_uint {
    with("__cudaPushCallConfiguration", |d| {
        d.configs.push(CallConfig { grid: grid.array(), block: block.array(), shared: shared as u64, stream: stream as usize });
        Ok(0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(grid: *mut Dim3, block: *mut Dim3, shared: *mut usize, stream: *mut Stream) -> Error {
    let c = with("__cudaPopCallConfiguration", |d| Ok(d.configs.pop()));
    let Some(c) = c else { return CudaError::InvalidConfiguration as Error };
    let dim = |a: [u32; 3]| Dim3 { x: a[0], y: a[1], z: a[2] };
    *grid = dim(c.grid);
    *block = dim(c.block);
    *shared = c.shared as usize;
    *stream = c.stream as Stream;
    0
}

/// CUDA 12/13's kernel handle: the host stub's address itself.
#[no_mangle]
pub unsafe extern "C" fn __cudaGetKernel(kernel: *mut *const c_void, host_fun: *const c_void) -> Error {
    *kernel = host_fun;
    0
}

unsafe fn launch(call: &str, func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: Stream) -> Error {
    api(call, |d| {
        let (module, k) = match d.kernel(func as usize)? {
            Ok(x) => x,
            Err(e) => return bad(e, format!("{func:p} is not a registered kernel")),
        };
        let kernel = &module.kernels[k];
        // The parameter buffer: each argument copied from where `args` points.
        let mut params = vec![0u8; kernel.param_bytes as usize];
        for (i, p) in kernel.params.iter().enumerate() {
            let src = *args.add(i) as *const u8;
            let dst = &mut params[p.offset as usize..(p.offset + p.size) as usize];
            dst.copy_from_slice(std::slice::from_raw_parts(src, p.size as usize));
        }
        let c = CallConfig { grid: grid.array(), block: block.array(), shared: shared as u64, stream: stream as usize };
        Ok(d.launch(&module, k, c, params)?.map_err(|e| (e, format!("kernel `{}` with grid {:?}, block {:?}, {shared} bytes of dynamic shared memory", kernel.base_name, c.grid, c.block))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel(kernel: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: Stream) -> Error {
    launch("__cudaLaunchKernel", kernel, grid, block, args, shared, stream)
}

#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(kernel: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: Stream) -> Error {
    launch("__cudaLaunchKernel_ptsz", kernel, grid, block, args, shared, stream)
}

#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: Stream) -> Error {
    launch("cudaLaunchKernel", func, grid, block, args, shared, stream)
}

#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel_ptsz(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: Stream) -> Error {
    launch("cudaLaunchKernel_ptsz", func, grid, block, args, shared, stream)
}

// ---- memory ----

#[no_mangle]
pub unsafe extern "C" fn cudaMalloc(ptr: *mut *mut c_void, bytes: usize) -> Error {
    api("cudaMalloc", |d| {
        if ptr.is_null() {
            return bad(CudaError::InvalidValue, "a null pointer for the result");
        }
        match d.malloc(bytes as u64) {
            Ok(a) => {
                *ptr = a as *mut c_void;
                Ok(Ok(()))
            }
            Err(e) => bad(e, format!("{bytes} bytes")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMallocPitch(ptr: *mut *mut c_void, pitch: *mut usize, width: usize, height: usize) -> Error {
    let p = width.div_ceil(256) * 256;
    let e = cudaMalloc(ptr, p * height);
    if e == 0 {
        *pitch = p;
    }
    e
}

#[no_mangle]
pub extern "C" fn cudaFree(ptr: *mut c_void) -> Error {
    api("cudaFree", |d| Ok(d.free(ptr as u64).map_err(|e| (e, format!("{ptr:p} is not the start of a cudaMalloc allocation")))))
}

/// Page-locked host memory is host memory here.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, bytes: usize) -> Error {
    cudaHostAlloc(ptr, bytes, 0)
}

#[no_mangle]
pub unsafe extern "C" fn cudaHostAlloc(ptr: *mut *mut c_void, bytes: usize, flags: c_uint) -> Error {
    api("cudaHostAlloc", |_| {
        // cudaHostAllocMapped (2): a device view of host memory.
        if flags & 2 != 0 {
            return Err(unsupported("cudaHostAlloc with cudaHostAllocMapped (zero-copy host memory)".into()));
        }
        let p = libc::malloc(bytes.max(1));
        if p.is_null() {
            return bad(CudaError::MemoryAllocation, format!("{bytes} bytes of host memory"));
        }
        *ptr = p;
        Ok(Ok(()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaFreeHost(ptr: *mut c_void) -> Error {
    libc::free(ptr);
    0
}

/// Copy `n` bytes: `kind` as CUDA's `cudaMemcpyKind`. A copy to the host is
/// recorded (`Device::record_d2h`) unless `rows` collects it for a 2D copy.
unsafe fn copy(d: &mut Device, dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> Result<Result<(), (CudaError, String)>, Fatal> {
    copy_rows(d, dst, src, n, kind, None)
}

unsafe fn copy_rows(d: &mut Device, dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, rows: Option<&mut Vec<u8>>) -> Result<Result<(), (CudaError, String)>, Fatal> {
    let kind = match kind {
        MEMCPY_DEFAULT => match (d.is_device(dst as u64), d.is_device(src as u64)) {
            (false, false) => MEMCPY_HOST_TO_HOST,
            (true, false) => MEMCPY_HOST_TO_DEVICE,
            (false, true) => MEMCPY_DEVICE_TO_HOST,
            (true, true) => MEMCPY_DEVICE_TO_DEVICE,
        },
        k => k,
    };
    let range = |a: *const c_void| format!("[{a:p}, +{n}) is not inside one device allocation");
    match kind {
        MEMCPY_HOST_TO_HOST => std::ptr::copy(src as *const u8, dst as *mut u8, n),
        MEMCPY_HOST_TO_DEVICE => match d.bytes(dst as u64, n as u64) {
            Ok(b) => {
                b.copy_from_slice(std::slice::from_raw_parts(src as *const u8, n));
                d.copied(dst as u64, n as u64);
            }
            Err(e) => return bad(e, range(dst)),
        },
        MEMCPY_DEVICE_TO_HOST => match d.bytes(src as u64, n as u64) {
            Ok(b) => {
                let host = std::slice::from_raw_parts_mut(dst as *mut u8, n);
                host.copy_from_slice(b);
                d.copied(src as u64, n as u64);
                match rows {
                    Some(r) => r.extend_from_slice(host),
                    None => d.record_d2h(host)?,
                }
            }
            Err(e) => return bad(e, range(src)),
        },
        MEMCPY_DEVICE_TO_DEVICE => {
            let from = match d.bytes(src as u64, n as u64) {
                Ok(b) => b.to_vec(),
                Err(e) => return bad(e, range(src)),
            };
            match d.bytes(dst as u64, n as u64) {
                Ok(b) => b.copy_from_slice(&from),
                Err(e) => return bad(e, range(dst)),
            }
        }
        k => return bad(CudaError::InvalidMemcpyDirection, format!("cudaMemcpyKind {k}")),
    }
    Ok(Ok(()))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> Error {
    api("cudaMemcpy", |d| copy(d, dst, src, n, kind))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, _stream: Stream) -> Error {
    api("cudaMemcpyAsync", |d| copy(d, dst, src, n, kind))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) -> Error {
    api("cudaMemcpy2D", |d| copy_2d(d, dst, dpitch, src, spitch, width, height, kind))
}

unsafe fn memset(d: &mut Device, ptr: *mut c_void, value: c_int, n: usize) -> Result<Result<(), (CudaError, String)>, Fatal> {
    match d.bytes(ptr as u64, n as u64) {
        Ok(b) => {
            b.fill(value as u8);
            Ok(Ok(()))
        }
        Err(e) => bad(e, format!("[{ptr:p}, +{n}) is not inside one device allocation")),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemset(ptr: *mut c_void, value: c_int, n: usize) -> Error {
    api("cudaMemset", |d| memset(d, ptr, value, n))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemsetAsync(ptr: *mut c_void, value: c_int, n: usize, _stream: Stream) -> Error {
    api("cudaMemsetAsync", |d| memset(d, ptr, value, n))
}

/// Where the variable a symbol argument names lives: a registered host
/// shadow, or else (as CUDA before 5.0 and GPGPU-Sim accept) a string
/// naming a registered variable.
unsafe fn symbol_place(d: &mut Device, symbol: *const c_void) -> Result<Result<SymbolPlace, (CudaError, String)>, Fatal> {
    let not = || (CudaError::InvalidSymbol, format!("{symbol:p} is not a registered __device__ or __constant__ variable"));
    match d.symbol(symbol as usize)? {
        Ok(p) => Ok(Ok(p)),
        Err(_) => match symbol_name(symbol as *const u8) {
            Some(name) => Ok(d.symbol_named(&name)?.map_err(|_| (CudaError::InvalidSymbol, format!("no registered variable is named \"{name}\"")))),
            None => Ok(Err(not())),
        },
    }
}

/// The identifier a string symbol argument holds (read up to its NUL, at
/// most 256 bytes, identifier characters only).
unsafe fn symbol_name(p: *const u8) -> Option<String> {
    if p.is_null() {
        return None;
    }
    let mut name = String::new();
    for i in 0..256 {
        match *p.add(i) {
            0 => break,
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' => name.push(c as char),
            _ => return None,
        }
    }
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) && name.len() < 256).then_some(name)
}

/// The device bytes of a module variable, `[offset, offset + n)` of it.
unsafe fn symbol_bytes(d: &mut Device, symbol: *const c_void, n: usize, offset: usize) -> Result<Result<&mut [u8], (CudaError, String)>, Fatal> {
    let place = match symbol_place(d, symbol)? {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    let size = match place {
        SymbolPlace::Global { size, .. } | SymbolPlace::Const { size, .. } => size,
    };
    if (offset as u64).checked_add(n as u64).is_none_or(|e| e > size) {
        return bad(CudaError::InvalidValue, format!("{n} bytes at offset {offset} of a {size}-byte variable"));
    }
    Ok(Ok(match place {
        SymbolPlace::Global { addr, .. } => d.bytes(addr + offset as u64, n as u64).expect("a mapped variable"),
        SymbolPlace::Const { module, offset: at, .. } => {
            let at = (at as usize) + offset;
            &mut d.const_bank(module)[at..at + n]
        }
    }))
}

unsafe fn to_symbol(call: &str, symbol: *const c_void, src: *const c_void, n: usize, offset: usize, kind: c_int) -> Error {
    api(call, |d| {
        if kind != MEMCPY_HOST_TO_DEVICE && kind != MEMCPY_DEFAULT && kind != MEMCPY_DEVICE_TO_DEVICE {
            return bad(CudaError::InvalidMemcpyDirection, format!("cudaMemcpyKind {kind} to a symbol"));
        }
        let from = if kind == MEMCPY_DEVICE_TO_DEVICE || (kind == MEMCPY_DEFAULT && d.is_device(src as u64)) {
            match d.bytes(src as u64, n as u64) {
                Ok(b) => b.to_vec(),
                Err(e) => return bad(e, format!("[{src:p}, +{n}) is not inside one device allocation")),
            }
        } else {
            std::slice::from_raw_parts(src as *const u8, n).to_vec()
        };
        Ok(symbol_bytes(d, symbol, n, offset)?.map(|b| b.copy_from_slice(&from)))
    })
}

unsafe fn from_symbol(call: &str, dst: *mut c_void, symbol: *const c_void, n: usize, offset: usize, kind: c_int) -> Error {
    api(call, |d| {
        if kind != MEMCPY_DEVICE_TO_HOST && kind != MEMCPY_DEFAULT && kind != MEMCPY_DEVICE_TO_DEVICE {
            return bad(CudaError::InvalidMemcpyDirection, format!("cudaMemcpyKind {kind} from a symbol"));
        }
        let to_device = kind == MEMCPY_DEVICE_TO_DEVICE || (kind == MEMCPY_DEFAULT && d.is_device(dst as u64));
        let from = match symbol_bytes(d, symbol, n, offset)? {
            Ok(b) => b.to_vec(),
            Err(e) => return Ok(Err(e)),
        };
        if to_device {
            match d.bytes(dst as u64, n as u64) {
                Ok(b) => b.copy_from_slice(&from),
                Err(e) => return bad(e, format!("[{dst:p}, +{n}) is not inside one device allocation")),
            }
        } else {
            std::slice::from_raw_parts_mut(dst as *mut u8, n).copy_from_slice(&from);
            d.record_d2h(&from)?;
        }
        Ok(Ok(()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, n: usize, offset: usize, kind: c_int) -> Error {
    to_symbol("cudaMemcpyToSymbol", symbol, src, n, offset, kind)
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, n: usize, offset: usize, kind: c_int, _s: Stream) -> Error {
    to_symbol("cudaMemcpyToSymbolAsync", symbol, src, n, offset, kind)
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, n: usize, offset: usize, kind: c_int) -> Error {
    from_symbol("cudaMemcpyFromSymbol", dst, symbol, n, offset, kind)
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, n: usize, offset: usize, kind: c_int, _s: Stream) -> Error {
    from_symbol("cudaMemcpyFromSymbolAsync", dst, symbol, n, offset, kind)
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(ptr: *mut *mut c_void, symbol: *const c_void) -> Error {
    api("cudaGetSymbolAddress", |d| match symbol_place(d, symbol)? {
        Ok(SymbolPlace::Global { addr, .. }) => {
            *ptr = addr as *mut c_void;
            Ok(Ok(()))
        }
        Ok(SymbolPlace::Const { .. }) => Err(unsupported("cudaGetSymbolAddress of a __constant__ variable (kernels read the constant bank, not global memory)".into())),
        Err(e) => Ok(Err(e)),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> Error {
    api("cudaGetSymbolSize", |d| match symbol_place(d, symbol)? {
        Ok(SymbolPlace::Global { size: s, .. } | SymbolPlace::Const { size: s, .. }) => {
            *size = s as usize;
            Ok(Ok(()))
        }
        Err(e) => Ok(Err(e)),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> Error {
    api("cudaMemGetInfo", |d| {
        let used: usize = d.memory.regions().iter().map(|r| r.data.len()).sum();
        *total = crate::device::MAX_DEVICE_BYTES as usize;
        *free = (*total).saturating_sub(used);
        Ok(Ok(()))
    })
}

// ---- the device ----

#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> Error {
    *count = 1;
    0
}

#[no_mangle]
pub extern "C" fn cudaSetDevice(device: c_int) -> Error {
    api("cudaSetDevice", |_| if device == 0 { Ok(Ok(())) } else { bad(CudaError::InvalidDevice, format!("device {device}: the simulated system has one device, 0")) })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> Error {
    *device = 0;
    0
}

#[no_mangle]
pub extern "C" fn cudaSetDeviceFlags(_flags: c_uint) -> Error {
    0
}

/// Everything runs synchronously: synchronisation has nothing to wait for.
#[no_mangle]
pub extern "C" fn cudaDeviceSynchronize() -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaThreadSynchronize() -> Error {
    0
}

/// The allocations stay (a program that resets mid-run and reuses device
/// pointers is wrong on a GPU too); the sticky state is cleared.
#[no_mangle]
pub extern "C" fn cudaDeviceReset() -> Error {
    with("cudaDeviceReset", |d| {
        d.last_error = CudaError::Success;
        Ok(0)
    })
}

#[no_mangle]
pub extern "C" fn cudaThreadExit() -> Error {
    cudaDeviceReset()
}

/// A preference the timing SM's fixed L1/shared split does not follow.
#[no_mangle]
pub extern "C" fn cudaFuncSetCacheConfig(_func: *const c_void, _config: c_int) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetCacheConfig(_config: c_int) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetSharedMemConfig(_config: c_int) -> Error {
    0
}

#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(v: *mut c_int) -> Error {
    *v = 13050;
    0
}

#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(v: *mut c_int) -> Error {
    *v = 13050;
    0
}

/// The properties of the simulated device: one SM of the configuration.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(prop: *mut DeviceProp, device: c_int) -> Error {
    api("cudaGetDeviceProperties", |d| {
        if device != 0 {
            return bad(CudaError::InvalidDevice, format!("device {device}"));
        }
        std::ptr::write_bytes(prop, 0, 1);
        let p = &mut *prop;
        let c = &d.opts.config;
        let name = format!("warpforge {} (1 SM)", c.name);
        p.name[..name.len().min(255)].copy_from_slice(&name.as_bytes()[..name.len().min(255)]);
        p.totalGlobalMem = crate::device::MAX_DEVICE_BYTES as usize;
        p.sharedMemPerBlock = c.core.shared_memory.min(48 * 1024) as usize;
        p.regsPerBlock = c.core.registers as i32;
        p.warpSize = 32;
        p.memPitch = i32::MAX as usize;
        p.maxThreadsPerBlock = 1024.min(c.core.max_threads) as i32;
        p.maxThreadsDim = [1024, 1024, 64];
        p.maxGridSize = [i32::MAX, 65535, 65535];
        p.totalConstMem = 65536;
        p.major = 7;
        p.minor = 5;
        p.textureAlignment = 512;
        p.texturePitchAlignment = 32;
        p.multiProcessorCount = 1;
        p.maxThreadsPerMultiProcessor = c.core.max_threads as i32;
        p.sharedMemPerMultiprocessor = c.core.shared_memory as usize;
        p.regsPerMultiprocessor = c.core.registers as i32;
        p.maxBlocksPerMultiProcessor = c.core.max_ctas as i32;
        p.sharedMemPerBlockOptin = c.core.shared_memory as usize;
        p.l2CacheSize = 768 * 1024;
        p.memoryBusWidth = 384;
        p.unifiedAddressing = 0;
        p.concurrentKernels = 0;
        // Programs built with -DclockRate=reserved[0] (workloads/cuda13_shim.h) read
        // the field CUDA 13 removed, the clock in kHz, here.
        p.reserved[0] = c.core.clock_mhz as i32 * 1000;
        Ok(Ok(()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(value: *mut c_int, attr: c_int, device: c_int) -> Error {
    let mut p: DeviceProp = std::mem::zeroed();
    let e = cudaGetDeviceProperties(&mut p, device);
    if e != 0 {
        return e;
    }
    let clock_khz = with("cudaDeviceGetAttribute", |d| Ok(d.opts.config.core.clock_mhz as i32 * 1000));
    *value = match attr {
        1 => p.maxThreadsPerBlock,
        2..=4 => p.maxThreadsDim[(attr - 2) as usize],
        5..=7 => p.maxGridSize[(attr - 5) as usize],
        8 => p.sharedMemPerBlock as i32,
        9 => p.totalConstMem as i32,
        10 => p.warpSize,
        11 => p.memPitch as i32,
        12 => p.regsPerBlock,
        13 => clock_khz,
        14 => p.textureAlignment as i32,
        16 => p.multiProcessorCount,
        // No copy overlap, no watchdog, discrete, no mapped host memory,
        // cudaComputeModeDefault, no ECC, PCI 0:0, no TCC, no copy engines.
        15 | 17..=20 | 32..=35 | 40 => 0,
        31 => p.concurrentKernels,
        37 => p.memoryBusWidth,
        38 => p.l2CacheSize,
        39 => p.maxThreadsPerMultiProcessor,
        41 => p.unifiedAddressing,
        75 => p.major,
        76 => p.minor,
        81 => p.sharedMemPerMultiprocessor as i32,
        82 => p.regsPerMultiprocessor,
        106 => p.maxBlocksPerMultiProcessor,
        a => with("cudaDeviceGetAttribute", |_| Err(unsupported(format!("cudaDeviceGetAttribute of attribute {a} (cudaDeviceAttr)")))),
    };
    0
}

#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(attr: *mut FuncAttributes, func: *const c_void) -> Error {
    api("cudaFuncGetAttributes", |d| {
        let (module, k) = match d.kernel(func as usize)? {
            Ok(x) => x,
            Err(e) => return bad(e, format!("{func:p} is not a registered kernel")),
        };
        let kernel = &module.kernels[k];
        std::ptr::write_bytes(attr, 0, 1);
        let a = &mut *attr;
        a.sharedSizeBytes = kernel.shared_bytes as usize;
        a.constSizeBytes = module.const_bytes as usize;
        a.localSizeBytes = kernel.local_bytes as usize;
        a.numRegs = kernel.regs_used as i32;
        let regs = d.opts.config.core.registers;
        a.maxThreadsPerBlock = (regs / kernel.regs_used.max(1) / 32 * 32).clamp(32, 1024) as i32;
        a.ptxVersion = (module.version.0 * 10 + module.version.1) as i32;
        a.binaryVersion = 75;
        a.maxDynamicSharedSizeBytes = (48 * 1024 - kernel.shared_bytes.min(48 * 1024)) as i32;
        a.preferredShmemCarveout = -1;
        Ok(Ok(()))
    })
}

/// Attributes only raise limits the simulated device does not enforce below CUDA's.
#[no_mangle]
pub extern "C" fn cudaFuncSetAttribute(_func: *const c_void, _attr: c_int, _value: c_int) -> Error {
    0
}

/// `struct cudaChannelFormatDesc`: for texture objects and the texture
/// reference shim (`workloads/texture_refs.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ChannelFormatDesc {
    pub x: c_int,
    pub y: c_int,
    pub z: c_int,
    pub w: c_int,
    pub f: c_int,
}

#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(x: c_int, y: c_int, z: c_int, w: c_int, f: c_int) -> ChannelFormatDesc {
    ChannelFormatDesc { x, y, z, w, f }
}

/// The texels a channel format describes.
struct TexelFormat {
    elem: kernel::ElemType,
    channels: u32,
}

impl TexelFormat {
    fn texel_bytes(&self) -> u64 {
        self.elem.bytes() * self.channels as u64
    }
}

fn texel_format(desc: &ChannelFormatDesc) -> Result<TexelFormat, Fatal> {
    use kernel::ElemType;
    let bits = [desc.x, desc.y, desc.z, desc.w];
    let channels = bits.iter().filter(|&&b| b != 0).count() as u32;
    let elem = match (desc.f, desc.x) {
        (0, 8) => ElemType::I8,
        (1, 8) => ElemType::U8,
        (0, 16) => ElemType::I16,
        (1, 16) => ElemType::U16,
        (0, 32) => ElemType::I32,
        (1, 32) => ElemType::U32,
        (2, 32) => ElemType::F32,
        _ => return Err(unsupported(format!("texels of channel format {desc:?} (8/16/32-bit integers, 32-bit floats)"))),
    };
    if !matches!(channels, 1 | 2 | 4) || bits[..channels as usize].iter().any(|&b| b != desc.x) {
        return Err(unsupported(format!("texels of channel format {desc:?} (1, 2 or 4 channels of one size)")));
    }
    Ok(TexelFormat { elem, channels })
}

// ---- CUDA arrays: row-major device memory with a texel format ----

/// `cudaMallocArray`: `height` 0 is a 1D array. The handle is the array's
/// device address.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocArray(array: *mut u64, desc: *const ChannelFormatDesc, width: usize, height: usize, _flags: c_uint) -> Error {
    api("cudaMallocArray", |d| {
        if array.is_null() || desc.is_null() || width == 0 {
            return bad(CudaError::InvalidValue, "a null pointer or a zero width");
        }
        let size = [width as u64, height.max(1) as u64, 1];
        let texel = texel_format(&*desc)?.texel_bytes();
        match d.malloc(size[0] * size[1] * texel) {
            Ok(base) => {
                d.add_array(base, crate::device::CudaArray { desc: *desc, size, texel });
                *array = base;
                Ok(Ok(()))
            }
            Err(e) => bad(e, format!("a {width} x {height} array")),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaFreeArray(array: u64) -> Error {
    api("cudaFreeArray", |d| match d.array(array) {
        Some(_) => {
            d.remove_array(array);
            Ok(d.free(array).map_err(|e| (e, String::new())))
        }
        None => bad(CudaError::InvalidValue, format!("{array:#x} is not a CUDA array")),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetChannelDesc(desc: *mut ChannelFormatDesc, array: u64) -> Error {
    api("cudaGetChannelDesc", |d| match d.array(array) {
        Some(a) => {
            *desc = a.desc;
            Ok(Ok(()))
        }
        None => bad(CudaError::InvalidValue, format!("{array:#x} is not a CUDA array")),
    })
}

/// The device address of byte `w_offset` of row `h_offset` of an array,
/// its row bytes, and whether `width` bytes of `height` rows fit there.
fn array_at(d: &Device, array: u64, w_offset: usize, h_offset: usize, width: usize, height: usize) -> Result<(u64, usize), (CudaError, String)> {
    let a = d.array(array).ok_or((CudaError::InvalidValue, format!("{array:#x} is not a CUDA array")))?;
    let row = (a.size[0] * a.texel) as usize;
    if w_offset + width > row || h_offset + height > a.size[1] as usize {
        return Err((CudaError::InvalidValue, format!("{width} bytes x {height} rows at ({w_offset}, {h_offset}) of a {} x {} array of {}-byte texels", a.size[0], a.size[1], a.texel)));
    }
    Ok((array + (h_offset * row + w_offset) as u64, row))
}

// cudaMemcpy2D's own arguments, and the device.
#[allow(clippy::too_many_arguments)]
unsafe fn copy_2d(d: &mut Device, dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) -> Result<Result<(), (CudaError, String)>, Fatal> {
    if width > dpitch || width > spitch {
        return bad(CudaError::InvalidValue, format!("width {width} is more than a pitch ({dpitch}, {spitch})"));
    }
    // One record of the whole copy to the host, rows packed.
    let mut rows = Vec::new();
    for row in 0..height {
        let r = copy_rows(d, (dst as *mut u8).add(row * dpitch) as *mut c_void, (src as *const u8).add(row * spitch) as *const c_void, width, kind, Some(&mut rows))?;
        if r.is_err() {
            return Ok(r);
        }
    }
    if !rows.is_empty() {
        d.record_d2h(&rows)?;
    }
    Ok(Ok(()))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DToArray(dst: u64, w_offset: usize, h_offset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) -> Error {
    api("cudaMemcpy2DToArray", |d| match array_at(d, dst, w_offset, h_offset, width, height) {
        Ok((at, row)) => copy_2d(d, at as *mut c_void, row, src, spitch, width, height, kind),
        Err(e) => Ok(Err(e)),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DFromArray(dst: *mut c_void, dpitch: usize, src: u64, w_offset: usize, h_offset: usize, width: usize, height: usize, kind: c_int) -> Error {
    api("cudaMemcpy2DFromArray", |d| match array_at(d, src, w_offset, h_offset, width, height) {
        Ok((at, row)) => copy_2d(d, dst, dpitch, at as *const c_void, row, width, height, kind),
        Err(e) => Ok(Err(e)),
    })
}

/// `count` bytes from row `h_offset`, byte `w_offset` on (across rows).
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArray(dst: u64, w_offset: usize, h_offset: usize, src: *const c_void, count: usize, kind: c_int) -> Error {
    api("cudaMemcpyToArray", |d| match array_at(d, dst, w_offset, h_offset, 0, 0) {
        Ok((at, _)) if d.bytes(at, count as u64).is_ok() => copy(d, at as *mut c_void, src, count, kind),
        Ok(_) => bad(CudaError::InvalidValue, format!("{count} bytes run past the array")),
        Err(e) => Ok(Err(e)),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArray(dst: *mut c_void, src: u64, w_offset: usize, h_offset: usize, count: usize, kind: c_int) -> Error {
    api("cudaMemcpyFromArray", |d| match array_at(d, src, w_offset, h_offset, 0, 0) {
        Ok((at, _)) if d.bytes(at, count as u64).is_ok() => copy(d, dst, at as *const c_void, count, kind),
        Ok(_) => bad(CudaError::InvalidValue, format!("{count} bytes run past the array")),
        Err(e) => Ok(Err(e)),
    })
}

unsafe fn field<T: Copy>(base: *const u8, at: usize) -> T {
    std::ptr::read_unaligned(base.add(at) as *const T)
}

/// A texture object over linear or pitched 2D device memory (CUDA arrays
/// are not modelled).
#[no_mangle]
pub unsafe extern "C" fn cudaCreateTextureObject(obj: *mut u64, res: *const c_void, tex: *const c_void, view: *const c_void) -> Error {
    use crate::props::offsets::*;
    use kernel::texture::{Address, Filter, ReadMode, Texture};
    api("cudaCreateTextureObject", |d| {
        if obj.is_null() || res.is_null() || tex.is_null() {
            return bad(CudaError::InvalidValue, "a null pointer");
        }
        if !view.is_null() {
            return Err(unsupported("cudaCreateTextureObject with a resource view".into()));
        }
        let (res, tex) = (res as *const u8, tex as *const u8);
        let kind: c_int = field(res, RES_TYPE);
        // cudaResourceTypeArray, cudaResourceTypeLinear, cudaResourceTypePitch2D.
        let (base, desc, size) = match kind {
            0 => {
                let handle: u64 = field(res, RES_DEV_PTR);
                match d.array(handle) {
                    Some(a) => (handle, a.desc, a.size),
                    None => return bad(CudaError::InvalidValue, format!("{handle:#x} is not a CUDA array")),
                }
            }
            2 | 3 => {
                let desc: ChannelFormatDesc = field(res, RES_DESC);
                let texel = texel_format(&desc)?.texel_bytes();
                let size = if kind == 2 {
                    [field::<usize>(res, RES_LINEAR_SIZE) as u64 / texel, 1, 1]
                } else {
                    let (w, h, pitch) = (field::<usize>(res, RES_PITCH_WIDTH) as u64, field::<usize>(res, RES_PITCH_HEIGHT) as u64, field::<usize>(res, RES_PITCH_PITCH) as u64);
                    if pitch != w * texel {
                        return Err(unsupported(format!("a pitched texture whose pitch ({pitch} bytes) is not its width ({w} texels of {texel} bytes)")));
                    }
                    [w, h, 1]
                };
                (field::<u64>(res, RES_DEV_PTR), desc, size)
            }
            k => return Err(unsupported(format!("a texture over resource type {k} (mipmapped arrays are not modelled)"))),
        };
        let format = texel_format(&desc)?;
        let (elem, channels, texel) = (format.elem, format.channels, format.texel_bytes());
        if d.bytes(base, size.iter().product::<u64>() * texel).is_err() || size.contains(&0) {
            return bad(CudaError::InvalidValue, format!("the texture's {size:?} texels at {base:#x} are not inside one device allocation"));
        }
        let modes: [c_int; 3] = field(tex, TEX_ADDRESS_MODE);
        let dims = if size[1] > 1 { 2 } else { 1 };
        if modes[..dims].iter().any(|&m| m != modes[0]) {
            return Err(unsupported(format!("address modes {:?} that differ between dimensions", &modes[..dims])));
        }
        let border: [f32; 4] = field(tex, TEX_BORDER_COLOR);
        let address = match modes[0] {
            0 => Address::Wrap,
            1 => Address::Clamp,
            2 => Address::Mirror,
            3 if border == [0.0; 4] => Address::Border,
            3 => return Err(unsupported(format!("border colour {border:?} (zero is modelled)"))),
            m => return bad(CudaError::InvalidValue, format!("address mode {m}")),
        };
        let filter = if field::<c_int>(tex, TEX_FILTER_MODE) == 1 { Filter::Linear } else { Filter::Point };
        let read = if field::<c_int>(tex, TEX_READ_MODE) == 1 { ReadMode::NormalizedFloat } else { ReadMode::Element };
        let normalized = field::<c_int>(tex, TEX_NORMALIZED) != 0;
        let t = Texture { name: String::new(), base, elem, channels, size, filter, address, normalized, read };
        *obj = d.create_texture(t);
        Ok(Ok(()))
    })
}

/// Texture objects live as long as the process (a handle is never reused).
#[no_mangle]
pub extern "C" fn cudaDestroyTextureObject(obj: u64) -> Error {
    api("cudaDestroyTextureObject", |d| Ok(if d.is_texture(obj) { Ok(()) } else { Err((CudaError::InvalidValue, format!("{obj:#x} is not a texture object"))) }))
}

/// Profiling ranges: the whole run is measured; markers change nothing.
#[no_mangle]
pub extern "C" fn cudaProfilerStart() -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaProfilerStop() -> Error {
    0
}

// ---- errors ----

#[no_mangle]
pub extern "C" fn cudaGetLastError() -> Error {
    with("cudaGetLastError", |d| Ok(std::mem::replace(&mut d.last_error, CudaError::Success) as Error))
}

#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> Error {
    with("cudaPeekAtLastError", |d| Ok(d.last_error as Error))
}

#[no_mangle]
pub extern "C" fn cudaGetErrorString(e: Error) -> *const c_char {
    static STRINGS: OnceLock<Mutex<std::collections::HashMap<i32, std::ffi::CString>>> = OnceLock::new();
    let mut m = STRINGS.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    m.entry(e).or_insert_with(|| std::ffi::CString::new(CudaError::describe(e)).expect("no NUL")).as_ptr()
}

#[no_mangle]
pub extern "C" fn cudaGetErrorName(e: Error) -> *const c_char {
    static NAMES: OnceLock<Mutex<std::collections::HashMap<i32, std::ffi::CString>>> = OnceLock::new();
    let name = CudaError::from_code(e).map(CudaError::name).unwrap_or("cudaErrorUnknown");
    let mut m = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    m.entry(e).or_insert_with(|| std::ffi::CString::new(name).expect("no NUL")).as_ptr()
}

// ---- events and streams ----

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreate(event: *mut Event) -> Error {
    *event = with("cudaEventCreate", |d| Ok(d.create_event())) as Event;
    0
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateWithFlags(event: *mut Event, _flags: c_uint) -> Error {
    cudaEventCreate(event)
}

#[no_mangle]
pub extern "C" fn cudaEventRecord(event: Event, _stream: Stream) -> Error {
    api("cudaEventRecord", |d| Ok(d.record_event(event as usize).map_err(|e| (e, format!("{event:p} is not an event")))))
}

#[no_mangle]
pub extern "C" fn cudaEventSynchronize(_event: Event) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaEventQuery(_event: Event) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaEventDestroy(event: Event) -> Error {
    api("cudaEventDestroy", |d| Ok(d.destroy_event(event as usize).map_err(|e| (e, format!("{event:p} is not an event")))))
}

/// Simulated milliseconds between the two records (0 under the
/// functional model, which has no time).
#[no_mangle]
pub unsafe extern "C" fn cudaEventElapsedTime(ms: *mut f32, start: Event, end: Event) -> Error {
    api("cudaEventElapsedTime", |d| match d.elapsed_ms(start as usize, end as usize) {
        Ok(t) => {
            *ms = t;
            Ok(Ok(()))
        }
        Err(e) => bad(e, "an event that does not exist or was not recorded"),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreate(stream: *mut Stream) -> Error {
    *stream = with("cudaStreamCreate", |d| Ok(d.create_stream())) as Stream;
    0
}

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(stream: *mut Stream, _flags: c_uint) -> Error {
    cudaStreamCreate(stream)
}

#[no_mangle]
pub extern "C" fn cudaStreamDestroy(_stream: Stream) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaStreamSynchronize(_stream: Stream) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaStreamQuery(_stream: Stream) -> Error {
    0
}

#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent(_stream: Stream, _event: Event, _flags: c_uint) -> Error {
    0
}
