#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time of the pipeline's serial stages, where no other worker can run: reading a chunk
/// under the reader's lock, and writing the results in input order (one writer at a time). With
/// the workers' own CPU time, the rest of the process's CPU time is what the main thread spent
/// outside the workers. Their share of all CPU time is the serial fraction that bounds the
/// speed-up on many cores (Amdahl's law); `make bench --jobs-sweep` prints it (issue 32).
///
/// Given to a run only when asked for (`RunOptions.pipelineClock`): each stage then reads its
/// thread's CPU clock twice per chunk, a few hundred nanoseconds a chunk of a megabyte.
public final class PipelineClock: @unchecked Sendable {
    private let lock = Lock()
    private var readingNanoseconds: UInt64 = 0
    private var writingNanoseconds: UInt64 = 0
    private var workerNanoseconds: UInt64 = 0

    public init() {}

    /// CPU seconds spent reading chunks (under the reader's lock), writing results in input
    /// order, and in the workers altogether (reading and writing included).
    public var reading: Double { lock.withLock { Double(readingNanoseconds) / 1e9 } }
    public var writing: Double { lock.withLock { Double(writingNanoseconds) / 1e9 } }
    public var workers: Double { lock.withLock { Double(workerNanoseconds) / 1e9 } }

    /// The calling thread's CPU time so far, in nanoseconds.
    static func threadNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    func addReading(since start: UInt64) {
        let spent = Self.threadNow() &- start
        lock.withLock { readingNanoseconds &+= spent }
    }

    func addWriting(since start: UInt64) {
        let spent = Self.threadNow() &- start
        lock.withLock { writingNanoseconds &+= spent }
    }

    func addWorker(since start: UInt64) {
        let spent = Self.threadNow() &- start
        lock.withLock { workerNanoseconds &+= spent }
    }
}
