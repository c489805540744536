//! The console's folder for the files it writes (odds charts, transcripts): one
//! folder per console under `tavern-console/` in the temporary directory, bounded,
//! removed when the console ends; folders that ended consoles left behind (a crash,
//! a kill) are removed when the next console starts.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most files one console keeps; writing more removes the oldest.
pub const MAX_FILES: usize = 32;
/// The most bytes one console keeps; writing more removes the oldest files.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// A folder left by a console whose process cannot be checked (no `/proc`) is
/// removed once it is this old.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Consoles of one process (tests make many) get folders of their own.
static CONSOLES: AtomicU64 = AtomicU64::new(0);

/// The folder of one console: named at start, made on first use.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
    max_files: usize,
    max_bytes: u64,
    /// What this console wrote and still keeps, oldest first, with its size.
    kept: VecDeque<(PathBuf, u64)>,
}

impl Scratch {
    /// The folder of a console in the temporary directory, with the usual bounds.
    pub fn in_temp_dir() -> Scratch {
        Scratch::under(
            &std::env::temp_dir().join("tavern-console"),
            MAX_FILES,
            MAX_BYTES,
        )
    }

    /// A console's folder under `parent`, named `<pid>-<n>`; the folders under
    /// `parent` of processes that are gone are removed now.
    pub fn under(parent: &Path, max_files: usize, max_bytes: u64) -> Scratch {
        remove_stale(parent);
        let n = CONSOLES.fetch_add(1, Ordering::Relaxed);
        Scratch {
            dir: parent.join(format!("{}-{n}", std::process::id())),
            max_files: max_files.max(1),
            max_bytes,
            kept: VecDeque::new(),
        }
    }

    /// The folder (it exists once something was written).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes `bytes` as `name` (separators replaced, so it stays in the folder) and
    /// removes the oldest files past the bounds. The newest file is always kept.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let name: String = name
            .chars()
            .map(|ch| if matches!(ch, '/' | '\\') { '_' } else { ch })
            .collect();
        let path = self.dir.join(name);
        std::fs::write(&path, bytes)?;
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        self.kept.retain(|(kept, _)| *kept != path);
        self.kept.push_back((path.clone(), size));
        while self.kept.len() > 1
            && (self.kept.len() > self.max_files || self.kept_bytes() > self.max_bytes)
        {
            if let Some((oldest, _)) = self.kept.pop_front() {
                let _ = std::fs::remove_file(oldest);
            }
        }
        Ok(path)
    }

    fn kept_bytes(&self) -> u64 {
        self.kept.iter().map(|(_, size)| size).sum()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Removes the folders under `parent` whose console is gone: its process no longer
/// runs (where `/proc` tells), else the folder is older than a day.
fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let proc = Path::new("/proc");
    let can_check = proc.is_dir();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let gone = if can_check {
            !proc.join(pid.to_string()).exists()
        } else {
            entry
                .metadata()
                .and_then(|meta| meta.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age > STALE_AFTER)
        };
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
