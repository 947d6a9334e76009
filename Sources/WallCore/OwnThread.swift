import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs `body` on a thread of its own, which ends when `body` returns: for work that lasts as
/// long as a render (a tile helper's loop). On libdispatch's pool, which has about one thread a
/// core, such work would hold one of its threads the whole time and keep the short tasks sent
/// there (a band to encode) waiting behind it. Falls back to the pool if no thread can be made.
public func startOwnThread(stackSize: Int = 16 << 20, _ body: @escaping @Sendable () -> Void) {
    final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, work)
    if status != 0 {
        Unmanaged<Work>.fromOpaque(work).release()
        DispatchQueue.global().async(execute: body)
    }
}
