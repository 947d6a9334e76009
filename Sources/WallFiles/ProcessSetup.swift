import CProcessShim

/// What a command sets up for the whole process before it works: the allocator's thresholds
/// and the interrupt handlers, which remove the temporary files of outputs not yet in place.
public enum ProcessSetup {
    /// Serves allocations of at least `mmapBytes` with their own mappings, returned to the
    /// system when freed, and keeps up to `trimBytes` freed at the top of a heap for the next
    /// allocations (glibc's thresholds, fixed instead of growing): a render's large, short-lived
    /// buffers do not pile up.
    public static func tuneAllocator(mmapBytes: Int = 16 << 20, trimBytes: Int = 64 << 20) {
        _ = iw_set_malloc_thresholds(Int32(mmapBytes), Int32(trimBytes))
    }

    /// SIGINT, SIGTERM and SIGHUP: the first sets ``isInterrupted`` (the work stops at its next
    /// check and removes its temporary files); the second removes every temporary file still
    /// registered (see ``AtomicFile``) from the handler and exits with 128 + the signal number.
    public static func catchInterrupts() {
        iw_install_interrupt_handlers()
    }

    /// Whether an interrupt arrived since ``catchInterrupts()``.
    public static var isInterrupted: Bool { iw_interrupted() != 0 }
}
