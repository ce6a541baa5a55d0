//! Files the command line writes. Every output path is prepared before the
//! work starts — its directory created, the file checked writable — so a
//! long run never ends in "cannot write"; every write error names the path.

use std::fs::OpenOptions;
use std::path::Path;

type Res<T> = Result<T, String>;

fn cannot(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot write {}: {e}", path.display())
}

/// Create `dir` and its parents.
pub fn create_dir(dir: &Path) -> Res<()> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create directory {}: {e}", dir.display()))
}

/// Create the directory `path` goes into and check that `path` can be
/// written, leaving an existing file as it is and no new file behind.
pub fn prepare(path: &Path) -> Res<()> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| cannot(path, format!("cannot create directory {}: {e}", d.display())))?;
    }
    if path.is_dir() {
        return Err(cannot(path, "it is a directory"));
    }
    let existed = path.exists();
    OpenOptions::new().write(true).create(true).truncate(false).open(path).map_err(|e| cannot(path, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Write `text` to `path` (its directory created).
pub fn write(path: &Path, text: &str) -> Res<()> {
    prepare(path)?;
    std::fs::write(path, text).map_err(|e| cannot(path, e))
}

/// Write a finished run's results; if the file cannot be written, print
/// them on standard output instead of losing them, then report the error.
pub fn write_results(path: &Path, text: &str) -> Res<()> {
    write(path, text).inspect_err(|_| print_instead(path, text))
}

/// Results meant for `path`, on standard output.
pub fn print_instead(path: &Path, text: &str) {
    println!("--- {} (could not be written) ---", path.display());
    print!("{text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_creates_the_directory_and_leaves_no_file() {
        let d = std::env::temp_dir().join(format!("wf-output-{}", std::process::id()));
        let f = d.join("a/b/stats.json");
        prepare(&f).unwrap();
        assert!(f.parent().unwrap().is_dir() && !f.exists());
        std::fs::write(&f, "keep").unwrap();
        prepare(&f).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep");
        assert!(prepare(&d).unwrap_err().contains("it is a directory"));
        assert!(prepare(Path::new("/proc/warpforge/x.json")).unwrap_err().starts_with("cannot write /proc/warpforge/x.json: cannot create directory /proc/warpforge"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
