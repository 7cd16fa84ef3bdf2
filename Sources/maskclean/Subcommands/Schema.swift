import ArgumentParser
import MaskClean

// maskclean schema
//
// Prints the JSON Schema of the spec file (docs/spec.schema.json), for editors that complete
// and check a spec's keys as it is written, in JSON or YAML.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema (draft 2020-12) of the spec file, for editors and validators.",
        discussion: """
            Every key a spec may have, with its type, default, allowed values and a one-line \
            description. Save it next to your specs (maskclean schema > spec.schema.json) and point \
            your editor at it: a YAML spec's first line \
            "# yaml-language-server: $schema=spec.schema.json", or for JSON specs the editor's \
            settings (json.schemas in VS Code). The loader checks more than the schema can say \
            (formats compile, added column names differ).
            """)

    func run() throws {
        try ExitPath.run {
            var out = StandardOutput()
            try out.write(SpecSchema.text)
            try out.flush()
            return .success
        }
    }
}
