// The standard library's `withUnsafe…` methods rethrow `any Error`; these keep
// `MaskCleanError` typed through them.

extension Array where Element == UInt8 {
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws(MaskCleanError) -> Result)
        throws(MaskCleanError) -> Result
    {
        try withUnsafeBytes { buffer in Swift.Result { () throws(MaskCleanError) in try body(buffer) } }.get()
    }

    mutating func withMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws(MaskCleanError) -> Result
    )
        throws(MaskCleanError) -> Result
    {
        try withUnsafeMutableBytes { buffer in Swift.Result { () throws(MaskCleanError) in try body(buffer) }
        }.get()
    }

    func withBuffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws(MaskCleanError) -> Result)
        throws(MaskCleanError) -> Result
    {
        try withUnsafeBufferPointer { buffer in Swift.Result { () throws(MaskCleanError) in try body(buffer) }
        }.get()
    }
}
