import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The values `describe` has no room for in memory (a column's values beyond its first
/// `ColumnTally.distinctKept` distinct ones), kept until the formats are known and they can be
/// masked: the complete share is then counted from every sampled value, as a run would count it,
/// whatever the input (a pipe cannot be read twice).
///
/// The file is made in `$TMPDIR` (or `/tmp`) and unlinked at once, so that nothing is left
/// behind however describe ends; it holds each value once, with its column, and at most the
/// sample's own size.
final class ValueSpool {
    private let file: UnsafeMutablePointer<FILE>
    /// How messages name it.
    private let name: String

    init() throws(MaskCleanError) {
        let environment = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        let directory = environment.isEmpty ? "/tmp" : environment
        var template = Array("\(directory)/maskclean-describe-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else {
            throw .cannotCreate(
                name,
                "cannot create the temporary file that holds the values beyond the first "
                    + "\(ColumnTally.distinctKept) distinct ones of a column (\(systemError(errno)))")
        }
        unlink(name)
        guard let file = fdopen(descriptor, "w+") else {
            let problem = errno
            close(descriptor)
            throw .cannotCreate(name, systemError(problem))
        }
        self.file = file
    }

    deinit { fclose(file) }

    /// Keeps `value` as one of column `column`'s.
    func append(column: Int, _ value: String) throws(MaskCleanError) {
        var value = value
        let written = value.withUTF8 { bytes in
            putNumber(column) && putNumber(bytes.count)
                && (bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count)
        }
        guard written else { throw .write(name, systemError(errno)) }
    }

    /// Reads every value back, in the order they were kept, with its column.
    func readBack(
        _ body: (_ column: Int, _ value: UnsafeBufferPointer<UInt8>) throws(MaskCleanError) -> Void
    ) throws(MaskCleanError) {
        guard fflush(file) == 0 else { throw .write(name, systemError(errno)) }
        rewind(file)
        var buffer: [UInt8] = []
        while let column = getNumber() {
            guard let count = getNumber() else { throw .write(name, "cannot read it back (it ends early)") }
            if buffer.count < count { buffer = Array(repeating: 0, count: count) }
            let read = buffer.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, count, file) }
            guard read == count else { throw .write(name, "cannot read it back (it ends early)") }
            try buffer.withUnsafeBufferPointer { bytes throws(MaskCleanError) in
                try body(column, UnsafeBufferPointer(rebasing: bytes[..<count]))
            }
        }
        guard ferror(file) == 0 else { throw .write(name, "cannot read it back (\(systemError(errno)))") }
    }

    /// A number as seven bits a byte, the low ones first, the high bit set on all but the last.
    private func putNumber(_ number: Int) -> Bool {
        var rest = UInt(number)
        repeat {
            let byte = UInt8(rest & 0x7F)
            rest >>= 7
            guard putc_unlocked(Int32(rest == 0 ? byte : byte | 0x80), file) != EOF else { return false }
        } while rest != 0
        return true
    }

    private func getNumber() -> Int? {
        var number: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = getc_unlocked(file)
            guard byte != EOF, shift < 64 else { return nil }
            number |= UInt(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return Int(number) }
            shift += 7
        }
    }
}
