import Foundation
import TestSupport
import Testing

@testable import MaskClean

/// Phone columns through the pipeline with real numbers: what the numbering plan decides,
/// cell by cell. Every expected value is libphonenumber's (the `phonenumbers` Python port:
/// INTERNATIONAL, NATIONAL and E164 formats, `is_valid_number`, `region_code_for_number`), with
/// the extension as libphonenumber writes it (` ext. N`, or the country's own: ` x` for the UK) and statuses (docs/cell-status.md). These need the
/// numbering plan: with the digits-only placeholder reader they fail.
@Suite("Phone columns: real numbers through the pipeline")
struct PhoneColumnEngineTests {
    func run(_ input: String, name: String, spec: String, outputFormat: RecordFormat? = nil) throws -> (
        out: String, report: Report
    ) {
        let folder = try TemporaryFolder()
        try folder.write(name, input)
        let outcome = try runPipeline(
            spec: spec, input: name, in: folder, output: "out", chunkSize: 64, outputFormat: outputFormat)
        let report = try #require(outcome.report, "\(outcome.error?.message ?? "")")
        return (try folder.text("out"), report)
    }

    static let csv = """
        id,cc,tel
        1,GB,020 7946 0958
        2,us,(613) 563-4223
        3,,+33 1 42 68 53 00
        4,DE,030 1234567 ext. 12
        5,GB,+1 212-555-0123
        6,,020 7946 0958
        7,ZZ,020 7946 0958

        """

    @Test(
        "CSV: each record's region column (not a spec column) reads its national numbers; no region, no country"
    )
    func regionColumn() throws {
        let (out, report) = try run(
            Self.csv, name: "in.csv",
            spec: #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc"}]}"#)
        #expect(
            out == """
                id,cc,tel,tel_formatted,tel_extracted,tel_status,tel_country
                1,GB,020 7946 0958,+44 20 7946 0958,+442079460958,complete,GB
                2,us,(613) 563-4223,+1 613-563-4223,+16135634223,complete,CA
                3,,+33 1 42 68 53 00,+33 1 42 68 53 00,+33142685300,complete,FR
                4,DE,030 1234567 ext. 12,+49 30 1234567 ext. 12,+49301234567,complete,DE
                5,GB,+1 212-555-0123,+1 212-555-0123,+12125550123,complete,US
                6,,020 7946 0958,,,invalid,
                7,ZZ,020 7946 0958,,,invalid,

                """)
        let stats = report.columns[0].stats
        #expect(stats.complete == 5 && stats.invalid == 2)
        #expect(stats.invalidSamples.map(\.row) == [6, 7])
        #expect(stats.countries.map(\.region) == ["CA", "DE", "FR", "GB", "US"])
    }

