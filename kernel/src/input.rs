//! Bounded reads of the files a user names: a kernel, a launch file, a
//! buffer's contents, a configuration, a statistics file. A device or a
//! FIFO (`/dev/zero`, `/dev/urandom`, a named pipe) is refused before it is
//! opened, and no file is read past its limit, so a wrong path costs an
//! error line, never all the memory or a hang.

use std::io::{ErrorKind, Read};
use std::path::Path;

/// Largest text input (PTX, CUDA C, TOML, JSON, CSV): 256 MiB.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a regular file (a device, FIFO or directory is not read as input)")]
    NotRegular,
    #[error("holds {len} bytes, more than the {limit} read")]
    TooLong { len: u64, limit: u64 },
    #[error("not UTF-8 text (byte {0})")]
    NotUtf8(usize),
}

impl From<InputError> for std::io::Error {
    fn from(e: InputError) -> Self {
        match e {
            InputError::Io(e) => e,
            InputError::NotRegular => std::io::Error::new(ErrorKind::InvalidInput, e.to_string()),
            _ => std::io::Error::new(ErrorKind::InvalidData, e.to_string()),
        }
    }
}

/// The contents of the regular file at `path`, at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular);
    }
    if meta.len() > limit {
        return Err(InputError::TooLong { len: meta.len(), limit });
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    // The file may grow between the two calls: still stop at the limit.
    std::fs::File::open(path)?.take(limit + 1).read_to_end(&mut data)?;
    if data.len() as u64 > limit {
        return Err(InputError::TooLong { len: data.len() as u64, limit });
    }
    Ok(data)
}

/// [`read_bounded`] as UTF-8 text, at most [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let data = read_bounded(path, MAX_TEXT_BYTES)?;
    String::from_utf8(data).map_err(|e| InputError::NotUtf8(e.utf8_error().valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_long_files_are_refused() {
        let e = read_bounded(Path::new("/dev/zero"), 16).unwrap_err();
        assert!(matches!(e, InputError::NotRegular), "{e}");
        let dir = std::env::temp_dir().join(format!("wf-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("f.bin");
        std::fs::write(&f, [1u8; 20]).unwrap();
        assert_eq!(read_bounded(&f, 20).unwrap().len(), 20);
        assert_eq!(read_bounded(&f, 19).unwrap_err().to_string(), "holds 20 bytes, more than the 19 read");
        std::fs::write(&f, [b'a', 0xff]).unwrap();
        assert_eq!(read_text(&f).unwrap_err().to_string(), "not UTF-8 text (byte 1)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
