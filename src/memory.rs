//! What the system says about memory: how much this process holds, and how
//! much the machine has. Read from Linux's `/proc`; elsewhere every answer
//! is `None`, and the limits that rely on them are not enforced.

/// The memory this process holds (its resident size), in bytes.
pub fn resident() -> Option<usize> {
    kib_field("/proc/self/status", "VmRSS:")
}

/// The memory the machine could give this process now, in bytes.
pub fn available() -> Option<usize> {
    kib_field("/proc/meminfo", "MemAvailable:")
}

/// The machine's memory in all, in bytes.
pub fn total() -> Option<usize> {
    kib_field("/proc/meminfo", "MemTotal:")
}

/// A `NAME: N kB` line of a file under `/proc`, in bytes.
fn kib_field(file: &str, name: &str) -> Option<usize> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn a_process_holds_less_than_the_machine_has() {
        let held = super::resident().expect("the resident size");
        let total = super::total().expect("the machine's memory");
        let available = super::available().expect("the memory available");
        assert!(held > 0 && held < total, "{held} of {total}");
        assert!(available <= total, "{available} of {total}");
    }
}