    @Test(
        "defaultRegion reads numbers whose record has no region; the region column wins; an unknown one is invalid"
    )
    func defaultRegion() throws {
        let (out, report) = try run(
            Self.csv, name: "in.csv",
            spec: #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc","defaultRegion":"gb"}]}"#)
        let lines = out.split(separator: "\n")
        #expect(lines[2] == "2,us,(613) 563-4223,+1 613-563-4223,+16135634223,complete,CA")
        #expect(lines[6] == "6,,020 7946 0958,+44 20 7946 0958,+442079460958,complete,GB")
        #expect(lines[7] == "7,ZZ,020 7946 0958,,,invalid,")
        #expect(report.columns[0].stats.countries.first?.region == "GB")
        #expect(report.columns[0].stats.countries.first?.count == 2)
    }

    @Test("NDJSON: a record without the region key takes defaultRegion; 011 is the US's international prefix")
    func ndjson() throws {
        let ndjson = """
            {"id":1,"tel":"06 12 34 56 78"}
            {"id":2,"cc":"US","tel":"011 44 20 7946 0958"}
            {"id":3,"cc":null,"tel":"+49 30 1234567"}

            """
        let (out, _) = try run(
            ndjson, name: "in.ndjson",
            spec: #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc","defaultRegion":"FR"}]}"#)
        #expect(
            out == """
                {"id":1,"tel":"06 12 34 56 78","tel_formatted":"+33 6 12 34 56 78","tel_extracted":"+33612345678","tel_status":"complete","tel_country":"FR"}
                {"id":2,"cc":"US","tel":"011 44 20 7946 0958","tel_formatted":"+44 20 7946 0958","tel_extracted":"+442079460958","tel_status":"complete","tel_country":"GB"}
                {"id":3,"cc":null,"tel":"+49 30 1234567","tel_formatted":"+49 30 1234567","tel_extracted":"+49301234567","tel_status":"complete","tel_country":"DE"}

                """)
    }

    @Test("phoneFormat national and e164; an extension ends the formatted value, never the E.164 one")
    func phoneFormats() throws {
        let input = """
            tel
            020 7946 0958
            +1 613-563-4223
            030 1234567 ext. 12
            +44 20 7946 0958 x123
            020 7946 0958;ext=7

            """
        let spec =
            #"{"columns":[{"name":"tel","kind":"phone","defaultRegion":"GB","phoneFormat":"FORMAT","countryColumn":null}]}"#
        let (national, _) = try run(
            input.replacingOccurrences(of: "030 1234567", with: "+49 30 1234567"), name: "in.csv",
            spec: spec.replacingOccurrences(of: "FORMAT", with: "national"))
        #expect(
            national == """
                tel,tel_formatted,tel_extracted,tel_status
                020 7946 0958,020 7946 0958,+442079460958,complete
                +1 613-563-4223,(613) 563-4223,+16135634223,complete
                +49 30 1234567 ext. 12,030 1234567 ext. 12,+49301234567,complete
                +44 20 7946 0958 x123,020 7946 0958 x123,+442079460958,complete
                020 7946 0958;ext=7,020 7946 0958 x7,+442079460958,complete

                """)
        let (international, _) = try run(
            input, name: "in.csv", spec: spec.replacingOccurrences(of: "FORMAT", with: "international"))
        let lines = international.split(separator: "\n")
        #expect(lines[4] == "+44 20 7946 0958 x123,+44 20 7946 0958 x123,+442079460958,complete")
        #expect(lines[5] == "020 7946 0958;ext=7,+44 20 7946 0958 x7,+442079460958,complete")
        let (e164, _) = try run(
            input, name: "in.csv", spec: spec.replacingOccurrences(of: "FORMAT", with: "e164"))
        #expect(e164.split(separator: "\n")[1] == "020 7946 0958,+442079460958,+442079460958,complete")
        #expect(
            e164.split(separator: "\n")[4]
                == "+44 20 7946 0958 x123,+442079460958 x123,+442079460958,complete")
    }

    @Test("statuses: complete, incomplete (too short), invalid (too long, a range not in use), lossy, empty")
    func statuses() throws {
        let input = """
            tel
            +44 161 496 0000
            020 7946
            +44 20 7946 0958 1234
            07700 900982
            020 7946 0958 home
            n/a

            """
        let (out, report) = try run(
            input, name: "in.csv",
            spec:
                #"{"samples":10,"columns":[{"name":"tel","kind":"phone","defaultRegion":"GB","maxInvalid":0.1}]}"#
        )
        let statuses = out.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)[3]
        }
        #expect(statuses == ["complete", "incomplete", "invalid", "invalid", "lossy", "empty"])
        let stats = report.columns[0].stats
        #expect(stats.lossySamples.map(\.value) == ["020 7946 0958 home"])
        #expect(stats.droppedCharacters == 4)
        #expect(!report.columns[0].passed && report.columns[0].failedThresholds == ["maxInvalid"])
    }

    @Test("replace: extracted writes the E.164 value over a complete number, formatted the formatted one")
    func replace() throws {
        let spec =
            #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc","replace":"extracted","extractedColumn":null,"countryColumn":null}]}"#
        let (out, _) = try run(Self.csv, name: "in.csv", spec: spec)
        let lines = out.split(separator: "\n")
        #expect(lines[0] == "id,cc,tel,tel_formatted,tel_status")
        #expect(lines[1] == "1,GB,+442079460958,+44 20 7946 0958,complete")
        #expect(lines[6] == "6,,020 7946 0958,,invalid")
        let (formatted, _) = try run(
            Self.csv, name: "in.csv",
            spec: spec.replacingOccurrences(of: #""replace":"extracted""#, with: #""replace":"formatted""#))
        #expect(formatted.split(separator: "\n")[2] == "2,us,+1 613-563-4223,+1 613-563-4223,complete")
    }

    @Test("the report counts the regions; merge sums them; the summary names the most common")
    func countries() throws {
        let spec = #"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc","defaultRegion":"GB"}]}"#
        let (_, report) = try run(Self.csv, name: "in.csv", spec: spec)
        #expect(report.json.contains(#""countries": {"#))
        #expect(report.summary.contains("tel: countries GB 2, CA 1, DE 1, FR 1, US 1\n"))
        let loaded = try loadSpec(spec)
        let read = try ReportReader.parse(Array(report.json.utf8), file: "r.json", spec: loaded)
        #expect(read.columns[0].stats.countryCounts == report.columns[0].stats.countryCounts)
        let merged = try Report.merging(
            [.init(file: "a", report: read), .init(file: "b", report: read)], spec: loaded)
        #expect(merged.columns[0].stats.countries.first.map { "\($0.region) \($0.count)" } == "GB 4")
    }

    @Test("RecordCleaner and maskAnyColumn read real numbers with the record's region")
    func library() throws {
        let spec = try loadSpec(#"{"columns":[{"name":"tel","kind":"phone","regionColumn":"cc"}]}"#)
        var cleaner = try RecordCleaner(spec: spec, columns: ["tel", "cc"])
        let cleaned = try cleaner.clean([["020 7946 0958", "gb"], ["(613) 563-4223", "US"]])
        #expect(cleaned[0] == ["020 7946 0958", "gb", "+44 20 7946 0958", "+442079460958", "complete", "GB"])
        #expect(cleaned[1] == ["(613) 563-4223", "US", "+1 613-563-4223", "+16135634223", "complete", "CA"])
        let masker = CellMasker(columns: spec.columns)
        let status = withBytes("020 7946 0958") { value in
            withBytes("GB") { region in masker.maskAnyColumn(value, column: 0, row: 1, region: region).status
            }
        }
        #expect(status == .complete)
        let noRegion = withBytes("020 7946 0958") { masker.maskAnyColumn($0, column: 0, row: 2).status }
        #expect(noRegion == .invalid)
    }
}
