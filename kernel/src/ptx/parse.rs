//! The PTX parser: module directives, variable declarations, `.entry` and
//! `.func` bodies, instructions to the typed [`Inst`] with virtual registers.
//!
//! Every error names `file:line:column` and the construct. What is outside the
//! supported subset is an error, never skipped; what carries no semantics for
//! execution (`.loc`, `.file`, `.pragma`, `.section` debug data, cache
//! operators such as `.ca`/`.nc`, memory-order qualifiers) is accepted and
//! ignored.

use super::lex::{lex, Tok, Token};
use crate::error::ParseError;
use crate::inst::*;
use crate::memory::{CONST_WINDOW, DYN_SHARED_MARK, GLOBAL_SYMBOLS_BASE, LOCAL_WINDOW, SHARED_WINDOW, WINDOW_BYTES};
use std::collections::HashMap;

/// A variable in a state space (module or function scope).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub space: Space,
    pub align: u32,
    pub elem: Ty,
    /// Bytes (0 for an `.extern` array without size).
    pub size: u64,
    /// Initial bytes (little-endian), if given.
    pub init: Option<Vec<u8>>,
    pub is_extern: bool,
    /// Address in its own state space (global symbols: device address;
    /// shared/local/const: offset). Shared variables get theirs per kernel.
    pub addr: u64,
    pub line: u32,
    pub col: u32,
}

/// A `.param` of an entry or function.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub name: String,
    /// Element type (`.b8` for byte arrays such as struct parameters).
    pub ty: Ty,
    /// Array length (`None` for a scalar).
    pub array: Option<u32>,
    pub align: u32,
    pub offset: u32,
    pub size: u32,
}

/// A virtual register.
#[derive(Clone, Debug, PartialEq)]
pub struct VRegInfo {
    pub name: String,
    pub width: RegWidth,
    /// Declared width in bits (1 for predicates).
    pub bits: u32,
}

/// One `.entry` or `.func`, with virtual registers.
#[derive(Clone, Debug)]
pub struct ParsedFunc {
    pub name: String,
    pub is_entry: bool,
    pub params: Vec<ParamDecl>,
    pub param_bytes: u32,
    pub insts: Vec<Inst>,
    pub vregs: Vec<VRegInfo>,
    /// Shared variables the function uses, with their offsets.
    pub shared: Vec<VarDecl>,
    /// Static shared memory bytes.
    pub shared_bytes: u32,
    /// The function uses `.extern .shared` (dynamic) memory, placed at
    /// `shared_bytes` rounded up to this alignment.
    pub dynamic_shared_align: Option<u32>,
    /// `.local` bytes per thread.
    pub local_bytes: u32,
    /// Labels and the instruction index each names.
    pub labels: Vec<(String, u32)>,
    pub line: u32,
    /// A `.func`'s return values, in its local frame after its parameters
    /// (a `.func`'s parameters are local too: `offset` is in its frame).
    pub rets: Vec<ParamDecl>,
    pub local_refs: Vec<LocalRef>,
    /// Calls not yet inlined (empty once [`parse`] returns).
    pub calls: Vec<CallSite>,
}

/// A parsed PTX module.
#[derive(Clone, Debug)]
pub struct ParsedModule {
    pub file: String,
    pub version: (u32, u32),
    pub target: String,
    pub address_size: u32,
    pub funcs: Vec<ParsedFunc>,
    /// Module-scope `.global` variables (device addresses from
    /// [`GLOBAL_SYMBOLS_BASE`]).
    pub globals: Vec<VarDecl>,
    /// Module-scope `.const` variables (offsets in the constant bank).
    pub consts: Vec<VarDecl>,
    pub const_bytes: u64,
    /// End of the `.global` variables, as an offset from `GLOBAL_SYMBOLS_BASE`.
    pub global_bytes: u64,
    /// Texture references (`.global .texref t;`), bound by name at launch.
    pub texrefs: Vec<String>,
}

/// Parse PTX text. `file` names the source in errors.
pub fn parse(src: &str, file: &str) -> Result<ParsedModule, ParseError> {
    parse_after(src, file, 0)
}

/// [`parse`], the module's `.global` variables placed from
/// `GLOBAL_SYMBOLS_BASE + symbols_offset` (after those of modules loaded
/// before it, as a CUDA program's translation units share one device).
pub fn parse_after(src: &str, file: &str, symbols_offset: u64) -> Result<ParsedModule, ParseError> {
    let toks = lex(src).map_err(|(line, col, msg)| ParseError { file: file.into(), line, col, msg })?;
    let mut p = Parser {
        t: &toks,
        i: 0,
        file,
        globals: Vec::new(),
        consts: Vec::new(),
        mod_shared: Vec::new(),
        texrefs: Vec::new(),
        global_next: symbols_offset,
        const_next: 0,
        end: (src.lines().count().max(1) as u32, 1),
    };
    p.module()
}

#[derive(Clone, Debug)]
enum Raw {
    Word(String),
    Num { text: String, neg: bool },
    Vec(Vec<(Raw, (u32, u32))>),
    Addr { base: Option<String>, off: i64 },
    Pipe(String, String),
    Not(String),
    /// `[t, {c, ...}]`: a texture and its coordinates.
    Tex(String, Vec<(Raw, (u32, u32))>),
}

/// Symbols visible in a function: name -> (space, address in that space).
#[derive(Clone, Copy, Debug)]
struct Sym {
    space: Space,
    addr: u64,
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, u32>,
    /// Call-site `.param` variables of this `{ }` block (in local memory).
    syms: HashMap<String, (Sym, u64)>,
    /// `%r<46>`: (prefix, count, width, bits).
    ranges: Vec<(String, u32, RegWidth, u32)>,
}

#[derive(Default)]
struct Func {
    vregs: Vec<VRegInfo>,
    scopes: Vec<Scope>,
    syms: HashMap<String, Sym>,
    labels: HashMap<String, u32>,
    label_list: Vec<(String, u32)>,
    fixups: Vec<(usize, String, u32, u32)>,
    insts: Vec<Inst>,
    shared: Vec<VarDecl>,
    shared_next: u64,
    dyn_align: Option<u32>,
    local_next: u64,
    params: Vec<ParamDecl>,
    param_next: u32,
    is_entry: bool,
    /// Instructions whose addresses are relative to DYN_SHARED_MARK.
    dyn_refs: Vec<usize>,
    /// Where a local variable's address was written into an instruction
    /// (relocated when the function is inlined into a caller).
    local_refs: Vec<LocalRef>,
    /// Return values of a `.func` (in its local frame, after the parameters).
    rets: Vec<ParamDecl>,
    /// `call` placeholders, replaced by the callee's body in [`inline_calls`].
    calls: Vec<CallSite>,
}

/// An instruction operand that holds a local variable's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalRef {
    /// `addr.off` of instruction `.0`.
    Addr(usize),
    /// `src[.1]` of instruction `.0`.
    Src(usize, usize),
}

/// A `call` in a function body: the instruction at `inst` stands for it
/// until the callee is inlined.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSite {
    pub inst: usize,
    pub callee: String,
    /// The caller's `.param` variables passed and received: (local offset, bytes).
    pub args: Vec<(u64, u64)>,
    pub rets: Vec<(u64, u64)>,
    pub line: u32,
    pub col: u32,
}

struct Parser<'a> {
    t: &'a [Token],
    i: usize,
    file: &'a str,
    globals: Vec<VarDecl>,
    consts: Vec<VarDecl>,
    mod_shared: Vec<VarDecl>,
    texrefs: Vec<String>,
    global_next: u64,
    const_next: u64,
    end: (u32, u32),
}

type R<T> = Result<T, ParseError>;

fn align_up(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a) * a
    }
}

/// Opcodes of the subset (their modifiers are checked per opcode).
const SUPPORTED: &[&str] = &[
    "mov", "ld", "ldu", "st", "atom", "red", "cvta", "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "neg", "abs", "not",
    "cnot", "popc", "clz", "brev", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "and", "or", "xor", "shl", "shr", "bfe", "bfi",
    "prmt", "shf", "copysign", "testp", "setp", "selp", "slct", "cvt", "bra", "bar", "barrier", "membar", "fence", "ret", "exit",
    "shfl", "vote", "activemask", "set", "tex", "mul24", "mad24", "sad", "prefetch", "prefetchu", "discard", "addc", "subc", "madc",
];

/// Cache operators, memory-order and scope qualifiers: no effect on values.
const IGNORED_MEM_MODS: &[&str] = &[
    "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "volatile", "relaxed", "acquire", "release", "acq_rel", "weak", "sc", "sys", "gpu",
    "cta", "aligned",
];

