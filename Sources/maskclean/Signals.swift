import FoundationEssentials
import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// Every signal whose default action ends the process (but the faults a program raises on
/// itself) removes the run's temporary files first, then ends the process as the signal would.
///
/// The signals are blocked in every thread and read by a thread of its own from a signal file
/// descriptor (signalfd(2)): a handler on a dispatch queue waited behind busy workers for up to
/// minutes. SIGPIPE is ignored, so that a closed output is a write error the run handles.
///
/// Not `sigwait`: while a thread waits in it, the signals it waits for show as unblocked in
/// /proc, and the Swift runtime's crash handler, which pauses every other thread with SIGUSR1
/// (or SIGUSR2, SIGPROF) where one is not blocked, sent it to that thread. The waiter took it
/// for a user's signal and ended the process as "User defined signal 1" before the crash
/// report was printed. Reading a signalfd, the thread keeps every one of them blocked, so a
/// crash keeps its own signal and message.
enum Signals {
    static let terminating: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
        SIGIO, SIGPWR, SIGSTKFLT,
    ]

    /// The faults Swift's crash handler takes (but SIGQUIT, which is taken above).
    static let faults: [Int32] = [SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP]

    /// Call before any other thread starts: threads inherit the blocked set.
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        endFaultsSentFromOutside()
        var blocked = terminatingSet()
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        guard let signalFileDescriptor,
            case let reader = signalFileDescriptor(-1, &blocked, Int32(O_CLOEXEC)),
            reader >= 0
        else {
            // No signalfd (a C library without it): the signals end the process as they would,
            // unblocked again, with no chance to remove the temporary files.
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
            return
        }
        // A thread of its own (not a dispatch queue's, which the pipeline's workers fill), that
        // reads the signal file descriptor passed as its argument for as long as the process runs.
        var waiter = pthread_t()
        let started = pthread_create(
            &waiter, nil,
            { argument in
                let reader = Int32(Int(bitPattern: argument))
                // struct signalfd_siginfo is 128 bytes; the signal's number is its first field.
                var information = [UInt32](repeating: 0, count: 32)
                while true {
                    let count = information.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                    guard count == 128 else { continue }
                    Signals.end(on: Int32(information[0]))
                }
            }, UnsafeMutableRawPointer(bitPattern: Int(reader)))
        if started != 0 {
            // No thread: the signals end the process as they would, unblocked again.
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        }
    }

    /// Removes the temporary files, then ends the process with the signal's default action
    /// (SIGQUIT included: a quit quits, with no crash report and no commit).
    private static func end(on number: Int32) -> Never {
        TemporaryFiles.shared.abandon()
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        _exit(128 + number)
    }

    /// A fault signal sent by another process (`kill -SEGV`) goes through Swift's crash
    /// handler, which prints its report and returns, expecting the faulting instruction to
    /// fault again: sent from outside, nothing faults again and the run went on to commit its
    /// outputs and pass. Each fault's handler is wrapped: once the runtime's returns, a signal
    /// that a process sent ends this one with its default action, as a real fault does, with
    /// nothing committed. Where the runtime installed no handler, the default action does that.
    private static func endFaultsSentFromOutside() {
        for number in faults {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, current.sa_flags & SA_SIGINFO != 0,
                let previous = current.__sigaction_handler.sa_sigaction
            else { continue }
            faultHandlers[number] = previous
            var wrapped = current
            wrapped.__sigaction_handler.sa_sigaction = endAfterCrashReport
            sigaction(number, &wrapped, nil)
        }
    }

    private static func terminatingSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in terminating { sigaddset(&set, number) }
        return set
    }
}

/// `signalfd(2)`, which Glibc's Swift module leaves out: looked up once, nil where the C library
/// has none.
private let signalFileDescriptor: (@convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "signalfd") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32).self)
}()

/// The runtime's handler of each fault, by signal number, set once before any other thread runs.
private let faultHandlers = FaultHandlers()

/// The handlers, read in a signal handler: a fixed table, written before any signal can use it.
private final class FaultHandlers: @unchecked Sendable {
    typealias Handler =
        @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    private var table = [Handler?](repeating: nil, count: 65)

    subscript(number: Int32) -> Handler? {
        get { table[Int(number)] }
        set { table[Int(number)] = newValue }
    }
}

/// Runs the runtime's crash handler, then ends the process with the signal when a process sent it
/// (`si_code` 0 or below: kill, sigqueue, tgkill, abort): nothing will fault again to end it.
private func endAfterCrashReport(
    _ number: Int32, _ information: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    faultHandlers[number]?(number, information, context)
    guard let information, information.pointee.si_code <= 0 else { return }
    signal(number, SIG_DFL)
    raise(number)
}
