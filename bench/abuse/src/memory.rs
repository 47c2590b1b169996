//! This process's memory, from `/proc/self/status`.

/// A `/proc/self/status` field in MiB (`VmRSS:` now, `VmHWM:` the peak).
pub fn mib(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status
        .lines()
        .find(|line| line.starts_with(field))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|value| value.parse::<f64>().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

pub fn rss() -> f64 {
    mib("VmRSS:")
}

pub fn peak() -> f64 {
    mib("VmHWM:")
}

/// Starts a new peak from the current RSS (Linux: `5` to `clear_refs` resets `VmHWM`).
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}
