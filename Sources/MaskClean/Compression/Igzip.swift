import CISAL

#if canImport(Glibc)
    import Glibc
#endif

/// Which library inflates a gzip input (docs/record-formats.md#compressed-files).
public enum GzipInflater: String, Sendable, CaseIterable {
    /// zlib: always there.
    case zlib
    /// Intel ISA-L's igzip (Debian's libisal2), loaded at run time when the system has it: about
    /// 2.6 times zlib's speed on the bench export (issue 32), with the same checks (the gzip
    /// header, each member's CRC-32 and length).
    case igzip

    /// The fastest one this system has.
    public static var fastest: GzipInflater { Igzip.library != nil ? .igzip : .zlib }
}

/// ISA-L's inflate functions, found in the shared library at run time: the binary that travels
/// needs only the C runtime (docs/install.md), and a system without ISA-L inflates with zlib.
struct Igzip: @unchecked Sendable {
    typealias Reset = @convention(c) (UnsafeMutablePointer<inflate_state>?) -> Void
    typealias Inflate = @convention(c) (UnsafeMutablePointer<inflate_state>?) -> Int32

    let start: Reset
    let inflate: Inflate
    let reset: Reset

    /// Nil when no libisal.so.2 can be loaded, or it lacks a function.
    static let library: Igzip? = {
        guard let handle = dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL),
            let start = dlsym(handle, "isal_inflate_init"),
            let inflate = dlsym(handle, "isal_inflate"),
            let reset = dlsym(handle, "isal_inflate_reset")
        else { return nil }
        return Igzip(
            start: unsafeBitCast(start, to: Reset.self), inflate: unsafeBitCast(inflate, to: Inflate.self),
            reset: unsafeBitCast(reset, to: Reset.self))
    }()

    /// zlib's words for what went wrong, so that a message reads the same whichever inflated.
    static func detail(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: "invalid block type"
        case ISAL_INVALID_SYMBOL: "invalid code"
        case ISAL_INVALID_LOOKBACK: "invalid distance too far back"
        case ISAL_INVALID_WRAPPER: "incorrect header check"
        case ISAL_UNSUPPORTED_METHOD: "unknown compression method"
        case ISAL_INCORRECT_CHECKSUM: "incorrect data check"
        default: "error \(status)"
        }
    }
}
