import Foundation
import MaskClean

#if canImport(Glibc)
    import Glibc
#endif

/// Every signal whose default action ends the process (but the faults a program raises on
/// itself) removes the run's temporary files first, then ends the process as the signal would.
///
/// The signals are blocked in every thread and taken by a thread of its own with `sigwait`: a
/// handler on a dispatch queue waited behind busy workers for up to minutes. SIGPIPE is ignored,
/// so that a closed output is a write error the run handles.
enum Signals {
    static let terminating: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
        SIGIO, SIGPWR, SIGSTKFLT,
    ]

    /// Call before any other thread starts: threads inherit the blocked set.
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        var blocked = terminatingSet()
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let waiter = Thread {
            var waitedFor = terminatingSet()
            while true {
                var number: Int32 = 0
                guard sigwait(&waitedFor, &number) == 0 else { continue }
                TemporaryFiles.shared.abandon()
                // Unblocked here and raised again, the signal ends the process with its default
                // action (SIGQUIT included: a quit quits, with no crash report and no commit).
                signal(number, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, number)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(number)
                _exit(128 + number)
            }
        }
        waiter.start()
    }

    private static func terminatingSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in terminating { sigaddset(&set, number) }
        return set
    }
}
