//! Giving the allocator's freed memory back to the system once the bot rests.
//!
//! glibc's `malloc` keeps what a burst of events freed: after the shard bench's mix it
//! held 6 to 13 MiB freed and kept beside 5 MiB of live heap (BENCHMARKS.md), and on
//! its own it returns only the top of each heap. `malloc_trim` also releases the free
//! pages inside the heaps. The bot calls it when no event has arrived for a moment
//! after some did, never while one is being handled, so a resting shard's RSS is what
//! it holds rather than what its last burst needed. Elsewhere than glibc this does
//! nothing.
//!
//! glibc also gives each thread that meets a busy heap an arena of its own, up to
//! eight per core, and reserves 64 MiB of address space for each: on two cores a
//! 1.6 MB script that the console checks on a blocking thread took 700 MiB to 1 GiB
//! of address space for 178 MiB of memory used, and failed an allocation under a
//! 1 GiB address-space cap (the hostile campaign's, BENCHMARKS.md). `limit_arenas`
//! caps them at two per core before any thread starts.

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

/// Caps glibc's arenas at two per core; to be called before any thread starts.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn limit_arenas() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let arenas = libc::c_int::try_from(cores.saturating_mul(2)).unwrap_or(libc::c_int::MAX);
    // SAFETY: `mallopt` sets one of the allocator's parameters under its own lock;
    // called first thing in `main`, while no other thread exists.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, arenas);
    }
}

/// Caps glibc's arenas; elsewhere than glibc there is nothing to cap.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_arenas() {}
