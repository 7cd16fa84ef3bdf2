import CZlib

/// A zlib stream at a fixed address: zlib keeps a pointer back to its `z_stream`, so the struct
/// must never move. Ended (`inflateEnd` or `deflateEnd`) and freed with its owner.
final class ZlibStream {
    let pointer: UnsafeMutablePointer<z_stream>
    private let end: (UnsafeMutablePointer<z_stream>) -> Int32

    /// Starts a stream with `start` (`inflateInit2`, `deflateInit2`); nil when zlib cannot.
    init?(
        start: (UnsafeMutablePointer<z_stream>) -> Int32,
        end: @escaping (UnsafeMutablePointer<z_stream>) -> Int32
    ) {
        pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        self.end = end
        guard start(pointer) == Z_OK else {
            pointer.deallocate()
            return nil
        }
    }

    deinit {
        _ = end(pointer)
        pointer.deallocate()
    }
}
