#if canImport(Glibc)
    import Glibc
#endif

/// Bytes that concurrent work may hold at once. A reservation waits while others hold memory
/// and it would not fit beside them; one too big for the whole budget runs alone. Keeps peak
/// memory bounded when several threads would each decode a huge image at the same time.
public final class MemoryBudget: @unchecked Sendable {
    /// The bytes that may be reserved at once.
    public let limit: Int
    private var reserved = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A budget of `limit` bytes.
    public init(limit: Int) {
        self.limit = max(0, limit)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(released, nil)
    }

    deinit {
        pthread_cond_destroy(released)
        pthread_mutex_destroy(mutex)
        released.deallocate()
        mutex.deallocate()
    }

    /// The bytes reserved right now.
    public var inUse: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return reserved
    }

    /// Runs `body` holding `bytes` of the budget, waiting first until they fit.
    public func withReservation<T, E: Error>(_ bytes: Int, _ body: () throws(E) -> T) throws(E) -> T {
        let bytes = max(0, bytes)
        pthread_mutex_lock(mutex)
        while reserved > 0 && reserved + bytes > limit { pthread_cond_wait(released, mutex) }
        reserved += bytes
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            reserved -= bytes
            pthread_cond_broadcast(released)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
