#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Foundation's NSLock and NSCondition live in the part of Foundation that links ICU's
// internationalisation data (about 44 MB of a static binary), and maskclean imports only
// FoundationEssentials (docs/install.md#the-binary-that-travels). These are the same two
// primitives over POSIX threads, with the same names for what they do.

/// A mutual-exclusion lock: `withLock { … }`, or `lock()` and `unlock()` on one thread.
final class Lock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait for: `wait()` (the lock held) releases it until another
/// thread calls `signal()` or `broadcast()`, and holds it again before it returns. As with any
/// condition variable, a waiter checks its predicate in a loop.
final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    func lock() { mutex.lock() }

    func unlock() { mutex.unlock() }

    func wait() { pthread_cond_wait(condition, mutex.mutex) }

    func signal() { pthread_cond_signal(condition) }

    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock(body)
    }
}
