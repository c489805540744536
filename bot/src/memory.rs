//! Giving the allocator's freed memory back to the system once the bot rests.
//!
//! glibc's `malloc` keeps what a burst of events freed: after the shard bench's mix it
//! held 6 to 13 MiB freed and kept beside 5 MiB of live heap (BENCHMARKS.md), and on
//! its own it returns only the top of each heap. `malloc_trim` also releases the free
//! pages inside the heaps. The bot calls it when no event has arrived for a moment
//! after some did, never while one is being handled, so a resting shard's RSS is what
//! it holds rather than what its last burst needed. Elsewhere than glibc this does
//! nothing.

/// Returns freed memory to the system; `true` when some was returned.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn give_back() -> bool {
    // SAFETY: `malloc_trim` takes a byte count to keep at each heap's top and touches
    // only the allocator's own free lists, under its own locks; any thread may call it.
    #[allow(unsafe_code)]
    let released = unsafe { libc::malloc_trim(0) };
    released != 0
}

/// Returns freed memory to the system; `true` when some was returned.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_back() -> bool {
    false
}
