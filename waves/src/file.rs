//! Output files whose errors name them.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

fn cannot(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot write {}: {e}", path.display())
}

/// A buffered file whose write errors name it (a disk that fills during a
/// run says which file could not be written).
pub struct PathWriter {
    inner: BufWriter<File>,
    path: PathBuf,
}

impl PathWriter {
    /// Create `path` (and its directory).
    pub fn create(path: &Path) -> std::io::Result<PathWriter> {
        let named = |e: std::io::Error| std::io::Error::new(e.kind(), cannot(path, e));
        if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d).map_err(named)?;
        }
        let f = File::create(path).map_err(named)?;
        Ok(PathWriter { inner: BufWriter::with_capacity(1 << 16, f), path: path.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn named(&self, e: std::io::Error) -> std::io::Error {
        std::io::Error::new(e.kind(), cannot(&self.path, e))
    }
}

impl Write for PathWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.named(e))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().map_err(|e| self.named(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_errors_name_the_file() {
        let mut w = PathWriter::create(Path::new("/dev/full")).unwrap();
        let e = w.write_all(&[0u8; 1 << 17]).and_then(|_| w.flush()).unwrap_err();
        assert!(e.to_string().starts_with("cannot write /dev/full: No space left on device"), "{e}");
        let e = PathWriter::create(Path::new("/proc/wf/x.vcd")).err().unwrap();
        assert!(e.to_string().starts_with("cannot write /proc/wf/x.vcd: "), "{e}");
    }
}
