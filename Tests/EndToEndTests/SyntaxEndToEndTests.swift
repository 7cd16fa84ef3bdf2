import Foundation
import TestSupport
import Testing

/// The other syntaxes through the built binary.
@Suite("Syntaxes, end to end")
struct SyntaxEndToEndTests {
    /// docs/mask-syntax.md: `syntax` `akmask` and `maskara` compile into the same engine, and
    /// `apply` takes them with `--syntax`.
    @Test("apply --syntax akmask and --syntax maskara")
    func syntaxes() throws {
        let akmask = try Maskclean.run(
            ["apply", "{dddd}-{dddd}-{dddd}-{dddd}", "1111 2222 3333 4444", "--syntax", "akmask", "--json"])
        #expect(akmask.status == 0, "\(akmask.stderr)")
        #expect(
            akmask.stdoutText.contains(
                #""formatted": "1111-2222-3333-4444", "extracted": "1111222233334444", "status": "complete""#)
        )
        let maskara = try Maskclean.run(["apply", "XX-DD", "ab12", "--syntax", "maskara", "--json"])
        #expect(maskara.status == 0, "\(maskara.stderr)")
        #expect(
            maskara.stdoutText.contains(#""formatted": "AB-12", "extracted": "ab12", "status": "complete""#))
    }

    @Test("apply --template for akmask and --placeholder for maskara show the template column")
    func templates() throws {
        let akmask = try Maskclean.run(
            [
                "apply", "{dddd}-{DDDD}-{WaWa}-{aaaa}", "12345", "--syntax", "akmask", "--template",
                "ABCD-EFGH-IJKL-MNOP", "--json",
            ])
        #expect(akmask.status == 0, "\(akmask.stderr)")
        #expect(akmask.stdoutText.contains(#""template": "1234-EFGH-IJKL-MNOP""#))
        let maskara = try Maskclean.run(
            ["apply", "+?7|8(DDD)DDD-DD-DD", "9211", "--syntax", "maskara", "--placeholder", "_", "--json"])
        #expect(maskara.stdoutText.contains(#""formatted": "7(921)1""#))
        #expect(maskara.stdoutText.contains(#""template": "7(921)1__-__-__""#))
    }

    @Test("a maskara format error is a usage error for apply, with its offset")
    func applyErrors() throws {
        let outcome = try Maskclean.run(["apply", "+??", "1", "--syntax", "maskara"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("format: '?' after an optional expression at offset 2"))
    }

    @Test("a spec's akmask format error is a spec error naming the column and offset")
    func specErrors() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write(
            "spec.json", #"{"columns": [{"name": "card", "syntax": "akmask", "format": "{dd{d}}"}]}"#)
        _ = try scratch.write("data.csv", "card\n1234\n")
        let outcome = try Maskclean.run(["run", "spec.json", "data.csv"], in: scratch.url)
        #expect(outcome.status == 78)
        #expect(
            outcome.stderr.contains(
                #"spec.json: columns[0] "card": format: unexpected '{' inside {} at offset 3"#))
    }

    @Test("a template that does not fit the akmask format is a spec error")
    func templateLengthError() throws {
        let scratch = try TemporaryFolder()
        _ = try scratch.write(
            "spec.json",
            #"{"columns": [{"name": "card", "syntax": "akmask", "format": "{dd}-{dd}", "template": "XYZ"}]}"#)
        _ = try scratch.write("data.csv", "card\n1234\n")
        let outcome = try Maskclean.run(["run", "spec.json", "data.csv"], in: scratch.url)
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("template has 3 characters: it needs one, or 5"))
    }
}
