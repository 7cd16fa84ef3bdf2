import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// An input that is not a regular file (standard input, a pipe, a process substitution) as
/// `describe` read it, for its second reading: the proposal is judged from a sample spread over
/// every record, then every record is masked with it (`SpecProposer.measure`), and a pipe cannot
/// be read twice. A regular file is simply opened again.
///
/// The file is made in `$TMPDIR` (or `/tmp`) and unlinked at once, so that nothing is left
/// behind however describe ends; it holds the bytes as read (compressed ones stay compressed),
/// so that the second reading is the first one's, byte for byte.
final class InputCopy {
    private let descriptor: Int32
    /// How messages name it.
    let name: String

    init() throws(MaskCleanError) {
        let environment = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        let directory = environment.isEmpty ? "/tmp" : environment
        var template = Array("\(directory)/maskclean-describe-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard made >= 0 else {
            throw .cannotCreate(
                name,
                "cannot create the temporary file that holds the input for describe's second reading, as a pipe cannot be read twice (\(systemError(errno)))"
            )
        }
        unlink(name)
        descriptor = made
    }

    deinit { close(descriptor) }

    /// Keeps `bytes`, after those kept before.
    func append(_ bytes: UnsafeRawBufferPointer) throws(MaskCleanError) {
        var rest = bytes
        while !rest.isEmpty {
            let written = write(descriptor, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                throw .write(name, systemError(errno))
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }

    /// The bytes kept, from the first, as an input named `name` (`stdin`) in messages.
    func reopened(as name: String) throws(MaskCleanError) -> InputFile {
        let copy = dup(descriptor)
        guard copy >= 0, lseek(copy, 0, SEEK_SET) == 0 else {
            throw .write(self.name, "cannot read it back (\(systemError(errno)))")
        }
        return InputFile(copy: copy, name: name)
    }
}
