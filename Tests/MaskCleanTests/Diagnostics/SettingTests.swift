import Testing

@testable import MaskClean

@Suite("Settings in messages: named in words by the library, by flag when rendered so")
struct SettingTests {
    /// The flags the executable names the settings by (Sources/maskclean/OutputFlags.swift).
    static func flag(_ setting: Setting) -> String {
        switch setting {
        case .inputFormat: "--input-format"
        case .headerless: "--no-header"
        case .columnNames: "--columns"
        case .firstRow: "--first-row"
        case .proposedColumns: "--only"
        case .delimiter: "--delimiter"
        case .encoding: "--encoding"
        }
    }

    static let words: [(Setting, String)] = [
        (.inputFormat, "the input format"),
        (.headerless, "an input without a header line"),
        (.columnNames, "the column list given for a header-less input"),
        (.firstRow, "the first row of a partition"),
        (.proposedColumns, "the columns to propose"),
        (.delimiter, "the field delimiter"),
        (.encoding, "the input's encoding"),
    ]

    @Test("every setting has words of its own, none a flag")
    func everySettingInWords() {
        #expect(Self.words.map(\.0) == Setting.allCases)
        #expect(Set(Setting.allCases.map(\.description)).count == Setting.allCases.count)
        for (setting, words) in Self.words {
            #expect(setting.description == words)
            #expect(!setting.description.contains("--"))
        }
    }

    @Test("a usage message keeps an interpolated setting as a setting, named as the renderer says")
    func interpolated() {
        for (setting, words) in Self.words {
            let message: UsageMessage = "\(setting) is wrong for \(OutputRole.records) \(3)"
            #expect(
                message.parts == [.setting(setting), .text(" is wrong for "), .output(.records), .text(" 3")])
            #expect(message.description == "\(words) is wrong for the records output 3")
            let error = MaskCleanError.usage(message)
            #expect(error.message == "\(words) is wrong for the records output 3")
            #expect(
                error.message(naming: { _ in "-o" }, setting: Self.flag)
                    == "\(Self.flag(setting)) is wrong for -o 3")
        }
    }

    @Test("a data or spec error's reason keeps its settings too, with its file and place")
    func dataAndSpecReasons() {
        for (setting, words) in Self.words {
            let data = MaskCleanError.data("in.json", line: 1, "use \(setting) ndjson")
            #expect(data.message == "in.json:1: use \(words) ndjson")
            #expect(
                data.message(naming: \.description, setting: Self.flag)
                    == "in.json:1: use \(Self.flag(setting)) ndjson")
            let noLine = MaskCleanError.data("in.json", line: nil, "see \(setting)")
            #expect(
                noLine.message(naming: \.description, setting: Self.flag)
                    == "in.json: see \(Self.flag(setting))")
            let spec = MaskCleanError.spec("spec.json", "columns[0]", "as \(setting) says")
            #expect(spec.message == "spec.json: columns[0]: as \(words) says")
            #expect(
                spec.message(naming: \.description, setting: Self.flag)
                    == "spec.json: columns[0]: as \(Self.flag(setting)) says")
        }
    }

    @Test("joined messages keep their settings and join adjacent text")
    func joined() {
        let message = ("\(Setting.firstRow) a" as UsageMessage) + ("b \(Setting.inputFormat)" as UsageMessage)
        #expect(message.parts == [.setting(.firstRow), .text(" ab "), .setting(.inputFormat)])
        #expect(
            message.rendered(naming: \.description, setting: Self.flag) == "--first-row ab --input-format")
    }

    @Test(
        "each library message about a setting reads in words; rendered by flag, as the command line shows it")
    func libraryMessages() throws {
        let cases: [(() throws -> Void, String, String)] = [
            (
                { _ = try Runner.format(of: "-") },
                "cannot tell the format of standard input; use the input format csv|tsv|json|ndjson",
                "cannot tell the format of standard input; use --input-format csv|tsv|json|ndjson"
            ),
            (
                { try ColumnList.check([]) },
                "the column list given for a header-less input is empty; name the input's columns in order: the column list given for a header-less input id,name,phone",
                "--columns is empty; name the input's columns in order: --columns id,name,phone"
            ),
            (
                {
                    _ = try ColumnList.fields(
                        of: "a\nb", delimiter: UInt8(ascii: ","), option: .proposedColumns)
                },
                "the columns to propose holds a line break outside quotes; it is one line",
                "--only holds a line break outside quotes; it is one line"
            ),
            (
                {
                    var options = RunOptions(input: "in.ndjson", output: nil, jobs: 1)
                    options.columnNames = ["id"]
                    try options.checkColumnNames(inputFormat: .ndjson)
                },
                "an input without a header line is for CSV and TSV input; ndjson records name their own keys",
                "--no-header is for CSV and TSV input; ndjson records name their own keys"
            ),
            (
                {
                    var options = RunOptions(input: "in.ndjson", output: nil, jobs: 1)
                    options.firstRow = 0
                    let spec: Spec
                    do { spec = try loadSpec(#"{"columns": [{"name": "phone", "format": "[000]"}]}"#) } catch
                    {
                        Issue.record("\(error)")
                        return
                    }
                    _ = try Runner.run(spec, options)
                },
                "the first row of a partition must be from 1 to 9007199254740991 (the row number of the input's first record)",
                "--first-row must be from 1 to 9007199254740991 (the row number of the input's first record)"
            ),
        ]
        for (run, words, flags) in cases {
            do {
                try run()
                Issue.record("no error for \(flags)")
            } catch let error as MaskCleanError {
                #expect(error.message == words)
                #expect(error.message(naming: \.description, setting: Self.flag) == flags)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