impl<'a> Parser<'a> {
    fn pos(&self) -> (u32, u32) {
        self.t.get(self.i).map_or(self.end, |t| (t.line, t.col))
    }
    fn err_at<T>(&self, pos: (u32, u32), msg: impl Into<String>) -> R<T> {
        Err(ParseError { file: self.file.into(), line: pos.0, col: pos.1, msg: crate::error::clip(&msg.into()) })
    }
    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        self.err_at(self.pos(), msg)
    }
    fn peek(&self) -> Option<&'a Tok> {
        self.t.get(self.i).map(|t| &t.tok)
    }
    fn peek_word(&self) -> Option<&'a str> {
        match self.peek() {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char, what: &str) -> R<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            let found = self.describe();
            self.err(format!("expected `{c}` {what}, found {found}"))
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            None => "end of file".into(),
            Some(Tok::Word(w)) | Some(Tok::Num(w)) => format!("`{w}`"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Punct(c)) => format!("`{c}`"),
        }
    }
    fn word(&mut self, what: &str) -> R<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                self.i += 1;
                Ok(w.clone())
            }
            _ => {
                let found = self.describe();
                self.err(format!("expected {what}, found {found}"))
            }
        }
    }
    fn number_u64(&mut self, what: &str) -> R<u64> {
        match self.peek() {
            Some(Tok::Num(n)) => {
                let pos = self.pos();
                self.i += 1;
                match parse_int(n) {
                    Some(v) if v >= 0 && v <= u64::MAX as i128 => Ok(v as u64),
                    _ => self.err_at(pos, format!("bad {what} `{n}`")),
                }
            }
            _ => {
                let found = self.describe();
                self.err(format!("expected {what}, found {found}"))
            }
        }
    }
    /// Skip the rest of the current source line (`.loc`, `.file`, `.version` ...).
    fn skip_line(&mut self, line: u32) {
        while let Some(t) = self.t.get(self.i) {
            if t.line != line {
                break;
            }
            self.i += 1;
        }
    }
    fn skip_braces(&mut self) -> R<()> {
        let start = self.pos();
        self.expect_punct('{', "to open the section")?;
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return self.err_at(start, "unterminated `{` block"),
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn module(&mut self) -> R<ParsedModule> {
        let mut version = None;
        let mut target = None;
        let mut address_size = 64;
        let mut funcs: Vec<ParsedFunc> = Vec::new();
        while let Some(tok) = self.peek() {
            let pos = self.pos();
            let w = match tok {
                Tok::Word(w) => w.as_str(),
                _ => return self.err(format!("expected a directive, found {}", self.describe())),
            };
            match w {
                ".version" => {
                    self.i += 1;
                    let v = match self.peek() {
                        Some(Tok::Num(n)) => n.clone(),
                        _ => return self.err(format!("expected a version number, found {}", self.describe())),
                    };
                    let parsed = v.split_once('.').and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
                    match parsed {
                        Some((maj, min)) if (1..=9).contains(&maj) => version = Some((maj, min)),
                        _ => return self.err(format!("bad .version `{v}`")),
                    }
                    self.skip_line(pos.0);
                }
                ".target" => {
                    self.i += 1;
                    target = Some(self.word("a target such as sm_52")?);
                    self.skip_line(pos.0);
                }
                ".address_size" => {
                    self.i += 1;
                    let n = self.number_u64("address size")?;
                    if n != 64 && n != 32 {
                        return self.err_at(pos, format!(".address_size {n}: must be 32 or 64"));
                    }
                    address_size = n as u32;
                }
                ".file" | ".loc" => {
                    self.i += 1;
                    self.skip_line(pos.0);
                }
                ".section" => {
                    self.i += 1;
                    self.word("a section name")?;
                    self.skip_braces()?;
                }
                ".pragma" => {
                    self.i += 1;
                    self.pragma()?;
                }
                ".visible" | ".extern" | ".weak" | ".common" | ".entry" | ".func" | ".global" | ".const" | ".shared" | ".local" => {
                    let mut is_extern = false;
                    while let Some(l @ (".visible" | ".extern" | ".weak" | ".common")) = self.peek_word() {
                        is_extern |= l == ".extern";
                        self.i += 1;
                    }
                    let texref = self.peek_word() == Some(".global") && self.t.get(self.i + 1).map(|t| &t.tok) == Some(&Tok::Word(".texref".into()));
                    match self.peek_word() {
                        _ if texref => {
                            self.i += 2;
                            self.texref_names()?;
                        }
                        Some(".entry") | Some(".func") => {
                            if let Some(f) = self.function(is_extern)? {
                                if funcs.iter().any(|g| g.name == f.name) {
                                    return self.err_at(pos, format!("function `{}` defined twice", f.name));
                                }
                                funcs.push(f);
                            }
                        }
                        Some(".global") | Some(".const") | Some(".shared") => {
                            let decls = self.var_decl(is_extern)?;
                            for mut d in decls {
                                self.place_module_var(&mut d)?;
                            }
                        }
                        Some(".local") => return self.err("module-scope .local variables are not supported"),
                        _ => return self.err(format!("expected .entry, .func or a variable after linkage, found {}", self.describe())),
                    }
                }
                ".tex" => {
                    // `.tex .u32 t;` (PTX 1.x): a texture reference.
                    self.i += 1;
                    if matches!(self.peek_word(), Some(".u32" | ".u64" | ".b32" | ".b64")) {
                        self.i += 1;
                    }
                    self.texref_names()?;
                }
                ".texref" | ".samplerref" | ".surfref" => {
                    return self.err(format!("`{w}`: only `.global .texref` textures are supported (not samplers or surfaces)"));
                }
                _ => return self.err(format!("unsupported module directive `{w}`")),
            }
        }
        let Some(version) = version else {
            return self.err_at((1, 1), "missing .version directive");
        };
        inline_calls(&mut funcs, self.file)?;
        Ok(ParsedModule {
            file: self.file.into(),
            version,
            target: target.unwrap_or_default(),
            address_size,
            funcs,
            globals: std::mem::take(&mut self.globals),
            consts: std::mem::take(&mut self.consts),
            const_bytes: self.const_next,
            global_bytes: self.global_next,
            texrefs: std::mem::take(&mut self.texrefs),
        })
    }

    /// `name (, name)* ;` of a texture reference declaration.
    fn texref_names(&mut self) -> R<()> {
        loop {
            let pos = self.pos();
            let name = self.word("a texture reference name")?;
            if self.texrefs.contains(&name) {
                return self.err_at(pos, format!("texture `{name}` declared twice"));
            }
            self.texrefs.push(name);
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';', "after the texture declaration")
    }

    fn pragma(&mut self) -> R<()> {
        match self.peek() {
            Some(Tok::Str(_)) => self.i += 1,
            _ => return self.err(format!("expected a string after .pragma, found {}", self.describe())),
        }
        while matches!(self.peek(), Some(Tok::Punct(','))) {
            self.i += 1;
            match self.peek() {
                Some(Tok::Str(_)) => self.i += 1,
                _ => return self.err(format!("expected a string, found {}", self.describe())),
            }
        }
        self.expect_punct(';', "after .pragma")
    }

    fn place_module_var(&mut self, d: &mut VarDecl) -> R<()> {
        let pos = (d.line, d.col);
        let exists = |v: &[VarDecl]| v.iter().any(|x| x.name == d.name);
        if exists(&self.globals) || exists(&self.consts) || exists(&self.mod_shared) {
            return self.err_at(pos, format!("variable `{}` declared twice", d.name));
        }
        match d.space {
            Space::Global => {
                if d.is_extern {
                    return self.err_at(pos, format!("`.extern .global {}`: external global variables are not supported", d.name));
                }
                let off = align_up(self.global_next, d.align.max(1) as u64);
                d.addr = GLOBAL_SYMBOLS_BASE + off;
                self.global_next = off + d.size;
                if self.global_next > crate::memory::GLOBAL_SYMBOLS_LIMIT {
                    return self.err_at(pos, "module-scope .global variables exceed 128 MiB");
                }
                self.globals.push(d.clone());
            }
            Space::Const => {
                if d.is_extern {
                    return self.err_at(pos, format!("`.extern .const {}` is not supported", d.name));
                }
                let off = align_up(self.const_next, d.align.max(1) as u64);
                d.addr = off;
                self.const_next = off + d.size;
                if self.const_next > WINDOW_BYTES {
                    return self.err_at(pos, "module-scope .const variables exceed 16 MiB");
                }
                self.consts.push(d.clone());
            }
            Space::Shared => {
                if d.init.is_some() {
                    return self.err_at(pos, "shared variables cannot have initializers");
                }
                self.mod_shared.push(d.clone());
            }
            _ => return self.err_at(pos, "unsupported module-scope state space"),
        }
        Ok(())
    }

    /// `.global/.const/.shared/.local [.align N] [.vN] .type name[N][M] [= init] (, name ...)* ;`
    fn var_decl(&mut self, is_extern: bool) -> R<Vec<VarDecl>> {
        let pos = self.pos();
        let sp = self.word("a state space")?;
        let space = match sp.as_str() {
            ".global" => Space::Global,
            ".const" => Space::Const,
            ".shared" => Space::Shared,
            ".local" => Space::Local,
            ".param" => Space::Param,
            _ => return self.err_at(pos, format!("unsupported state space `{sp}`")),
        };
        let mut align = None;
        let mut vec = 1u64;
        let mut elem = None;
        let mut is_extern = is_extern;
        while let Some(w) = self.peek_word() {
            match w {
                ".align" => {
                    self.i += 1;
                    let a = self.number_u64("alignment")?;
                    if !a.is_power_of_two() || a > 4096 {
                        return self.err(format!(".align {a}: must be a power of two up to 4096"));
                    }
                    align = Some(a as u32);
                }
                ".v2" => {
                    self.i += 1;
                    vec = 2;
                }
                ".v4" => {
                    self.i += 1;
                    vec = 4;
                }
                ".extern" => {
                    self.i += 1;
                    is_extern = true;
                }
                w if w.starts_with('.') => {
                    let tpos = self.pos();
                    self.i += 1;
                    match Ty::parse(&w[1..]) {
                        Some(Ty::Pred) | None => return self.err_at(tpos, format!("unsupported variable type `{w}`")),
                        Some(t) => elem = Some(t),
                    }
                    break;
                }
                _ => break,
            }
        }
        let Some(elem) = elem else {
            return self.err(format!("expected a variable type such as .b8 or .f32, found {}", self.describe()));
        };
        let esize = elem.bytes() as u64 * vec;
        let align = align.unwrap_or(esize as u32);
        let mut out = Vec::new();
        loop {
            let npos = self.pos();
            let name = self.word("a variable name")?;
            let mut count: u64 = 1;
            let mut unsized_ = false;
            while self.eat_punct('[') {
                if self.eat_punct(']') {
                    unsized_ = true;
                    continue;
                }
                let n = self.number_u64("array length")?;
                self.expect_punct(']', "after the array length")?;
                count = match count.checked_mul(n) {
                    Some(c) if c <= 1 << 32 => c,
                    _ => return self.err_at(npos, format!("variable `{name}` is too large")),
                };
            }
            let mut init = None;
            if self.eat_punct('=') {
                init = Some(self.initializer(elem)?);
            }
            let mut size = if unsized_ { 0 } else { count * esize };
            if let Some(bytes) = &init {
                if unsized_ {
                    size = bytes.len() as u64;
                } else if bytes.len() as u64 > size {
                    return self.err_at(npos, format!("`{name}`: {} initializer bytes for a {size}-byte variable", bytes.len()));
                }
            }
            if unsized_ && init.is_none() && !(is_extern && space == Space::Shared) {
                return self.err_at(npos, format!("`{name}[]` needs a size or an initializer"));
            }
            if init.is_some() && !matches!(space, Space::Global | Space::Const) {
                return self.err_at(npos, format!("`{name}`: only .global and .const variables take initializers"));
            }
            out.push(VarDecl { name, space, align, elem, size, init, is_extern, addr: 0, line: npos.0, col: npos.1 });
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';', "after the variable declaration")?;
        Ok(out)
    }

    /// `= value` or `= { v, v, ... }` (nested braces flattened), little-endian bytes.
    fn initializer(&mut self, elem: Ty) -> R<Vec<u8>> {
        let mut bytes = Vec::new();
        let mut depth = 0;
        loop {
            if self.eat_punct('{') {
                depth += 1;
                continue;
            }
            let pos = self.pos();
            let neg = self.eat_punct('-');
            let text = match self.peek() {
                Some(Tok::Num(n)) => n.clone(),
                Some(Tok::Word(w)) => return self.err_at(pos, format!("initializer `{w}`: symbolic initializers are not supported")),
                _ => return self.err(format!("expected an initializer value, found {}", self.describe())),
            };
            self.i += 1;
            let v = imm_bits(&text, neg, elem).map_err(|m| ParseError { file: self.file.into(), line: pos.0, col: pos.1, msg: m })?;
            bytes.extend_from_slice(&v.to_le_bytes()[..elem.bytes() as usize]);
            while depth > 0 && self.is_punct('}') {
                self.i += 1;
                depth -= 1;
            }
            if depth == 0 {
                break;
            }
            if !self.eat_punct(',') {
                return self.err(format!("expected `,` or `}}` in the initializer, found {}", self.describe()));
            }
        }
        Ok(bytes)
    }

    fn param_list(&mut self, f: &mut Func) -> R<()> {
        self.expect_punct('(', "to open the parameter list")?;
        if self.eat_punct(')') {
            return Ok(());
        }
        loop {
            let pos = self.pos();
            let d = self.word("`.param`")?;
            if d != ".param" && d != ".reg" {
                return self.err_at(pos, format!("expected `.param`, found `{d}`"));
            }
            if d == ".reg" {
                return self.err_at(pos, "`.reg` parameters are not supported");
            }
            let mut align = None;
            let mut ty = None;
            while let Some(w) = self.peek_word() {
                if w == ".align" {
                    self.i += 1;
                    let a = self.number_u64("alignment")?;
                    if !a.is_power_of_two() || a > 256 {
                        return self.err(format!(".align {a}: must be a power of two up to 256"));
                    }
                    align = Some(a as u32);
                } else if w == ".ptr" || w.starts_with(".ptr.") || matches!(w, ".global" | ".shared" | ".const" | ".local") {
                    // `.param .u64 .ptr.global.align 4 name` (PTX 2.2+ pointer hints).
                    self.i += 1;
                    if self.peek_word() == Some(".align") {
                        self.i += 1;
                        self.number_u64("alignment")?;
                    }
                } else if let Some(t) = w.strip_prefix('.').and_then(Ty::parse) {
                    if t == Ty::Pred {
                        return self.err("`.pred` parameters are not supported");
                    }
                    self.i += 1;
                    ty = Some(t);
                } else {
                    break;
                }
            }
            let Some(ty) = ty else {
                return self.err(format!("expected a parameter type, found {}", self.describe()));
            };
            let npos = self.pos();
            let name = self.word("a parameter name")?;
            let mut array = None;
            if self.eat_punct('[') {
                let n = self.number_u64("array length")?;
                if n == 0 || n > 4096 {
                    return self.err_at(npos, format!("parameter `{name}`: array length {n} out of range"));
                }
                self.expect_punct(']', "after the array length")?;
                array = Some(n as u32);
            }
            let align = align.unwrap_or(ty.bytes());
            let size = ty.bytes() * array.unwrap_or(1);
            let offset = align_up(f.param_next as u64, align as u64) as u32;
            f.param_next = offset + size;
            if f.syms.contains_key(&name) {
                return self.err_at(npos, format!("parameter `{name}` declared twice"));
            }
            f.syms.insert(name.clone(), Sym { space: Space::Param, addr: offset as u64 });
            f.params.push(ParamDecl { name, ty, array, align, offset, size });
            if self.eat_punct(')') {
                return Ok(());
            }
            self.expect_punct(',', "between parameters")?;
        }
    }

    /// `.entry name (params) [perf directives] { body }` or `.func [(ret)] name (params) { body }`.
    /// A prototype (`;` instead of a body) gives `None`.
    fn function(&mut self, is_extern: bool) -> R<Option<ParsedFunc>> {
        let start = self.pos();
        let kind = self.word(".entry or .func")?;
        let is_entry = kind == ".entry";
        let mut f = Func { is_entry, ..Default::default() };
        let mut rets = Vec::new();
        if !is_entry && self.is_punct('(') {
            // Return parameters: addressable as .param symbols in the body.
            self.param_list(&mut f)?;
            rets = std::mem::take(&mut f.params);
        }
        let name = self.word("a function name")?;
        if self.is_punct('(') {
            let ret_syms = f.syms.clone();
            f.param_next = 0;
            f.syms.clear();
            self.param_list(&mut f)?;
            // Return values live after the parameters.
            let base = align_up(f.param_next as u64, 8);
            for (n, s) in ret_syms {
                f.syms.entry(n).or_insert(Sym { space: Space::Param, addr: base + s.addr });
            }
            for r in &mut rets {
                r.offset += base as u32;
            }
        }
        if !is_entry {
            // A `.func`'s parameters and return values live in its local
            // frame: its callers pass them there (see `inline_calls`).
            for s in f.syms.values_mut() {
                s.space = Space::Local;
            }
            f.local_next = f.params.iter().chain(&rets).map(|p| p.offset as u64 + p.size as u64).max().unwrap_or(0);
            f.rets = rets;
        }
        // Performance directives before the body.
        loop {
            match self.peek_word() {
                Some(".maxntid")
                | Some(".reqntid")
                | Some(".minnctapersm")
                | Some(".maxnreg")
                | Some(".maxnctapersm")
                | Some(".noreturn") => {
                    self.i += 1;
                    while matches!(self.peek(), Some(Tok::Num(_)) | Some(Tok::Punct(','))) {
                        self.i += 1;
                    }
                }
                Some(".pragma") => {
                    self.i += 1;
                    self.pragma()?;
                }
                _ => break,
            }
        }
        if self.eat_punct(';') {
            return Ok(None);
        }
        if is_extern {
            return self.err_at(start, format!("`.extern` function `{name}` has a body"));
        }
        f.scopes.push(Scope::default());
        self.expect_punct('{', "to open the function body")?;
        self.body(&mut f)?;
        let end_pos = self.pos();
        // Labels.
        for (idx, label, line, col) in std::mem::take(&mut f.fixups) {
            match f.labels.get(&label) {
                Some(&t) => {
                    if let Op::Bra { target, .. } = &mut f.insts[idx].op {
                        *target = t;
                    }
                }
                None => return self.err_at((line, col), format!("undefined label `{label}`")),
            }
        }
        // A body that can fall off its end returns there.
        let n = f.insts.len() as u32;
        let needs_ret = f.insts.last().is_none_or(|i| i.falls_through()) || f.labels.values().any(|&t| t == n);
        if needs_ret {
            let (line, col) = (end_pos.0, end_pos.1);
            f.insts.push(Inst::new(Op::Exit, "ret", line, col));
        }
        let shared_bytes = f.shared_next;
        if shared_bytes > DYN_SHARED_MARK {
            return self.err_at(start, format!("`{name}`: static shared memory of {shared_bytes} bytes is more than {DYN_SHARED_MARK}"));
        }
        if let Some(a) = f.dyn_align {
            // Dynamic shared memory follows the static variables.
            let base = align_up(shared_bytes, a as u64);
            let patch = |v: u64| -> u64 {
                // A shared offset or a generic address in the shared window.
                let dynamic = (DYN_SHARED_MARK..WINDOW_BYTES).contains(&v)
                    || (SHARED_WINDOW + DYN_SHARED_MARK..SHARED_WINDOW + WINDOW_BYTES).contains(&v);
                if dynamic {
                    v - DYN_SHARED_MARK + base
                } else {
                    v
                }
            };
            for &k in &f.dyn_refs {
                let inst = &mut f.insts[k];
                for o in inst.src.iter_mut() {
                    if let Opnd::Imm(v) = o {
                        *v = patch(*v);
                    }
                }
                if let Some(a) = &mut inst.addr {
                    if a.base == Opnd::None {
                        a.off = patch(a.off as u64) as i64;
                    }
                }
            }
        }
        Ok(Some(ParsedFunc {
            name,
            is_entry,
            param_bytes: f.param_next,
            params: f.params,
            insts: f.insts,
            vregs: f.vregs,
            shared: f.shared,
            shared_bytes: shared_bytes as u32,
            dynamic_shared_align: f.dyn_align,
            local_bytes: f.local_next as u32,
            labels: f.label_list,
            line: start.0,
            rets: f.rets,
            local_refs: f.local_refs,
            calls: f.calls,
        }))
    }

    /// The statements of a function body up to its closing `}`. Nested
    /// `{ }` scopes are pushed on `f.scopes`, not on the call stack, so no
    /// nesting depth overflows it.
    fn body(&mut self, f: &mut Func) -> R<()> {
        let outer = f.scopes.len() - 1;
        loop {
            let pos = self.pos();
            match self.peek() {
                None => return self.err("unterminated function body: missing `}`"),
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    f.scopes.pop();
                    if f.scopes.len() == outer {
                        return Ok(());
                    }
                }
                Some(Tok::Punct('{')) => {
                    self.i += 1;
                    f.scopes.push(Scope::default());
                }
                Some(Tok::Punct('@')) => self.instruction(f)?,
                Some(Tok::Word(w)) => {
                    let w = w.clone();
                    if self.t.get(self.i + 1).map(|t| &t.tok) == Some(&Tok::Punct(':')) && !w.starts_with('.') {
                        self.i += 2;
                        if f.labels.insert(w.clone(), f.insts.len() as u32).is_some() {
                            return self.err_at(pos, format!("label `{w}` defined twice"));
                        }
                        f.label_list.push((w, f.insts.len() as u32));
                        continue;
                    }
                    match w.as_str() {
                        ".reg" => self.reg_decl(f)?,
                        ".loc" | ".file" => {
                            self.i += 1;
                            self.skip_line(pos.0);
                        }
                        ".pragma" => {
                            self.i += 1;
                            self.pragma()?;
                        }
                        ".shared" | ".local" | ".const" | ".global" => {
                            let decls = self.var_decl(false)?;
                            for d in decls {
                                self.place_func_var(f, d)?;
                            }
                        }
                        ".param" => {
                            for d in self.var_decl(false)? {
                                self.place_call_param(f, d)?;
                            }
                        }
                        w if w.starts_with('.') => return self.err(format!("unsupported directive `{w}` in a function body")),
                        _ => self.instruction(f)?,
                    }
                }
                Some(_) => return self.err(format!("expected an instruction, found {}", self.describe())),
            }
        }
    }

    fn place_func_var(&mut self, f: &mut Func, mut d: VarDecl) -> R<()> {
        let pos = (d.line, d.col);
        if f.syms.contains_key(&d.name) {
            return self.err_at(pos, format!("`{}` declared twice", d.name));
        }
        match d.space {
            Space::Shared => {
                if d.is_extern {
                    f.dyn_align = Some(f.dyn_align.unwrap_or(1).max(d.align));
                    f.syms.insert(d.name.clone(), Sym { space: Space::Shared, addr: u64::MAX });
                } else {
                    let off = align_up(f.shared_next, d.align.max(1) as u64);
                    d.addr = off;
                    f.shared_next = off + d.size;
                    f.syms.insert(d.name.clone(), Sym { space: Space::Shared, addr: off });
                }
                f.shared.push(d);
            }
            Space::Local => {
                let off = self.alloc_local(f, &d)?;
                d.addr = off;
                f.syms.insert(d.name.clone(), Sym { space: Space::Local, addr: off });
            }
            _ => return self.err_at(pos, "function-scope .global/.const variables are not supported"),
        }
        Ok(())
    }

    /// The function's next `.local` offset for `d`.
    fn alloc_local(&self, f: &mut Func, d: &VarDecl) -> R<u64> {
        let off = align_up(f.local_next, d.align.max(1) as u64);
        f.local_next = off + d.size;
        if f.local_next > 1 << 20 {
            return self.err_at((d.line, d.col), "more than 1 MiB of .local memory per thread");
        }
        Ok(off)
    }

    /// A call-site `.param` variable: local memory of the caller, visible
    /// in its `{ }` block.
    fn place_call_param(&mut self, f: &mut Func, d: VarDecl) -> R<()> {
        let off = self.alloc_local(f, &d)?;
        let scope = f.scopes.last_mut().expect("a body has a scope");
        if scope.syms.insert(d.name.clone(), (Sym { space: Space::Local, addr: off }, d.size)).is_some() {
            return self.err_at((d.line, d.col), format!("`{}` declared twice in one scope", d.name));
        }
        Ok(())
    }

    /// `call[.uni] [(ret, ...),] func[, (arg, ...)];`: a placeholder until
    /// [`inline_calls`] puts the callee's body in its place.
    fn call(&mut self, f: &mut Func, guard: Option<Guard>, opos: (u32, u32), opcode: &str) -> R<()> {
        if let Some(m) = opcode.split('.').skip(1).find(|m| *m != "uni") {
            return self.err_at(opos, format!("`{opcode}`: unsupported modifier `.{m}`"));
        }
        let mut rets = Vec::new();
        if self.is_punct('(') {
            rets = self.call_params(f)?;
            self.expect_punct(',', "after the return values")?;
        }
        let npos = self.pos();
        let callee = self.word("the called function")?;
        if Self::lookup_reg(f, &callee).is_some() {
            return self.err_at(npos, format!("`{opcode} {callee}`: indirect calls (function pointers) are not supported"));
        }
        let mut args = Vec::new();
        if self.eat_punct(',') {
            args = self.call_params(f)?;
            if self.eat_punct(',') {
                return self.err_at(npos, format!("`{opcode}`: call targets and prototypes (indirect calls) are not supported"));
            }
        }
        if !self.eat_punct(';') {
            return self.err(format!("expected `;` after the call, found {}", self.describe()));
        }
        let mut i = Inst::new(Op::Membar, opcode, opos.0, opos.1);
        i.guard = guard;
        f.calls.push(CallSite { inst: f.insts.len(), callee, args, rets, line: opos.0, col: opos.1 });
        f.insts.push(i);
        Ok(())
    }

    /// `(p, q, ...)` of a call: call-site `.param` variables as (local offset, bytes).
    fn call_params(&mut self, f: &Func) -> R<Vec<(u64, u64)>> {
        self.expect_punct('(', "to open the call's parameter list")?;
        let mut v = Vec::new();
        if self.eat_punct(')') {
            return Ok(v);
        }
        loop {
            let pos = self.pos();
            let name = match self.peek() {
                Some(Tok::Word(w)) => w.clone(),
                _ => return self.err(format!("expected a .param variable, found {}", self.describe())),
            };
            self.i += 1;
            match f.scopes.iter().rev().find_map(|s| s.syms.get(&name)) {
                Some(&(s, size)) => v.push((s.addr, size)),
                None => return self.err_at(pos, format!("call argument `{name}` is not a .param variable declared at the call")),
            }
            if self.eat_punct(')') {
                return Ok(v);
            }
            self.expect_punct(',', "between call parameters")?;
        }
    }

    fn reg_decl(&mut self, f: &mut Func) -> R<()> {
        self.i += 1;
        let tpos = self.pos();
        let tw = self.word("a register type")?;
        if tw == ".v2" || tw == ".v4" {
            return self.err_at(tpos, "vector registers are not supported");
        }
        let ty = match tw.strip_prefix('.').and_then(Ty::parse) {
            Some(t) => t,
            None => return self.err_at(tpos, format!("unsupported register type `{tw}`")),
        };
        loop {
            let npos = self.pos();
            let name = self.word("a register name")?;
            let Some(scope) = f.scopes.last_mut() else {
                return self.err_at(npos, "register declaration outside a function body");
            };
            if self.eat_punct('<') {
                let n = self.number_u64("register count")?;
                self.expect_punct('>', "after the register count")?;
                if n > 1 << 20 {
                    return self.err_at(npos, format!("`{name}<{n}>`: too many registers"));
                }
                scope.ranges.push((name, n as u32, ty.reg_width(), ty.bits()));
            } else {
                if scope.names.contains_key(&name) {
                    return self.err_at(npos, format!("register `{name}` declared twice in one scope"));
                }
                let id = f.vregs.len() as u32;
                f.vregs.push(VRegInfo { name: name.clone(), width: ty.reg_width(), bits: ty.bits() });
                scope.names.insert(name, id);
            }
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';', "after the register declaration")
    }

    /// Look a register name up through the scopes (innermost first).
    fn lookup_reg(f: &mut Func, name: &str) -> Option<u32> {
        for si in (0..f.scopes.len()).rev() {
            if let Some(&id) = f.scopes[si].names.get(name) {
                return Some(id);
            }
            let mut hit = None;
            for (prefix, count, width, bits) in &f.scopes[si].ranges {
                if let Some(rest) = name.strip_prefix(prefix.as_str()) {
                    if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) && (rest == "0" || !rest.starts_with('0')) {
                        if let Ok(k) = rest.parse::<u32>() {
                            if k < *count {
                                hit = Some((*width, *bits));
                                break;
                            }
                        }
                    }
                }
            }
            if let Some((width, bits)) = hit {
                let id = f.vregs.len() as u32;
                f.vregs.push(VRegInfo { name: name.to_string(), width, bits });
                f.scopes[si].names.insert(name.to_string(), id);
                return Some(id);
            }
        }
        None
    }

    /// One operand.
    fn operand(&mut self) -> R<(Raw, (u32, u32))> {
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Punct('{')) => {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    let o = self.operand()?;
                    if matches!(o.0, Raw::Vec(_) | Raw::Addr { .. }) {
                        return self.err_at(o.1, "nested vector or address operand");
                    }
                    v.push(o);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',', "between vector elements")?;
                }
                Ok((Raw::Vec(v), pos))
            }
            Some(Tok::Punct('[')) => {
                self.i += 1;
                let mut base = None;
                let mut off: i64 = 0;
                let mut first = true;
                // `[t, {c, ...}]`: a texture fetch's operand.
                if let (Some(Tok::Word(w)), Some(Tok::Punct(','))) = (self.peek(), self.t.get(self.i + 1).map(|t| &t.tok)) {
                    let w = w.clone();
                    self.i += 2;
                    let (coords, cpos) = self.operand()?;
                    let Raw::Vec(c) = coords else {
                        return self.err_at(cpos, "expected texture coordinates `{...}`");
                    };
                    self.expect_punct(']', "after the texture coordinates")?;
                    return Ok((Raw::Tex(w, c), pos));
                }
                loop {
                    let tpos = self.pos();
                    // First term: optional `-`; later terms: `+`, `+-` or `-`.
                    let neg = if first || self.eat_punct('+') {
                        self.eat_punct('-')
                    } else if self.eat_punct('-') {
                        true
                    } else {
                        break;
                    };
                    match self.peek() {
                        Some(Tok::Word(w)) if first && !neg => {
                            base = Some(w.clone());
                            self.i += 1;
                        }
                        Some(Tok::Word(w)) => {
                            return self.err_at(tpos, format!("unsupported address term `{w}` (only [reg+imm] and [symbol+imm])"));
                        }
                        Some(Tok::Num(n)) => {
                            let v = match parse_int(n) {
                                Some(v) if v.unsigned_abs() <= u64::MAX as u128 => v,
                                _ => return self.err_at(tpos, format!("bad address offset `{n}`")),
                            };
                            let v = if neg { -v } else { v };
                            off = match i64::try_from(v).ok().and_then(|v| off.checked_add(v)) {
                                Some(o) => o,
                                None => (off as i128 + v) as i64,
                            };
                            self.i += 1;
                        }
                        _ => {
                            return self
                                .err_at(tpos, format!("expected a register, symbol or offset in the address, found {}", self.describe()))
                        }
                    }
                    first = false;
                }
                self.expect_punct(']', "to close the address")?;
                Ok((Raw::Addr { base, off }, pos))
            }
            Some(Tok::Punct('!')) => {
                self.i += 1;
                let w = self.word("a predicate after `!`")?;
                Ok((Raw::Not(w), pos))
            }
            Some(Tok::Punct('-')) => {
                self.i += 1;
                match self.peek() {
                    Some(Tok::Num(n)) => {
                        let n = n.clone();
                        self.i += 1;
                        Ok((Raw::Num { text: n, neg: true }, pos))
                    }
                    _ => self.err(format!("expected a number after `-`, found {}", self.describe())),
                }
            }
            Some(Tok::Num(n)) => {
                let n = n.clone();
                self.i += 1;
                Ok((Raw::Num { text: n, neg: false }, pos))
            }
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.i += 1;
                if self.eat_punct('|') {
                    let q = self.word("a second predicate after `|`")?;
                    return Ok((Raw::Pipe(w, q), pos));
                }
                Ok((Raw::Word(w), pos))
            }
            _ => self.err(format!("expected an operand, found {}", self.describe())),
        }
    }

    fn instruction(&mut self, f: &mut Func) -> R<()> {
        let mut guard = None;
        if self.eat_punct('@') {
            let neg = self.eat_punct('!');
            let gpos = self.pos();
            let g = self.word("a guard predicate")?;
            match Self::lookup_reg(f, &g) {
                Some(id) if f.vregs[id as usize].width == RegWidth::Pred => guard = Some(Guard { pred: id, neg }),
                Some(_) => return self.err_at(gpos, format!("guard `{g}` is not a predicate register")),
                None => return self.err_at(gpos, format!("undeclared predicate `{g}`")),
            }
        }
        let opos = self.pos();
        let opcode = self.word("an opcode")?;
        // Reject what is outside the subset before reading its operands
        // (whose syntax may be outside it too).
        let base = opcode.split('.').next().unwrap_or("");
        match base {
            "tld4" | "txq" | "suld" | "sust" | "sured" | "suq" => {
                return self.err_at(opos, format!("`{opcode}`: texture gathers, queries and surfaces are not supported"));
            }
            "call" => return self.call(f, guard, opos, &opcode),
            b if !SUPPORTED.contains(&b) => return self.err_at(opos, format!("`{opcode}`: unsupported opcode")),
            _ => {}
        }
        let mut ops = Vec::new();
        if !self.is_punct(';') {
            loop {
                ops.push(self.operand()?);
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        if !self.is_punct(';') {
            let found = self.describe();
            return self.err(format!("expected `;` after `{opcode}`, found {found}"));
        }
        self.i += 1;
        let mut b = Build { p: self, f, opcode: &opcode, pos: opos, ops, guard, dyn_ref: false, local_addr: false, local_imm: None };
        let inst = b.build()?;
        let (dyn_ref, local_addr, local_imm) = (b.dyn_ref, b.local_addr, b.local_imm);
        let k = f.insts.len();
        if dyn_ref {
            f.dyn_refs.push(k);
        }
        if local_addr {
            f.local_refs.push(LocalRef::Addr(k));
        }
        if let Some(v) = local_imm {
            if let Some(s) = inst.src.iter().position(|o| *o == Opnd::Imm(v)) {
                f.local_refs.push(LocalRef::Src(k, s));
            }
        }
        f.insts.push(inst);
        Ok(())
    }
}

impl Inst {
    /// A bare instruction (operands filled in by the caller).
    pub fn new(op: Op, opcode: &str, line: u32, col: u32) -> Inst {
        let mut i = Inst {
            op,
            guard: None,
            dst: [Opnd::None; 4],
            src: [Opnd::None; 4],
            addr: None,
            opcode: opcode.into(),
            line,
            col,
            reads: RegList::default(),
            writes: RegList::default(),
            unit: Unit::Sp,
            mem: None,
        };
        i.unit = Inst::classify_unit(&i.op);
        i
    }
}

/// Parse an integer literal: decimal, `0x` hex, `0b` binary, `0` octal, optional `U` suffix.
pub(crate) fn parse_int(s: &str) -> Option<i128> {
    let s = s.strip_suffix(['U', 'u']).unwrap_or(s);
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() || digits.len() > 40 {
        return None;
    }
    u128::from_str_radix(digits, radix).ok().filter(|v| *v <= u64::MAX as u128).map(|v| v as i128)
}

/// The bits of a literal as an operand of type `ty` (integers: two's
/// complement in 64 bits; f32: the f32 bits; f64: the f64 bits).
pub(crate) fn imm_bits(text: &str, neg: bool, ty: Ty) -> Result<u64, String> {
    enum Lit {
        Int(i128),
        F32(u32),
        F64(u64),
        Dec(f64),
    }
    let lit = if let Some(h) = text.strip_prefix("0f").or_else(|| text.strip_prefix("0F")) {
        if h.len() != 8 {
            return Err(format!("float literal `{text}` needs 8 hex digits"));
        }
        Lit::F32(u32::from_str_radix(h, 16).map_err(|_| format!("bad float literal `{text}`"))?)
    } else if let Some(h) = text.strip_prefix("0d").or_else(|| text.strip_prefix("0D")) {
        if h.len() != 16 {
            return Err(format!("double literal `{text}` needs 16 hex digits"));
        }
        Lit::F64(u64::from_str_radix(h, 16).map_err(|_| format!("bad double literal `{text}`"))?)
    } else if text.contains(['.', 'e', 'E']) && !text.starts_with("0x") && !text.starts_with("0X") {
        Lit::Dec(text.parse::<f64>().map_err(|_| format!("bad number `{text}`"))?)
    } else {
        Lit::Int(parse_int(text).ok_or_else(|| format!("bad number `{text}`"))?)
    };
    let fneg32 = |b: u32| if neg { b ^ 0x8000_0000 } else { b };
    let fneg64 = |b: u64| if neg { b ^ (1 << 63) } else { b };
    match ty {
        Ty::F32 => Ok(match lit {
            Lit::F32(b) => fneg32(b),
            Lit::F64(b) => fneg32((f64::from_bits(b) as f32).to_bits()),
            Lit::Dec(d) => fneg32((d as f32).to_bits()),
            Lit::Int(v) => fneg32((v as f32).to_bits()),
        } as u64),
        Ty::F64 => Ok(match lit {
            Lit::F32(b) => fneg64((f32::from_bits(b) as f64).to_bits()),
            Lit::F64(b) => fneg64(b),
            Lit::Dec(d) => fneg64(d.to_bits()),
            Lit::Int(v) => fneg64((v as f64).to_bits()),
        }),
        _ => {
            let bits = ty.bits().max(1);
            let v = match lit {
                Lit::Int(v) => {
                    if neg {
                        -v
                    } else {
                        v
                    }
                }
                Lit::F32(b) if bits == 32 && !neg => b as i128,
                Lit::F64(b) if bits == 64 && !neg => b as i128,
                _ => return Err(format!("float literal `{text}` for a .{} operand", ty.name())),
            };
            if ty == Ty::Pred {
                // LLVM's NVPTX back end writes true as -1 (an all-ones i1).
                return match v {
                    0 => Ok(0),
                    1 | -1 => Ok(1),
                    _ => Err(format!("predicate literal `{}{text}` must be 0, 1 or -1", if neg { "-" } else { "" })),
                };
            }
            let lo = -(1i128 << (bits - 1));
            let hi = (1i128 << bits) - 1;
            if v < lo || v > hi {
                return Err(format!("literal `{}{text}` does not fit .{}", if neg { "-" } else { "" }, ty.name()));
            }
            // Two's complement in 64 bits; instructions use the low bits of their type.
            Ok(v as u64)
        }
    }
}

/// How strictly a register operand's width must match the instruction type.
#[derive(Clone, Copy, PartialEq)]
enum Fit {
    /// Same width.
    Exact,
    /// At least the type's width (ld/st/cvt and narrow types: PTX lets the
    /// register be wider than the type).
    Wider,
}

struct Build<'p, 'a, 'f> {
    p: &'p mut Parser<'a>,
    f: &'f mut Func,
    opcode: &'p str,
    pos: (u32, u32),
    ops: Vec<(Raw, (u32, u32))>,
    guard: Option<Guard>,
    /// The instruction refers to dynamic (`.extern`) shared memory.
    dyn_ref: bool,
    /// Its address is a local variable's; a source is a local variable's address.
    local_addr: bool,
    local_imm: Option<u64>,
}

