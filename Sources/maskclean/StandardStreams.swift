import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A closed standard stream (`>&-`, `<&-`) must not hand its number to the next file opened:
/// records meant for standard output would land in the report's temporary file. Each closed one
/// gets /dev/null opened the wrong way round, so that using it fails (EBADF), which the run
/// reports as "standard output is closed" instead of writing anywhere.
enum StandardStreams {
    static func occupyClosed() {
        for (stream, wrongWay) in [
            (STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY),
        ]
        where fcntl(stream, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", wrongWay)
            if opened >= 0 && opened != stream {
                dup2(opened, stream)
                close(opened)
            }
        }
    }
}
