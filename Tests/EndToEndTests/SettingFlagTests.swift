import MaskClean
import Testing

@testable import maskclean

@Suite("The command line names each setting in a message by its flag")
struct SettingFlagTests {
    static let flags: [(Setting, String)] = [
        (.inputFormat, "--input-format"),
        (.headerless, "--no-header"),
        (.columnNames, "--columns"),
        (.firstRow, "--first-row"),
        (.proposedColumns, "--only"),
        (.delimiter, "--delimiter"),
        (.encoding, "--encoding"),
    ]

    @Test("a usage error shows each setting by its flag, and each output by its own")
    func shownByFlag() {
        #expect(Self.flags.map(\.0) == Setting.allCases)
        for (setting, flag) in Self.flags {
            #expect(setting.flag == flag)
            let error = MaskCleanError.usage("\(setting) clashes with \(OutputRole.report(.html))")
            #expect(error.shown == "\(flag) clashes with --html")
            #expect(error.message == "\(setting.description) clashes with the HTML report")
        }
    }
}