/// Modifiers of an opcode, consumed as they are recognized.
struct Mods {
    list: Vec<String>,
    used: Vec<bool>,
}

impl Mods {
    fn take(&mut self, m: &str) -> bool {
        for (i, x) in self.list.iter().enumerate() {
            if !self.used[i] && x == m {
                self.used[i] = true;
                return true;
            }
        }
        false
    }
    fn take_any(&mut self, set: &[&str]) -> Option<String> {
        for (i, x) in self.list.iter().enumerate() {
            if !self.used[i] && set.contains(&x.as_str()) {
                self.used[i] = true;
                return Some(x.clone());
            }
        }
        None
    }
    /// Types in order of appearance.
    fn types(&mut self) -> Vec<Ty> {
        let mut v = Vec::new();
        for (i, x) in self.list.iter().enumerate() {
            if !self.used[i] {
                if let Some(t) = Ty::parse(x) {
                    self.used[i] = true;
                    v.push(t);
                }
            }
        }
        v
    }
    fn leftover(&self) -> Option<&str> {
        self.list.iter().zip(&self.used).find(|(_, u)| !**u).map(|(s, _)| s.as_str())
    }
}

impl Build<'_, '_, '_> {
    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        self.p.err_at(self.pos, format!("`{}`: {}", self.opcode, msg.into()))
    }
    fn err_at<T>(&self, pos: (u32, u32), msg: impl Into<String>) -> R<T> {
        self.p.err_at(pos, format!("`{}`: {}", self.opcode, msg.into()))
    }
    fn nops(&self, n: usize) -> R<()> {
        if self.ops.len() != n {
            return self.err(format!("expected {n} operands, found {}", self.ops.len()));
        }
        Ok(())
    }
    fn one_type(&self, m: &mut Mods, allowed: impl Fn(Ty) -> bool) -> R<Ty> {
        let ts = m.types();
        match ts.as_slice() {
            [t] if allowed(*t) => Ok(*t),
            [t] => self.err(format!("type .{} is not supported here", t.name())),
            [] => self.err("missing type"),
            _ => self.err("too many types"),
        }
    }
    fn done(&self, m: &Mods) -> R<()> {
        if let Some(x) = m.leftover() {
            return self.err(format!("unsupported modifier `.{x}`"));
        }
        Ok(())
    }

    fn sym(&mut self, name: &str) -> Option<Sym> {
        if let Some(&(s, _)) = self.f.scopes.iter().rev().find_map(|s| s.syms.get(name)) {
            return Some(s);
        }
        if let Some(s) = self.f.syms.get(name) {
            if s.space == Space::Shared && s.addr == u64::MAX {
                // Dynamic shared memory: resolved when the launch sets its size.
                return Some(*s);
            }
            return Some(*s);
        }
        if let Some(g) = self.p.globals.iter().find(|g| g.name == name) {
            return Some(Sym { space: Space::Global, addr: g.addr });
        }
        if let Some(c) = self.p.consts.iter().find(|g| g.name == name) {
            return Some(Sym { space: Space::Const, addr: c.addr });
        }
        if let Some(s) = self.p.mod_shared.iter().find(|g| g.name == name).cloned() {
            // First use of a module-scope shared variable in this function: place it.
            let mut d = s;
            if d.is_extern {
                self.f.dyn_align = Some(self.f.dyn_align.unwrap_or(1).max(d.align));
                let sym = Sym { space: Space::Shared, addr: u64::MAX };
                self.f.syms.insert(d.name.clone(), sym);
                self.f.shared.push(d);
                return Some(sym);
            }
            let off = align_up(self.f.shared_next, d.align.max(1) as u64);
            d.addr = off;
            self.f.shared_next = off + d.size;
            let sym = Sym { space: Space::Shared, addr: off };
            self.f.syms.insert(d.name.clone(), sym);
            self.f.shared.push(d);
            return Some(sym);
        }
        None
    }

    /// A symbol's address in `space` (`Generic`: its generic address).
    fn sym_addr(&mut self, name: &str, s: Sym, space: Space, pos: (u32, u32)) -> R<u64> {
        if s.space == Space::Shared && s.addr == u64::MAX {
            // Dynamic shared memory starts at the end of static shared memory,
            // known when the body is complete: the instruction is patched then
            // (its address is DYN_SHARED_MARK-relative until then).
            if !matches!(space, Space::Shared | Space::Generic) {
                return self.err_at(pos, format!("`{name}` is a .shared variable, not .{}", space.name()));
            }
            self.dyn_ref = true;
            let base = DYN_SHARED_MARK;
            return Ok(if space == Space::Generic { SHARED_WINDOW + base } else { base });
        }
        if space == s.space {
            return Ok(s.addr);
        }
        if space == Space::Generic {
            return Ok(match s.space {
                Space::Global => s.addr,
                Space::Shared => SHARED_WINDOW + s.addr,
                Space::Local => LOCAL_WINDOW + s.addr,
                Space::Const => CONST_WINDOW + s.addr,
                _ => return self.err_at(pos, format!("`{name}`: .param variables have no generic address here")),
            });
        }
        self.err_at(pos, format!("`{name}` is a .{} variable, not .{}", s.space.name(), space.name()))
    }

    fn reg_info(&mut self, name: &str) -> Option<(u32, RegWidth, u32)> {
        Parser::lookup_reg(self.f, name).map(|id| {
            let v = &self.f.vregs[id as usize];
            (id, v.width, v.bits)
        })
    }

    fn reg_opnd(id: u32, w: RegWidth) -> Opnd {
        match w {
            RegWidth::Pred => Opnd::P(id),
            RegWidth::W32 => Opnd::R(id),
            RegWidth::W64 => Opnd::D(id),
        }
    }

    fn check_width(&self, name: &str, bits: u32, ty: Ty, fit: Fit, pos: (u32, u32)) -> R<()> {
        let want = ty.bits();
        let ok = match (ty, fit) {
            (Ty::Pred, _) => bits == 1,
            (_, _) if bits == 1 => false,
            (_, Fit::Exact) => bits == want,
            (_, Fit::Wider) => bits >= want,
        };
        if !ok {
            let have = if bits == 1 { "a predicate".to_string() } else { format!("{bits}-bit") };
            return self.err_at(pos, format!("register `{name}` is {have}, the operand is .{}", ty.name()));
        }
        Ok(())
    }

    /// A source operand of type `ty`.
    fn src(&mut self, k: usize, ty: Ty, fit: Fit) -> R<Opnd> {
        let (raw, pos) = self.ops[k].clone();
        match raw {
            Raw::Word(w) => {
                if w == "_" {
                    return self.err_at(pos, "`_` is not a source");
                }
                if let Some((id, width, bits)) = self.reg_info(&w) {
                    self.check_width(&w, bits, ty, fit, pos)?;
                    return Ok(Self::reg_opnd(id, width));
                }
                if let Some(s) = Sreg::parse(&w) {
                    let bits = if s.is_64() { 64 } else { 32 };
                    if ty.bits() != bits || !ty.is_int() {
                        return self.err_at(pos, format!("special register `{w}` is {bits}-bit, the operand is .{}", ty.name()));
                    }
                    return Ok(Opnd::Sreg(s));
                }
                if let Some(s) = self.sym(&w) {
                    if ty.bits() < 32 || ty.is_float() {
                        return self.err_at(pos, format!("address of `{w}` used as a .{} operand", ty.name()));
                    }
                    let a = self.sym_addr(&w, s, s.space, pos)?;
                    if s.space == Space::Local {
                        self.local_imm = Some(a);
                    }
                    return Ok(Opnd::Imm(a));
                }
                if w.starts_with('%') && w.contains('.') || w.starts_with("%pm") || w.starts_with("%envreg") || w.starts_with("%dynamic_smem") {
                    return self.err_at(pos, format!("unsupported special register `{w}`"));
                }
                self.err_at(pos, format!("undeclared register or symbol `{w}`"))
            }
            Raw::Num { text, neg } => match imm_bits(&text, neg, ty) {
                Ok(v) => Ok(Opnd::Imm(v)),
                Err(m) => self.err_at(pos, m),
            },
            Raw::Not(_) => self.err_at(pos, "`!` is only allowed on a predicate operand of setp, selp and guards"),
            Raw::Pipe(..) => self.err_at(pos, "`|` is only allowed in setp and shfl destinations"),
            Raw::Vec(_) => self.err_at(pos, "unexpected vector operand"),
            Raw::Addr { .. } | Raw::Tex(..) => self.err_at(pos, "unexpected address operand"),
        }
    }

    /// A destination register of type `ty` (or `_` when `sink_ok`).
    fn dst_raw(&mut self, raw: &Raw, pos: (u32, u32), ty: Ty, fit: Fit, sink_ok: bool) -> R<Opnd> {
        match raw {
            Raw::Word(w) if w == "_" && sink_ok => Ok(Opnd::Sink),
            Raw::Word(w) => match self.reg_info(w) {
                Some((id, width, bits)) => {
                    self.check_width(w, bits, ty, fit, pos)?;
                    Ok(Self::reg_opnd(id, width))
                }
                None if Sreg::parse(w).is_some() => self.err_at(pos, format!("special register `{w}` is read-only")),
                None => self.err_at(pos, format!("undeclared register `{w}`")),
            },
            _ => self.err_at(pos, "the destination must be a register"),
        }
    }
    fn dst(&mut self, k: usize, ty: Ty, fit: Fit) -> R<Opnd> {
        let (raw, pos) = self.ops[k].clone();
        self.dst_raw(&raw, pos, ty, fit, false)
    }

    /// A predicate source, possibly negated (`!p`): (operand, negated).
    fn pred_src(&mut self, k: usize) -> R<(Opnd, bool)> {
        let (raw, pos) = self.ops[k].clone();
        match raw {
            Raw::Not(w) => match self.reg_info(&w) {
                Some((id, RegWidth::Pred, _)) => Ok((Opnd::P(id), true)),
                _ => self.err_at(pos, format!("`{w}` is not a predicate register")),
            },
            _ => Ok((self.src(k, Ty::Pred, Fit::Exact)?, false)),
        }
    }

    /// The memory operand `[...]` in `space`.
    fn addr(&mut self, k: usize, space: Space) -> R<Addr> {
        let (raw, pos) = self.ops[k].clone();
        let Raw::Addr { base, off } = raw else {
            return self.err_at(pos, "expected an address `[...]`");
        };
        let Some(b) = base else {
            return Ok(Addr { base: Opnd::None, off });
        };
        if let Some((id, width, bits)) = self.reg_info(&b) {
            return match width {
                RegWidth::W32 if bits == 32 => Ok(Addr { base: Opnd::R(id), off }),
                RegWidth::W64 => Ok(Addr { base: Opnd::D(id), off }),
                _ => self.err_at(pos, format!("address register `{b}` must be 32- or 64-bit")),
            };
        }
        if let Some(s) = self.sym(&b) {
            let a = self.sym_addr(&b, s, space, pos)?;
            self.local_addr |= s.space == Space::Local;
            return Ok(Addr { base: Opnd::None, off: (a as i64).wrapping_add(off) });
        }
        self.err_at(pos, format!("undeclared register or symbol `{b}` in the address"))
    }

    fn space_mod(m: &mut Mods) -> Space {
        match m.take_any(&["global", "shared", "const", "param", "local"]).as_deref() {
            Some("global") => Space::Global,
            Some("shared") => Space::Shared,
            Some("const") => Space::Const,
            Some("param") => Space::Param,
            Some("local") => Space::Local,
            _ => Space::Generic,
        }
    }

    fn ignore_mem_mods(m: &mut Mods) {
        while m.take_any(IGNORED_MEM_MODS).is_some() {}
        // PTX 7.x cache eviction hints: `.L1::evict_last`, `.L2::128B` ...
        for (i, x) in m.list.iter().enumerate() {
            if x.starts_with("L1::") || x.starts_with("L2::") {
                m.used[i] = true;
            }
        }
    }

    fn float_mods(&self, m: &mut Mods, allow_approx: bool) -> R<FMods> {
        let rnd = match m.take_any(&["rn", "rz", "rm", "rp"]).as_deref() {
            Some("rz") => Some(Rnd::Rz),
            Some("rm") => Some(Rnd::Rm),
            Some("rp") => Some(Rnd::Rp),
            _ => None,
        };
        let mut f = FMods { rnd, ..FMods::default() };
        if allow_approx && (m.take("approx") || m.take("full")) {
            f.approx = true;
            if f.rnd.is_some() {
                return self.err("a rounding mode and .approx/.full exclude each other");
            }
        }
        f.ftz = m.take("ftz");
        f.sat = m.take("sat");
        Ok(f)
    }

    fn mk(&self, op: Op) -> Inst {
        let mut i = Inst::new(op, self.opcode, self.pos.0, self.pos.1);
        i.guard = self.guard;
        i
    }

    fn build(&mut self) -> R<Inst> {
        let parts: Vec<&str> = self.opcode.split('.').collect();
        let base = parts[0];
        let mut m = Mods { list: parts[1..].iter().map(|s| s.to_string()).collect(), used: vec![false; parts.len() - 1] };
        if m.list.iter().any(|s| s.is_empty()) {
            return self.err("empty modifier");
        }
        let inst = match base {
            "mov" => self.mov(&mut m)?,
            "ld" | "ldu" => self.ld(&mut m)?,
            "st" => self.st(&mut m)?,
            "atom" | "red" => self.atom(&mut m, base == "red")?,
            "cvta" => {
                let to = m.take("to");
                let space = Self::space_mod(&mut m);
                if space == Space::Generic || space == Space::Param {
                    return self.err("cvta needs .global, .shared, .const or .local");
                }
                let ty = self.one_type(&mut m, |t| matches!(t, Ty::U32 | Ty::U64))?;
                self.done(&m)?;
                self.nops(2)?;
                let mut i = self.mk(Op::Cvta { space, to, ty });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                // `cvta.shared.u64 %rd, sym`: the symbol's address in its space.
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i
            }
            "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" | "mul24" | "mad24" | "sad" | "addc" | "subc" | "madc" => {
                self.arith(base, &mut m)?
            }
            "prefetch" | "prefetchu" | "discard" => {
                // Cache hints: no effect on values; the timing model does
                // not model them (they issue as no-ops).
                m.list.iter().enumerate().for_each(|(i, _)| m.used[i] = true);
                self.nops(if base == "discard" { 2 } else { 1 }).or_else(|_| self.nops(1))?;
                self.mk(Op::Membar)
            }
            "neg" | "abs" | "not" | "cnot" | "popc" | "clz" | "brev" | "rcp" | "sqrt" | "rsqrt" | "ex2" | "lg2" | "sin" | "cos" => {
                self.unary(base, &mut m)?
            }
            "and" | "or" | "xor" => {
                let op = match base {
                    "and" => AluOp::And,
                    "or" => AluOp::Or,
                    _ => AluOp::Xor,
                };
                let ty = self.one_type(&mut m, |t| matches!(t, Ty::B16 | Ty::B32 | Ty::B64 | Ty::Pred))?;
                self.done(&m)?;
                self.nops(3)?;
                let mut i = self.mk(Op::Alu { op, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i.src[1] = self.src(2, ty, Fit::Exact)?;
                i
            }
            "shl" | "shr" => {
                let op = if base == "shl" { AluOp::Shl } else { AluOp::Shr };
                let ty = self
                    .one_type(&mut m, |t| t.is_int() && t.bits() >= 16 && (base == "shr" || !t.is_signed() && t.name().starts_with('b')))?;
                self.done(&m)?;
                self.nops(3)?;
                let mut i = self.mk(Op::Alu { op, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i.src[1] = self.src(2, Ty::U32, Fit::Exact)?;
                i
            }
            "bfe" | "bfi" => {
                let bfi = base == "bfi";
                let ty = self.one_type(&mut m, |t| {
                    if bfi {
                        matches!(t, Ty::B32 | Ty::B64)
                    } else {
                        matches!(t, Ty::U32 | Ty::U64 | Ty::S32 | Ty::S64)
                    }
                })?;
                self.done(&m)?;
                self.nops(if bfi { 5 } else { 4 })?;
                let mut i = self.mk(Op::Alu { op: if bfi { AluOp::Bfi } else { AluOp::Bfe }, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                if bfi {
                    i.src[1] = self.src(2, ty, Fit::Exact)?;
                    i.src[2] = self.src(3, Ty::U32, Fit::Exact)?;
                    i.src[3] = self.src(4, Ty::U32, Fit::Exact)?;
                } else {
                    i.src[1] = self.src(2, Ty::U32, Fit::Exact)?;
                    i.src[2] = self.src(3, Ty::U32, Fit::Exact)?;
                }
                i
            }
            "prmt" => {
                let ty = self.one_type(&mut m, |t| t == Ty::B32)?;
                if let Some(x) = m.leftover() {
                    return self.err(format!("prmt mode .{x} is not supported (only the default mode)"));
                }
                self.nops(4)?;
                let mut i = self.mk(Op::Alu { op: AluOp::Prmt, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                for k in 0..3 {
                    i.src[k] = self.src(k + 1, ty, Fit::Exact)?;
                }
                i
            }
            "shf" => {
                let left = match m.take_any(&["l", "r"]).as_deref() {
                    Some("l") => true,
                    Some(_) => false,
                    None => return self.err("needs .l or .r"),
                };
                let wrap = match m.take_any(&["wrap", "clamp"]).as_deref() {
                    Some("wrap") => true,
                    Some(_) => false,
                    None => return self.err("needs .wrap or .clamp"),
                };
                let ty = self.one_type(&mut m, |t| t == Ty::B32)?;
                self.done(&m)?;
                self.nops(4)?;
                let mut i = self.mk(Op::Alu { op: AluOp::Shf { left, wrap }, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                for k in 0..3 {
                    i.src[k] = self.src(k + 1, ty, Fit::Exact)?;
                }
                i
            }
            "copysign" => {
                let ty = self.one_type(&mut m, |t| t.is_float())?;
                self.done(&m)?;
                self.nops(3)?;
                let mut i = self.mk(Op::Alu { op: AluOp::Copysign, ty, f: FMods::default() });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i.src[1] = self.src(2, ty, Fit::Exact)?;
                i
            }
            "testp" => {
                let kind = match m.take_any(&["finite", "infinite", "number", "notanumber", "normal", "subnormal"]).as_deref() {
                    Some("finite") => 0,
                    Some("infinite") => 1,
                    Some("number") => 2,
                    Some("notanumber") => 3,
                    Some("normal") => 4,
                    Some("subnormal") => 5,
                    _ => return self.err("missing test (.finite, .infinite, .number, .notanumber, .normal, .subnormal)"),
                };
                let ty = self.one_type(&mut m, |t| t.is_float())?;
                self.done(&m)?;
                self.nops(2)?;
                let mut i = self.mk(Op::Alu { op: AluOp::Testp(kind), ty, f: FMods::default() });
                i.dst[0] = self.dst(0, Ty::Pred, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i
            }
            "setp" => self.setp(&mut m)?,
            "set" => self.set(&mut m)?,
            "selp" => {
                let ty = self.one_type(&mut m, |t| t != Ty::Pred && t.bits() >= 16)?;
                self.done(&m)?;
                self.nops(4)?;
                let mut i = self.mk(Op::Selp(ty));
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i.src[1] = self.src(2, ty, Fit::Exact)?;
                let (c, neg) = self.pred_src(3)?;
                if neg {
                    return self.err_at(self.ops[3].1, "`!` is not allowed on selp's predicate");
                }
                i.src[2] = c;
                i
            }
            "slct" => {
                let ftz = m.take("ftz");
                let ts = m.types();
                let (ty, cty) = match ts.as_slice() {
                    [d, c] if *d != Ty::Pred && d.bits() >= 16 && matches!(c, Ty::S32 | Ty::F32) => (*d, *c),
                    _ => return self.err("expected slct.TYPE.s32 or slct.TYPE.f32"),
                };
                self.done(&m)?;
                self.nops(4)?;
                let mut i = self.mk(Op::Slct { ty, cty, ftz });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = self.src(1, ty, Fit::Exact)?;
                i.src[1] = self.src(2, ty, Fit::Exact)?;
                i.src[2] = self.src(3, cty, Fit::Exact)?;
                i
            }
            "cvt" => self.cvt(&mut m)?,
            "bra" => {
                let uni = m.take("uni");
                self.done(&m)?;
                self.nops(1)?;
                let (raw, pos) = self.ops[0].clone();
                let Raw::Word(label) = raw else {
                    return self.err_at(pos, "expected a label");
                };
                if self.reg_info(&label).is_some() {
                    return self.err_at(pos, "indirect branches are not supported");
                }
                let i = self.mk(Op::Bra { target: 0, uni, reconv: 0 });
                self.f.fixups.push((self.f.insts.len(), label, pos.0, pos.1));
                i
            }
            "bar" | "barrier" if m.list.first().is_some_and(|x| x == "warp") => {
                // `bar.warp.sync membermask` (__syncwarp): warps run in lockstep.
                let _ = m.take("warp");
                let _ = m.take("sync");
                self.done(&m)?;
                self.nops(1)?;
                let _ = self.src(0, Ty::B32, Fit::Exact)?;
                self.mk(Op::Membar)
            }
            "bar" | "barrier" => {
                let _ = m.take("cta");
                let (wait, red) = match m.take_any(&["sync", "arrive", "red"]).as_deref() {
                    Some("sync") => (true, None),
                    Some("arrive") => (false, None),
                    Some(_) => {
                        use crate::barrier::RedOp;
                        let op = match m.take_any(&["popc", "and", "or"]).as_deref() {
                            Some("popc") if m.take("u32") => RedOp::Popc,
                            Some("and") if m.take("pred") => RedOp::And,
                            Some("or") if m.take("pred") => RedOp::Or,
                            _ => return self.err("bar.red needs .popc.u32, .and.pred or .or.pred"),
                        };
                        (true, Some(op))
                    }
                    None if base == "bar" && m.leftover().is_none() => (true, None),
                    None => return self.err("needs .sync, .arrive or .red"),
                };
                let _ = m.take("aligned");
                self.done(&m)?;
                // bar.red: `d, a{, b}, {!}c`; the others `a{, b}`.
                let extra = if red.is_some() { 2 } else { 0 };
                if !(extra + 1..=extra + 2).contains(&self.ops.len()) {
                    let what = if red.is_some() { "a destination, a barrier, an optional thread count and a predicate" } else { "a barrier and an optional thread count" };
                    return self.err(format!("expected {what}, found {} operands", self.ops.len()));
                }
                let mut i = self.mk(Op::Bar { wait, red });
                if let Some(op) = red {
                    let ty = if op == crate::barrier::RedOp::Popc { Ty::U32 } else { Ty::Pred };
                    i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                    let (c, neg) = self.pred_src(self.ops.len() - 1)?;
                    i.src[2] = c;
                    if neg {
                        i.src[3] = Opnd::Imm(1);
                    }
                    // The barrier operands follow the destination.
                    self.ops.remove(0);
                    self.ops.pop();
                }
                i.src[0] = self.src(0, Ty::U32, Fit::Exact)?;
                if let Opnd::Imm(a) = i.src[0] {
                    if a >= crate::barrier::NAMED_BARRIERS as u64 {
                        return self.err(format!("barrier {a}: there are {} (0 to 15)", crate::barrier::NAMED_BARRIERS));
                    }
                }
                if self.ops.len() == 2 {
                    i.src[1] = self.src(1, Ty::U32, Fit::Exact)?;
                    if let Opnd::Imm(b) = i.src[1] {
                        if b == 0 || b % WARP_SIZE as u64 != 0 {
                            return self.err(format!("thread count {b}: must be a positive multiple of the warp size"));
                        }
                    }
                } else if !wait {
                    return self.err("bar.arrive needs a thread count");
                }
                i
            }
            "shfl" => {
                let _ = m.take("sync");
                let mode = match m.take_any(&["up", "down", "bfly", "idx"]).as_deref() {
                    Some("up") => ShflMode::Up,
                    Some("down") => ShflMode::Down,
                    Some("bfly") => ShflMode::Bfly,
                    Some("idx") => ShflMode::Idx,
                    _ => return self.err("missing mode (.up, .down, .bfly, .idx)"),
                };
                let ty = self.one_type(&mut m, |t| matches!(t, Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32))?;
                self.done(&m)?;
                if !(4..=5).contains(&self.ops.len()) {
                    return self.err(format!("expected 4 or 5 operands, found {}", self.ops.len()));
                }
                let mut i = self.mk(Op::Shfl(mode));
                let (d_raw, dpos) = self.ops[0].clone();
                match d_raw {
                    Raw::Pipe(d, p) => {
                        i.dst[0] = self.dst_raw(&Raw::Word(d), dpos, ty, Fit::Exact, true)?;
                        i.dst[1] = self.dst_raw(&Raw::Word(p), dpos, Ty::Pred, Fit::Exact, true)?;
                    }
                    _ => i.dst[0] = self.dst(0, ty, Fit::Exact)?,
                }
                for k in 0..3 {
                    i.src[k] = self.src(k + 1, if k == 0 { ty } else { Ty::B32 }, Fit::Exact)?;
                }
                // Without a member mask (PTX < 6.0): every lane.
                i.src[3] = if self.ops.len() == 5 { self.src(4, Ty::B32, Fit::Exact)? } else { Opnd::Imm(0xffff_ffff) };
                i
            }
            "vote" => {
                let _ = m.take("sync");
                let mode = match m.take_any(&["all", "any", "uni", "ballot"]).as_deref() {
                    Some("all") => VoteMode::All,
                    Some("any") => VoteMode::Any,
                    Some("uni") => VoteMode::Uni,
                    Some("ballot") => VoteMode::Ballot,
                    _ => return self.err("missing mode (.all, .any, .uni, .ballot)"),
                };
                let ty = self.one_type(&mut m, |t| t == Ty::Pred || t == Ty::B32)?;
                if (mode == VoteMode::Ballot) != (ty == Ty::B32) {
                    return self.err("vote.ballot takes .b32, the others .pred");
                }
                self.done(&m)?;
                if !(2..=3).contains(&self.ops.len()) {
                    return self.err(format!("expected 2 or 3 operands, found {}", self.ops.len()));
                }
                let (a, neg) = self.pred_src(1)?;
                let mut i = self.mk(Op::Vote { mode, neg });
                i.dst[0] = self.dst(0, ty, Fit::Exact)?;
                i.src[0] = a;
                i.src[1] = if self.ops.len() == 3 { self.src(2, Ty::B32, Fit::Exact)? } else { Opnd::Imm(0xffff_ffff) };
                i
            }
            "activemask" => {
                let _ = self.one_type(&mut m, |t| t == Ty::B32)?;
                self.done(&m)?;
                self.nops(1)?;
                let mut i = self.mk(Op::Activemask);
                i.dst[0] = self.dst(0, Ty::B32, Fit::Exact)?;
                i
            }
            "membar" | "fence" => {
                Self::ignore_mem_mods(&mut m);
                let _ = m.take_any(&["gl", "sys", "cta", "proxy"]);
                self.done(&m)?;
                self.nops(0)?;
                self.mk(Op::Membar)
            }
            "ret" | "exit" => {
                let _ = m.take("uni");
                self.done(&m)?;
                self.nops(0)?;
                self.mk(Op::Exit)
            }
            "tex" => self.tex(&mut m)?,
            _ => return self.err("unsupported opcode"),
        };
        Ok(inst)
    }

    fn mov(&mut self, m: &mut Mods) -> R<Inst> {
        let ty = self.one_type(m, |_| true)?;
        self.done(m)?;
        self.nops(2)?;
        let (d_raw, dpos) = self.ops[0].clone();
        let (s_raw, spos) = self.ops[1].clone();
        if let Raw::Vec(elems) = &s_raw {
            let ety = self.pack_elem(ty, elems.len(), spos)?;
            let mut i = self.mk(Op::Pack(ty));
            i.dst[0] = self.dst(0, ty, Fit::Exact)?;
            for (k, (raw, pos)) in elems.iter().enumerate() {
                let saved = std::mem::replace(&mut self.ops[1], (raw.clone(), *pos));
                let r = self.src(1, ety, Fit::Exact);
                self.ops[1] = saved;
                i.src[k] = r?;
            }
            return Ok(i);
        }
        if let Raw::Vec(elems) = &d_raw {
            let ety = self.pack_elem(ty, elems.len(), dpos)?;
            let mut i = self.mk(Op::Unpack(ty));
            for (k, (raw, pos)) in elems.iter().enumerate() {
                i.dst[k] = self.dst_raw(raw, *pos, ety, Fit::Exact, true)?;
            }
            i.src[0] = self.src(1, ty, Fit::Exact)?;
            return Ok(i);
        }
        let mut i = self.mk(Op::Mov(ty));
        i.dst[0] = self.dst(0, ty, Fit::Exact)?;
        i.src[0] = self.src(1, ty, Fit::Exact)?;
        Ok(i)
    }

    fn pack_elem(&self, ty: Ty, n: usize, pos: (u32, u32)) -> R<Ty> {
        match (ty.bits(), n) {
            (64, 2) => Ok(Ty::B32),
            (64, 4) => Ok(Ty::B16),
            (32, 2) => Ok(Ty::B16),
            _ => self.err_at(pos, format!("cannot pack {n} elements into .{}", ty.name())),
        }
    }

    fn vec_mod(m: &mut Mods) -> u8 {
        match m.take_any(&["v2", "v4"]).as_deref() {
            Some("v2") => 2,
            Some("v4") => 4,
            _ => 1,
        }
    }

    /// Space, vector width and type of `ld`/`st`.
    fn ld_st_mods(&self, m: &mut Mods) -> R<(Space, u8, Ty)> {
        let space = Self::space_mod(m);
        Self::ignore_mem_mods(m);
        let vec = Self::vec_mod(m);
        let ty = self.one_type(m, |t| t != Ty::Pred)?;
        self.done(m)?;
        self.nops(2)?;
        Ok((space, vec, ty))
    }

    /// `.param` accesses in a `.func`, and to a call's `.param` variables,
    /// are local (see [`inline_calls`]).
    fn param_space(&mut self, space: Space, k: usize) -> Space {
        if space != Space::Param {
            return space;
        }
        if !self.f.is_entry {
            return Space::Local;
        }
        if let Raw::Addr { base: Some(b), .. } = &self.ops[k].0 {
            let b = b.clone();
            if self.sym(&b).is_some_and(|s| s.space == Space::Local) {
                return Space::Local;
            }
        }
        space
    }

    fn ld(&mut self, m: &mut Mods) -> R<Inst> {
        let (space, vec, ty) = self.ld_st_mods(m)?;
        let space = self.param_space(space, 1);
        let mut i = self.mk(Op::Ld { space, ty, vec });
        // Vector elements, like scalars, may sit in wider registers
        // (`ld.global.v4.u8 {%rs1, ...}` with 16-bit registers: PTX has no
        // 8-bit ones).
        let fit = Fit::Wider;
        let (d_raw, dpos) = self.ops[0].clone();
        match (&d_raw, vec) {
            (Raw::Vec(elems), 2 | 4) if elems.len() == vec as usize => {
                for (k, (raw, pos)) in elems.iter().enumerate() {
                    i.dst[k] = self.dst_raw(raw, *pos, ty, fit, true)?;
                }
            }
            (Raw::Vec(elems), _) => return self.err_at(dpos, format!("{} destinations for a .v{vec} load", elems.len())),
            (_, 1) => i.dst[0] = self.dst(0, ty, fit)?,
            _ => return self.err_at(dpos, format!("a .v{vec} load needs {{...}} destinations")),
        }
        i.addr = Some(self.addr(1, space)?);
        Ok(i)
    }

    fn st(&mut self, m: &mut Mods) -> R<Inst> {
        let (space, vec, ty) = self.ld_st_mods(m)?;
        let space = self.param_space(space, 0);
        if space == Space::Const {
            return self.err("cannot store to .const");
        }
        if space == Space::Param {
            return self.err("a kernel cannot store to its parameters");
        }
        let mut i = self.mk(Op::St { space, ty, vec });
        i.addr = Some(self.addr(0, space)?);
        let fit = Fit::Wider;
        let (s_raw, spos) = self.ops[1].clone();
        match (&s_raw, vec) {
            (Raw::Vec(elems), 2 | 4) if elems.len() == vec as usize => {
                for (k, (raw, pos)) in elems.iter().enumerate() {
                    let saved = std::mem::replace(&mut self.ops[1], (raw.clone(), *pos));
                    let r = self.src(1, ty, fit);
                    self.ops[1] = saved;
                    i.src[k] = r?;
                }
            }
            (Raw::Vec(elems), _) => return self.err_at(spos, format!("{} sources for a .v{vec} store", elems.len())),
            (_, 1) => i.src[0] = self.src(1, ty, fit)?,
            _ => return self.err_at(spos, format!("a .v{vec} store needs {{...}} sources")),
        }
        Ok(i)
    }

    fn atom(&mut self, m: &mut Mods, red: bool) -> R<Inst> {
        let space = Self::space_mod(m);
        if matches!(space, Space::Const | Space::Param | Space::Local) {
            return self.err(format!("atomics on .{} are not supported", space.name()));
        }
        Self::ignore_mem_mods(m);
        let op = match m.take_any(&["add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor"]).as_deref() {
            Some("add") => AtomOp::Add,
            Some("min") => AtomOp::Min,
            Some("max") => AtomOp::Max,
            Some("inc") => AtomOp::Inc,
            Some("dec") => AtomOp::Dec,
            Some("exch") => AtomOp::Exch,
            Some("cas") => AtomOp::Cas,
            Some("and") => AtomOp::And,
            Some("or") => AtomOp::Or,
            Some("xor") => AtomOp::Xor,
            _ => return self.err("missing atomic operation"),
        };
        let ty = self.one_type(m, |t| matches!(t.bits(), 32 | 64) && t != Ty::Pred)?;
        self.done(m)?;
        let ok = match op {
            AtomOp::Add => !matches!(ty, Ty::B32 | Ty::B64),
            AtomOp::Min | AtomOp::Max => ty.is_int() && !matches!(ty, Ty::B32 | Ty::B64),
            AtomOp::Inc | AtomOp::Dec => ty == Ty::U32,
            AtomOp::Exch | AtomOp::Cas => matches!(ty, Ty::B32 | Ty::B64),
            AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(ty, Ty::B32 | Ty::B64),
        };
        if !ok {
            return self.err(format!("type .{} is not valid for this atomic operation", ty.name()));
        }
        if red && op == AtomOp::Cas {
            return self.err("red.cas does not exist");
        }
        let nsrc = if op == AtomOp::Cas { 2 } else { 1 };
        let first = if red { 0 } else { 1 };
        self.nops(first + 1 + nsrc)?;
        let mut i = self.mk(Op::Atom { space, op, ty });
        if !red {
            i.dst[0] = self.dst(0, ty, Fit::Exact)?;
        }
        i.addr = Some(self.addr(first, space)?);
        for k in 0..nsrc {
            i.src[k] = self.src(first + 1 + k, ty, Fit::Exact)?;
        }
        Ok(i)
    }

    fn arith(&mut self, base: &str, m: &mut Mods) -> R<Inst> {
        // Extended precision: `addc`/`subc`/`madc` read the carry flag,
        // `.cc` writes it; on .u32/.s32/.u64/.s64 only.
        let carry_in = base.ends_with('c') && base != "sad";
        let base = if carry_in { &base[..base.len() - 1] } else { base };
        let carry = (if carry_in { CARRY_IN } else { 0 }) | (if m.take("cc") { CARRY_OUT } else { 0 });
        let mode = m.take_any(&["lo", "hi", "wide"]);
        let ts = m.types();
        let ty = match ts.as_slice() {
            [t] if *t != Ty::Pred => *t,
            [] => return self.err("missing type"),
            _ => return self.err("expected one non-predicate type"),
        };
        if ty.bits() == 8 {
            return self.err("8-bit arithmetic does not exist in PTX");
        }
        let (op, f) = if ty.is_float() || ty.is_half() {
            if carry != 0 {
                return self.err("carry (.cc, addc, subc, madc) is integer-only");
            }
            if mode.is_some() {
                return self.err("`.lo/.hi/.wide` are integer modifiers");
            }
            let mut f = self.float_mods(m, base == "div" && !ty.is_half())?;
            if ty.is_half() {
                f.relu = base == "fma" && m.take("relu");
                f.nan = matches!(base, "min" | "max") && m.take("NaN");
                if f.rnd.is_some() {
                    return self.err("half-precision arithmetic rounds to nearest only (.rn)");
                }
                if !matches!(base, "add" | "sub" | "mul" | "fma" | "min" | "max") {
                    return self.err(format!("{base} has no .{} form", ty.name()));
                }
            }
            if base == "div" && !f.approx && f.rnd.is_none() && !m.list.iter().any(|x| x == "rn") && ty == Ty::F32 {
                return self.err("div.f32 needs .rn, .approx or .full");
            }
            let op = match base {
                "add" => AluOp::Add,
                "sub" => AluOp::Sub,
                "mul" => AluOp::Mul,
                "mad" | "fma" => AluOp::Mad,
                "div" => AluOp::Div,
                "min" => AluOp::Min,
                "max" => AluOp::Max,
                _ => return self.err("not a floating-point operation"),
            };
            (op, f)
        } else {
            if base == "fma" {
                return self.err("fma is floating-point only");
            }
            if ty.name().starts_with('b') {
                return self.err(format!("type .{} is not valid for {base} (use .u or .s)", ty.name()));
            }
            let sat = m.take("sat");
            if sat && !(ty == Ty::S32 && matches!(base, "add" | "sub")) {
                return self.err("`.sat` is only valid on add/sub.s32 here");
            }
            let op = match (base, mode.as_deref()) {
                ("add", None) => AluOp::Add,
                ("sub", None) => AluOp::Sub,
                ("mul", Some("lo")) => AluOp::Mul,
                ("mul", Some("hi")) => AluOp::MulHi,
                ("mul", Some("wide")) => AluOp::MulWide,
                ("mad", Some("lo")) => AluOp::Mad,
                ("mad", Some("hi")) => AluOp::MadHi,
                ("mad", Some("wide")) => AluOp::MadWide,
                ("mul" | "mad", None) => return self.err("integer mul/mad need .lo, .hi or .wide"),
                ("mul24", Some(h @ ("lo" | "hi"))) if ty.bits() == 32 => AluOp::Mul24 { hi: h == "hi" },
                ("mad24", Some(h @ ("lo" | "hi"))) if ty.bits() == 32 => AluOp::Mad24 { hi: h == "hi" },
                ("mul24" | "mad24", _) => return self.err("mul24/mad24 need .lo or .hi and .u32 or .s32"),
                ("sad", None) => AluOp::Sad,
                ("div", None) => AluOp::Div,
                ("rem", None) => AluOp::Rem,
                ("min", None) => AluOp::Min,
                ("max", None) => AluOp::Max,
                _ => return self.err("invalid modifiers"),
            };
            if matches!(op, AluOp::MulWide | AluOp::MadWide) && ty.bits() == 64 {
                return self.err(".wide needs a 16- or 32-bit type");
            }
            if carry != 0 && (!matches!(op, AluOp::Add | AluOp::Sub | AluOp::Mad | AluOp::MadHi) || ty.bits() < 32 || sat) {
                return self.err("carry (.cc, addc, subc, madc) is only valid on add, sub and mad.lo/.hi of 32- and 64-bit integers");
            }
            (op, FMods { sat, carry, ..Default::default() })
        };
        self.done(m)?;
        let n = if matches!(op, AluOp::Mad | AluOp::MadHi | AluOp::MadWide | AluOp::Mad24 { .. } | AluOp::Sad) { 4 } else { 3 };
        self.nops(n)?;
        let wide = Ty::parse(&format!("{}{}", if ty.is_signed() { "s" } else { "u" }, ty.bits() * 2)).unwrap_or(ty);
        let dty = if matches!(op, AluOp::MulWide | AluOp::MadWide) { wide } else { ty };
        let mut i = self.mk(Op::Alu { op, ty, f });
        i.dst[0] = self.dst(0, dty, Fit::Exact)?;
        i.src[0] = self.src(1, ty, Fit::Exact)?;
        i.src[1] = self.src(2, ty, Fit::Exact)?;
        if n == 4 {
            i.src[2] = self.src(3, dty, Fit::Exact)?;
        }
        Ok(i)
    }

    fn unary(&mut self, base: &str, m: &mut Mods) -> R<Inst> {
        let float_only = matches!(base, "rcp" | "sqrt" | "rsqrt" | "ex2" | "lg2" | "sin" | "cos");
        let bits_only = matches!(base, "not" | "cnot" | "popc" | "clz" | "brev");
        let f = if float_only || matches!(base, "neg" | "abs") { self.float_mods(m, float_only)? } else { FMods::default() };
        let ty = self.one_type(m, |t| {
            if float_only {
                t.is_float() || base == "ex2" && t.is_half()
            } else if bits_only {
                matches!(t, Ty::B16 | Ty::B32 | Ty::B64 | Ty::Pred)
                    && (base == "not" || t != Ty::Pred)
                    && (matches!(base, "not" | "cnot") || t.bits() >= 32)
            } else {
                t != Ty::Pred && t.bits() >= 16 && (t.is_float() || t.is_half() || t.is_signed())
            }
        })?;
        self.done(m)?;
        if f.rnd.is_some() && !matches!(base, "rcp" | "sqrt") {
            return self.err(format!("a directed rounding mode is only valid on rcp and sqrt here, not {base}"));
        }
        if float_only && !f.approx && f.rnd.is_none() && !m.list.iter().any(|x| x == "rn") {
            return self.err("needs .rn or .approx");
        }
        if matches!(base, "rsqrt" | "ex2" | "lg2" | "sin" | "cos") && !f.approx {
            return self.err("only the .approx form exists");
        }
        if !ty.is_float() && !ty.is_half() && (f.ftz || f.sat) {
            return self.err("`.ftz/.sat` are floating-point modifiers");
        }
        self.nops(2)?;
        let op = match base {
            "neg" => AluOp::Neg,
            "abs" => AluOp::Abs,
            "not" => AluOp::Not,
            "cnot" => AluOp::Cnot,
            "popc" => AluOp::Popc,
            "clz" => AluOp::Clz,
            "brev" => AluOp::Brev,
            "rcp" => AluOp::Rcp,
            "sqrt" => AluOp::Sqrt,
            "rsqrt" => AluOp::Rsqrt,
            "ex2" => AluOp::Ex2,
            "lg2" => AluOp::Lg2,
            "sin" => AluOp::Sin,
            _ => AluOp::Cos,
        };
        let dty = if matches!(op, AluOp::Popc | AluOp::Clz) { Ty::U32 } else { ty };
        let mut i = self.mk(Op::Alu { op, ty, f });
        i.dst[0] = self.dst(0, dty, Fit::Exact)?;
        i.src[0] = self.src(1, ty, Fit::Exact)?;
        Ok(i)
    }

    /// `tex.GEOM.v4.DTY.CTY {d0, d1, d2, d3}, [t, {c...}]`: `t` a texture
    /// reference of the module or a 64-bit register holding a texture object.
    fn tex(&mut self, m: &mut Mods) -> R<Inst> {
        let dims = match m.take_any(&["1d", "2d", "3d"]).as_deref() {
            Some("1d") => 1u8,
            Some("2d") => 2,
            Some("3d") => 3,
            _ => return self.err("only .1d, .2d and .3d textures are supported (not arrays or cube maps)"),
        };
        if !m.take("v4") {
            return self.err("needs .v4");
        }
        let ts = m.types();
        let (dty, cty) = match ts.as_slice() {
            [d, c] if matches!(d, Ty::F32 | Ty::S32 | Ty::U32) && matches!(c, Ty::F32 | Ty::S32) => (*d, *c),
            _ => return self.err("expected tex.GEOM.v4.{f32,s32,u32}.{f32,s32}"),
        };
        self.done(m)?;
        self.nops(2)?;
        let mut i = self.mk(Op::Tex { dims, dty, cty });
        let (d_raw, dpos) = self.ops[0].clone();
        match &d_raw {
            Raw::Vec(elems) if elems.len() == 4 => {
                for (k, (raw, pos)) in elems.iter().enumerate() {
                    i.dst[k] = self.dst_raw(raw, *pos, dty, Fit::Exact, true)?;
                }
            }
            _ => return self.err_at(dpos, "expected four destinations `{d0, d1, d2, d3}`"),
        }
        let (a_raw, apos) = self.ops[1].clone();
        let Raw::Tex(t, coords) = a_raw else {
            return self.err_at(apos, "expected `[texture, {coordinates}]`");
        };
        i.src[0] = if let Some((id, width, _)) = self.reg_info(&t) {
            if width != RegWidth::W64 {
                return self.err_at(apos, format!("texture object register `{t}` must be 64-bit"));
            }
            Opnd::D(id)
        } else if let Some(k) = self.p.texrefs.iter().position(|n| *n == t) {
            Opnd::Imm(crate::texture::TEXREF_TAG | k as u64)
        } else {
            return self.err_at(apos, format!("`{t}` is neither a texture reference (`.global .texref`) nor a register"));
        };
        // 3D coordinates come as a 4-vector whose last element is ignored.
        let want = if dims == 3 { 4 } else { dims as usize };
        if coords.len() != want {
            return self.err_at(apos, format!("{} coordinates for a .{dims}d texture (expected {want})", coords.len()));
        }
        for (d, (raw, pos)) in coords.iter().take(dims as usize).enumerate() {
            let saved = std::mem::replace(&mut self.ops[1], (raw.clone(), *pos));
            let r = self.src(1, cty, Fit::Exact);
            self.ops[1] = saved;
            i.src[1 + d] = r?;
        }
        Ok(i)
    }

    /// `CMP[.BOP][.ftz]` of `setp` and `set`.
    fn compare_mods(&self, m: &mut Mods) -> R<(Cmp, Option<BoolOp>, bool)> {
        let cmp = match m.list.first().and_then(|c| Cmp::parse(c)) {
            Some(c) => {
                m.used[0] = true;
                c
            }
            None => return self.err("missing comparison (.eq, .lt, ...)"),
        };
        let bop = match m.take_any(&["and", "or", "xor"]).as_deref() {
            Some("and") => Some(BoolOp::And),
            Some("or") => Some(BoolOp::Or),
            Some("xor") => Some(BoolOp::Xor),
            _ => None,
        };
        Ok((cmp, bop, m.take("ftz")))
    }

    /// The comparison and `.ftz` fit the compared type `ty`.
    fn check_compare(&self, cmp: Cmp, ftz: bool, ty: Ty) -> R<()> {
        let fl = ty.is_float() || ty.is_half();
        if ftz && !fl {
            return self.err("`.ftz` is a floating-point modifier");
        }
        if cmp.is_float_only() && !fl {
            return self.err("unordered comparisons need a floating-point type");
        }
        if cmp.is_unsigned_only() && fl {
            return self.err(".lo/.ls/.hi/.hs need an integer type");
        }
        Ok(())
    }

    /// The compared operands `a, b` (operands 1 and 2) and, with a boolean
    /// operation, its predicate `{!}c` (operand 3; negated is encoded as
    /// `src[3] = Imm(1)`).
    fn compare_sources(&mut self, i: &mut Inst, ty: Ty, bop: Option<BoolOp>) -> R<()> {
        i.src[0] = self.src(1, ty, Fit::Exact)?;
        i.src[1] = self.src(2, ty, Fit::Exact)?;
        if bop.is_some() {
            let (c, neg) = self.pred_src(3)?;
            i.src[2] = c;
            if neg {
                i.src[3] = Opnd::Imm(1);
            }
        }
        Ok(())
    }

    /// `set.CMP[.BOP][.ftz].DTY.STY d, a, b[, {!}c]`.
    fn set(&mut self, m: &mut Mods) -> R<Inst> {
        let (cmp, bop, ftz) = self.compare_mods(m)?;
        let ts = m.types();
        let (dty, sty) = match ts.as_slice() {
            [d, s] if matches!(d, Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2) && *s != Ty::Pred && s.bits() >= 16 => (*d, *s),
            _ => return self.err("expected set.CMP.DTYPE.STYPE (DTYPE .u32, .s32, .f32 or a half type)"),
        };
        self.done(m)?;
        if dty.is_x2() != sty.is_x2() && !(sty.is_x2() && matches!(dty, Ty::U32 | Ty::S32)) {
            return self.err("a pair result needs a pair source");
        }
        self.check_compare(cmp, ftz, sty)?;
        self.nops(if bop.is_some() { 4 } else { 3 })?;
        let mut i = self.mk(Op::Set { cmp, bop, dty, sty, ftz });
        i.dst[0] = self.dst(0, dty, Fit::Exact)?;
        self.compare_sources(&mut i, sty, bop)?;
        Ok(i)
    }

    fn setp(&mut self, m: &mut Mods) -> R<Inst> {
        let (cmp, bop, ftz) = self.compare_mods(m)?;
        let ty = self.one_type(m, |t| t != Ty::Pred && t.bits() >= 16)?;
        self.done(m)?;
        self.check_compare(cmp, ftz, ty)?;
        if ty.is_x2() && !matches!(self.ops.first(), Some((Raw::Pipe(..), _))) {
            return self.err(format!("setp.{} writes two predicates: `p|q`", ty.name()));
        }
        self.nops(if bop.is_some() { 4 } else { 3 })?;
        let mut i = self.mk(Op::Setp { cmp, bop, ty, ftz });
        let (d_raw, dpos) = self.ops[0].clone();
        match d_raw {
            Raw::Pipe(p, q) => {
                i.dst[0] = self.dst_raw(&Raw::Word(p), dpos, Ty::Pred, Fit::Exact, true)?;
                i.dst[1] = self.dst_raw(&Raw::Word(q), dpos, Ty::Pred, Fit::Exact, true)?;
            }
            _ => i.dst[0] = self.dst(0, Ty::Pred, Fit::Exact)?,
        }
        self.compare_sources(&mut i, ty, bop)?;
        Ok(i)
    }

    fn cvt(&mut self, m: &mut Mods) -> R<Inst> {
        let rnd = match m.take_any(&["rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"]).as_deref() {
            Some("rn") => Some(Rnd::Rn),
            Some("rz") => Some(Rnd::Rz),
            Some("rm") => Some(Rnd::Rm),
            Some("rp") => Some(Rnd::Rp),
            Some("rni") => Some(Rnd::Rni),
            Some("rzi") => Some(Rnd::Rzi),
            Some("rmi") => Some(Rnd::Rmi),
            Some("rpi") => Some(Rnd::Rpi),
            _ => None,
        };
        let ftz = m.take("ftz");
        let sat = m.take("sat");
        let ts = m.types();
        let (dty, sty) = match ts.as_slice() {
            [d, s] if *d != Ty::Pred && *s != Ty::Pred => (*d, *s),
            _ => return self.err("expected cvt.DTYPE.STYPE"),
        };
        self.done(m)?;
        let int_rnd = matches!(rnd, Some(Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi));
        let flt_rnd = matches!(rnd, Some(Rnd::Rn | Rnd::Rz | Rnd::Rm | Rnd::Rp));
        if dty.is_x2() || sty.is_x2() {
            // `cvt.rn.f16x2.f32 d, a, b`: two f32 to a pair.
            if sty != Ty::F32 || !flt_rnd {
                return self.err(format!("cvt to .{} takes two .f32 sources and .rn/.rz/.rm/.rp", dty.name()));
            }
            self.nops(3)?;
            let mut i = self.mk(Op::Cvt { dty, sty, rnd, ftz, sat });
            i.dst[0] = self.dst(0, dty, Fit::Exact)?;
            i.src[0] = self.src(1, sty, Fit::Exact)?;
            i.src[1] = self.src(2, sty, Fit::Exact)?;
            return Ok(i);
        }
        let fl = |t: Ty| t.is_float() || t.is_half();
        match (fl(dty), fl(sty)) {
            (false, false) => {
                if rnd.is_some() {
                    return self.err("integer-to-integer cvt takes no rounding modifier");
                }
            }
            (true, false) => {
                if !flt_rnd {
                    return self.err("integer-to-float cvt needs .rn/.rz/.rm/.rp");
                }
            }
            (false, true) => {
                if !int_rnd {
                    return self.err("float-to-integer cvt needs .rni/.rzi/.rmi/.rpi");
                }
            }
            (true, true) => {
                if dty.bits() < sty.bits() || dty.is_half() && sty.is_half() && dty != sty {
                    if !flt_rnd {
                        return self.err("narrowing float cvt needs .rn/.rz/.rm/.rp");
                    }
                } else if dty == sty {
                    if flt_rnd {
                        return self.err("same-type float cvt takes .rni/.rzi/.rmi/.rpi");
                    }
                } else if rnd.is_some() {
                    return self.err("widening float cvt takes no rounding modifier");
                }
            }
        }
        self.nops(2)?;
        let mut i = self.mk(Op::Cvt { dty, sty, rnd, ftz, sat });
        i.dst[0] = self.dst(0, dty, if dty.bits() < 32 { Fit::Wider } else { Fit::Exact })?;
        // An integer source may sit in a wider register (the PTX ISA: the
        // value is truncated to the source type; nvcc emits
        // `cvt.s64.s32 %rd36, %rd6` in Rodinia's lavaMD).
        i.src[0] = self.src(1, sty, if sty.bits() < 32 || sty.is_int() { Fit::Wider } else { Fit::Exact })?;
        Ok(i)
    }
}

/// Instructions a function may have once its calls are inlined.
const MAX_INLINED_INSTS: usize = 1 << 22;

/// Put each callee's body in place of its calls, callees first, as NVVM
/// does for most device functions: a kernel stays one instruction list for
/// the allocator, the CFG and the SIMT stack. The callee's parameters are
/// the caller's call-site `.param` variables (local memory, so the timing
/// model sees the ABI's stack traffic); its other locals get a frame after
/// the caller's own. A recursive function (one on a cycle of calls) cannot
/// be inlined: it is appended to each kernel that reaches it and called
/// with [`Op::Call`] ([`link_recursive`]).
fn inline_calls(funcs: &mut [ParsedFunc], file: &str) -> R<()> {
    let index: HashMap<String, usize> = funcs.iter().enumerate().map(|(i, f)| (f.name.clone(), i)).collect();
    let err = |line: u32, col: u32, msg: String| ParseError { file: file.into(), line, col, msg };
    // Every callee exists and is a function.
    let mut callees: Vec<Vec<usize>> = Vec::with_capacity(funcs.len());
    for f in funcs.iter() {
        let mut v = Vec::new();
        for site in &f.calls {
            let Some(&callee) = index.get(&site.callee) else {
                return Err(err(site.line, site.col, format!("call to `{}`: no such function is defined in this module", site.callee)));
            };
            if funcs[callee].is_entry {
                return Err(err(site.line, site.col, format!("call to `{}`: a kernel (.entry) cannot be called", site.callee)));
            }
            v.push(callee);
        }
        callees.push(v);
    }
    // Recursive functions: those that reach themselves.
    let recursive: Vec<bool> = (0..funcs.len())
        .map(|f| {
            let mut seen = vec![false; funcs.len()];
            let mut todo: Vec<usize> = callees[f].clone();
            while let Some(g) = todo.pop() {
                if g == f {
                    return true;
                }
                if !std::mem::replace(&mut seen[g], true) {
                    todo.extend(&callees[g]);
                }
            }
            false
        })
        .collect();
    // Inline, callees first, along the calls of non-recursive functions
    // (those edges form no cycle). 0: not expanded, 1: on the path, 2: expanded.
    let mut state = vec![0u8; funcs.len()];
    for root in 0..funcs.len() {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        // An explicit stack (function, next call site): call chains do not
        // deepen the host's stack.
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(fi, ci)) = path.last() {
            let Some(&callee) = callees[fi].get(ci) else {
                path.pop();
                expand(funcs, fi, &index, &recursive).map_err(|(line, col, msg)| err(line, col, msg))?;
                state[fi] = 2;
                continue;
            };
            path.last_mut().expect("non-empty").1 += 1;
            if !recursive[callee] && state[callee] == 0 {
                state[callee] = 1;
                path.push((callee, 0));
            }
        }
    }
    for k in 0..funcs.len() {
        if funcs[k].is_entry && !funcs[k].calls.is_empty() {
            link_recursive(funcs, k, &index).map_err(|(line, col, msg)| err(line, col, msg))?;
        }
    }
    Ok(())
}

/// Append the recursive functions kernel `k` calls (and those they call) to
/// its instructions and turn the calls into [`Op::Call`]. Every call level
/// has a frame of the kernel's whole local size (its own locals, every
/// function's, spill slots): a caller's call-site `.param` variables become
/// the callee's parameters and return values one frame up
/// ([`crate::memory::NEXT_FRAME`] + their offset in the callee).
fn link_recursive(funcs: &mut [ParsedFunc], k: usize, index: &HashMap<String, usize>) -> Result<(), CallError> {
    let header = funcs[k].clone_header();
    let mut kern = std::mem::replace(&mut funcs[k], header);
    // Regions: (function, first instruction, one past the last); the kernel first.
    let mut regions: Vec<(Option<usize>, usize, usize)> = vec![(None, 0, kern.insts.len())];
    let mut placed: HashMap<usize, u32> = HashMap::new();
    let mut sites: Vec<(usize, CallSite)> = std::mem::take(&mut kern.calls).into_iter().map(|c| (0, c)).collect();
    let mut next = 0;
    while next < sites.len() {
        let callee = index[&sites[next].1.callee];
        next += 1;
        if placed.contains_key(&callee) {
            continue;
        }
        let f = &funcs[callee];
        let start = kern.insts.len();
        placed.insert(callee, start as u32);
        let vbase = kern.vregs.len() as u32;
        kern.vregs.extend(f.vregs.iter().map(|v| VRegInfo { name: format!("{}::{}", f.name, v.name), ..v.clone() }));
        for ci in &f.insts {
            let mut i = relocated(ci, vbase, start as u32);
            if i.op == Op::Exit && !i.opcode.starts_with("exit") {
                i.op = Op::Ret;
            }
            kern.insts.push(i);
        }
        kern.local_refs.extend(f.local_refs.iter().map(|r| match *r {
            LocalRef::Addr(i) => LocalRef::Addr(i + start),
            LocalRef::Src(i, s) => LocalRef::Src(i + start, s),
        }));
        kern.labels.extend(f.labels.iter().map(|(l, t)| (format!("{}::{l}", f.name), t + start as u32)));
        kern.local_bytes = kern.local_bytes.max(f.local_bytes);
        let region = regions.len();
        regions.push((Some(callee), start, kern.insts.len()));
        sites.extend(f.calls.iter().map(|c| (region, CallSite { inst: c.inst + start, ..c.clone() })));
        if kern.insts.len() > MAX_INLINED_INSTS {
            return Err((f.line, 1, format!("linking `{}` makes `{}` longer than {MAX_INLINED_INSTS} instructions", f.name, kern.name)));
        }
    }
    // Each call: its target, and its `.param` variables moved one frame up.
    let mut moves: Vec<Vec<(u64, u64, u64)>> = vec![Vec::new(); regions.len()];
    for (region, site) in &sites {
        let callee = index[&site.callee];
        for (p, &(at, size)) in call_pairs(site, &funcs[callee])? {
            moves[*region].push((at, size, crate::memory::NEXT_FRAME + p.offset as u64));
        }
        let call = &mut kern.insts[site.inst];
        call.op = Op::Call { target: placed[&callee] };
    }
    for r in std::mem::take(&mut kern.local_refs) {
        let (LocalRef::Addr(i) | LocalRef::Src(i, _)) = r;
        let region = regions.iter().position(|&(_, s, e)| (s..e).contains(&i)).unwrap_or(0);
        let mv = |v: u64| -> u64 {
            let (win, off) = if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&v) { (LOCAL_WINDOW, v - LOCAL_WINDOW) } else { (0, v) };
            match moves[region].iter().find(|&&(at, size, _)| (at..at + size).contains(&off)) {
                Some(&(at, _, to)) => win + to + (off - at),
                None => v,
            }
        };
        let inst = &mut kern.insts[i];
        match r {
            LocalRef::Addr(_) => {
                if let Some(a) = &mut inst.addr {
                    a.off = mv(a.off as u64) as i64;
                }
            }
            LocalRef::Src(_, s) => {
                if let Opnd::Imm(v) = &mut inst.src[s] {
                    *v = mv(*v);
                }
            }
        }
        kern.local_refs.push(r);
    }
    kern.labels.sort_by_key(|(_, t)| *t);
    funcs[k] = kern;
    Ok(())
}

/// A call that cannot be made: (line, column, message).
type CallError = (u32, u32, String);

/// A callee's parameter (or return value) and the caller's `.param`
/// variable for it: (local offset, bytes).
type ParamPair<'c> = (&'c ParamDecl, &'c (u64, u64));

/// The callee's parameters and return values paired with the `.param`
/// variables a call passes for them (counts and sizes checked).
fn call_pairs<'c>(site: &'c CallSite, c: &'c ParsedFunc) -> Result<Vec<ParamPair<'c>>, CallError> {
    let here = |msg: String| (site.line, site.col, format!("call to `{}`: {msg}", site.callee));
    if site.args.len() != c.params.len() {
        return Err(here(format!("{} arguments passed, the function takes {}", site.args.len(), c.params.len())));
    }
    if site.rets.len() > c.rets.len() {
        return Err(here(format!("{} return values received, the function returns {}", site.rets.len(), c.rets.len())));
    }
    let pairs: Vec<ParamPair> = c.params.iter().zip(&site.args).chain(c.rets.iter().zip(&site.rets)).collect();
    for (p, &(_, size)) in &pairs {
        if size != p.size as u64 {
            return Err(here(format!("`{}` is {} bytes, the .param passed for it {size}", p.name, p.size)));
        }
    }
    Ok(pairs)
}

/// A callee's instruction for a copy of its body in another function:
/// virtual registers from `vbase`, branch targets from `start`.
fn relocated(ci: &Inst, vbase: u32, start: u32) -> Inst {
    let mut i = ci.clone();
    for o in i.dst.iter_mut().chain(i.src.iter_mut()) {
        if let Opnd::R(n) | Opnd::D(n) | Opnd::P(n) = o {
            *n += vbase;
        }
    }
    if let Some(Addr { base: Opnd::R(n) | Opnd::D(n) | Opnd::P(n), .. }) = &mut i.addr {
        *n += vbase;
    }
    if let Some(g) = &mut i.guard {
        g.pred += vbase;
    }
    if let Op::Bra { target, .. } = &mut i.op {
        *target += start;
    }
    i
}

/// Inline every call of `funcs[fi]` (its callees are already expanded).
fn expand(funcs: &mut [ParsedFunc], fi: usize, index: &HashMap<String, usize>, recursive: &[bool]) -> Result<(), CallError> {
    if funcs[fi].calls.is_empty() {
        return Ok(());
    }
    let header = funcs[fi].clone_header();
    let mut caller = std::mem::replace(&mut funcs[fi], header);
    let sites: HashMap<usize, CallSite> = std::mem::take(&mut caller.calls).into_iter().map(|c| (c.inst, c)).collect();
    let area = align_up(caller.local_bytes as u64, 16);
    let mut local_end = caller.local_bytes as u64;
    let old = std::mem::take(&mut caller.insts);
    let mut own_refs: HashMap<usize, Vec<LocalRef>> = HashMap::new();
    for r in std::mem::take(&mut caller.local_refs) {
        let (LocalRef::Addr(k) | LocalRef::Src(k, _)) = r;
        own_refs.entry(k).or_default().push(r);
    }
    let mut out: Vec<Inst> = Vec::with_capacity(old.len());
    let mut new_pos = vec![0u32; old.len() + 1];
    let mut own = Vec::with_capacity(old.len());
    let mut labels = Vec::new();
    for (k, inst) in old.into_iter().enumerate() {
        new_pos[k] = out.len() as u32;
        let Some(site) = sites.get(&k) else {
            for r in own_refs.remove(&k).unwrap_or_default() {
                caller.local_refs.push(match r {
                    LocalRef::Addr(_) => LocalRef::Addr(out.len()),
                    LocalRef::Src(_, s) => LocalRef::Src(out.len(), s),
                });
            }
            own.push(out.len());
            out.push(inst);
            continue;
        };
        if recursive[index[&site.callee]] {
            // Stays a call (linked into each kernel by `link_recursive`).
            caller.calls.push(CallSite { inst: out.len(), ..site.clone() });
            own.push(out.len());
            out.push(inst);
            continue;
        }
        let c = &funcs[index[&site.callee]];
        let here = |msg: String| (site.line, site.col, format!("call to `{}`: {msg}", site.callee));
        if !c.shared.is_empty() || c.dynamic_shared_align.is_some() {
            return Err(here("the function uses .shared variables, which inlined calls do not support".into()));
        }
        let pairs = call_pairs(site, c)?;
        // Where a callee local offset lands in the caller's frame.
        let reloc = |v: u64| -> u64 {
            for (p, &(at, _)) in &pairs {
                if (p.offset as u64..(p.offset + p.size) as u64).contains(&v) {
                    return at + v - p.offset as u64;
                }
            }
            area + v
        };
        let reloc_any = |v: u64| -> u64 {
            if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&v) {
                LOCAL_WINDOW + reloc(v - LOCAL_WINDOW)
            } else {
                reloc(v)
            }
        };
        local_end = local_end.max(area + c.local_bytes as u64);
        let skip = inst.guard.is_some() as usize;
        let start = out.len() + skip;
        let after = (start + c.insts.len()) as u32;
        if let Some(g) = inst.guard {
            // `@p call`: the body runs where p holds.
            let mut b = Inst::new(Op::Bra { target: after, uni: false, reconv: 0 }, "bra", inst.line, inst.col);
            b.guard = Some(Guard { pred: g.pred, neg: !g.neg });
            out.push(b);
        }
        let vbase = caller.vregs.len() as u32;
        caller.vregs.extend(c.vregs.iter().map(|v| VRegInfo { name: format!("{}::{}", c.name, v.name), ..v.clone() }));
        let refs: HashMap<usize, Vec<LocalRef>> = c.local_refs.iter().fold(HashMap::new(), |mut m, r| {
            let (LocalRef::Addr(k) | LocalRef::Src(k, _)) = *r;
            m.entry(k).or_insert_with(Vec::new).push(*r);
            m
        });
        for (j, ci) in c.insts.iter().enumerate() {
            let mut i = relocated(ci, vbase, start as u32);
            if i.op == Op::Exit && !i.opcode.starts_with("exit") {
                i.op = Op::Bra { target: after, uni: false, reconv: 0 };
            }
            for r in refs.get(&j).into_iter().flatten() {
                match *r {
                    LocalRef::Addr(_) => {
                        if let Some(a) = &mut i.addr {
                            a.off = reloc_any(a.off as u64) as i64;
                        }
                        caller.local_refs.push(LocalRef::Addr(out.len()));
                    }
                    LocalRef::Src(_, s) => {
                        if let Opnd::Imm(v) = &mut i.src[s] {
                            *v = reloc_any(*v);
                        }
                        caller.local_refs.push(LocalRef::Src(out.len(), s));
                    }
                }
            }
            out.push(i);
        }
        labels.extend(c.labels.iter().map(|(l, t)| (format!("{}::{l}", c.name), t + start as u32)));
        // The callee's own calls of recursive functions, now the caller's.
        let moved = |v: &[(u64, u64)]| v.iter().map(|&(a, n)| (reloc(a), n)).collect();
        caller.calls.extend(c.calls.iter().map(|cs| CallSite { inst: cs.inst + start, args: moved(&cs.args), rets: moved(&cs.rets), ..cs.clone() }));
        if out.len() > MAX_INLINED_INSTS {
            return Err(here(format!("inlining makes `{}` longer than {MAX_INLINED_INSTS} instructions", caller.name)));
        }
    }
    *new_pos.last_mut().expect("one past the end") = out.len() as u32;
    for k in own {
        if let Op::Bra { target, .. } = &mut out[k].op {
            *target = new_pos[*target as usize];
        }
    }
    for (_, t) in caller.labels.iter_mut() {
        *t = new_pos[*t as usize];
    }
    caller.labels.extend(labels);
    caller.labels.sort_by_key(|(_, t)| *t);
    caller.insts = out;
    caller.local_bytes = local_end as u32;
    funcs[fi] = caller;
    Ok(())
}

impl ParsedFunc {
    /// A cheap stand-in while the function is taken out to be rewritten.
    fn clone_header(&self) -> ParsedFunc {
        ParsedFunc {
            name: self.name.clone(),
            is_entry: self.is_entry,
            params: Vec::new(),
            param_bytes: 0,
            insts: Vec::new(),
            vregs: Vec::new(),
            shared: Vec::new(),
            shared_bytes: 0,
            dynamic_shared_align: None,
            local_bytes: 0,
            labels: Vec::new(),
            line: self.line,
            rets: Vec::new(),
            local_refs: Vec::new(),
            calls: Vec::new(),
        }
    }
}
