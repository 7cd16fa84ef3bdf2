// How every subcommand starts and ends: one path for the standard streams, the signals, the
// error shown and the exit status (docs/exit-status.md).

import ArgumentParser
import MaskClean

#if os(Linux)
    import CMalloc
#endif

/// The one way a subcommand runs once its arguments are parsed. Before its work: a closed
/// standard stream is occupied (`StandardStreams`) and the signals are taken (`Signals`: a
/// signal removes the temporary files, a closed pipe is a write error). After it: its error, if
/// any, is shown on standard error as one line with outputs named by their flags
/// (`Diagnostics.error`), and its status ends the process; a reader of standard output that went
/// away (`maskclean … | head`) ends it quietly with 0, as a Unix filter does. Errors of the
/// command line itself (`ValidationError`) go on to ArgumentParser, which shows them with the
/// usage.
enum ExitPath {
    static func run(_ work: () throws -> ExitStatus) throws {
        StandardStreams.occupyClosed()
        Signals.install()
        #if os(Linux)
            // A buffer of 4 MiB or more (a chunk of one 30 MB record) goes back to the system once
            // freed. glibc otherwise raises its threshold to the largest block freed, and each
            // worker's arena then kept a record's worth (issue 12's bound, issue 32's workers
            // reading their own ranges).
            mallopt(M_MMAP_THRESHOLD, 4 << 20)
            // A fixed threshold also fixes the trim threshold at 128 KiB, where glibc would have
            // raised it with the other: each input of a run over many files then gave its
            // workers' buffers back to the system and faulted them in again for the next (40
            // files: 52,000 page faults against 8,700, 0.34 s against 0.29). Kept at the top of
            // each arena, up to 16 MiB, they are reused; a peak stays a peak.
            mallopt(M_TOP_PAD, 16 << 20)
        #endif
        let status: ExitStatus
        do {
            status = try work()
        } catch let error as MaskCleanError {
            status = self.status(after: error)
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// The status `error` ends the command with, once it is shown.
    static func status(after error: MaskCleanError) -> ExitStatus {
        if error.isBrokenPipe { return .success }
        Diagnostics.error(error)
        return error.status
    }
}
