import Testing

@testable import MaskClean

/// `visible`, the one escaper for text shown to a person (messages, the summary, annotations, the
/// Markdown and HTML summaries, apply's table): what it escapes and what it keeps.
@Suite("Visible text")
struct VisibleTextTests {
    @Test(
        "control characters, terminal sequences and text-direction marks are escaped",
        arguments: [
            ("\u{1B}[2J", #"\x1b[2J"#),
            (
                "\u{1B}]8;;https://evil.example\u{07}click\u{1B}]8;;\u{07}",
                #"\x1b]8;;https://evil.example\x07click\x1b]8;;\x07"#
            ),
            ("bell\u{07}", #"bell\x07"#),
            ("a\tb\nc\rd\u{0}\u{7F}", #"a\tb\nc\rd\x00\x7f"#),
            // C1: CSI on its own (a terminal reading ISO 6429 takes it for ESC [), NEL.
            ("\u{9B}2J\u{85}", #"\u{009b}2J\u{0085}"#),
            ("\u{202E}txt.exe\u{202C}", #"\u{202e}txt.exe\u{202c}"#),
            ("\u{200E}\u{200F}\u{2066}\u{2069}\u{061C}", #"\u{200e}\u{200f}\u{2066}\u{2069}\u{061c}"#),
        ])
    func terminalEscapes(text: String, shown: String) {
        #expect(visible(text) == shown)
    }

    @Test(
        "invisible and format characters, separators and spaces other than the ASCII space are escaped",
        arguments: [
            ("minComplete\u{200B}", #"minComplete\u{200b}"#),
            ("a\u{200C}b\u{200D}c\u{2060}d", #"a\u{200c}b\u{200d}c\u{2060}d"#),
            ("soft\u{AD}hyphen", #"soft\u{00ad}hyphen"#),
            ("\u{FEFF}bom", #"\u{feff}bom"#),
            ("tag\u{E0041}\u{E007F}", #"tag\u{e0041}\u{e007f}"#),
            ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
            ("minComplete\u{A0}", #"minComplete\u{00a0}"#),
            (
                "thin\u{2009}narrow\u{202F}ideographic\u{3000}",
                #"thin\u{2009}narrow\u{202f}ideographic\u{3000}"#
            ),
            ("phone\u{FE0F}", #"phone\u{fe0f}"#),
            ("\u{3164}\u{115F}cgj\u{34F}", #"\u{3164}\u{115f}cgj\u{034f}"#),
        ])
    func invisibleCharacters(text: String, shown: String) {
        #expect(visible(text) == shown)
    }

    @Test("every character that shows as itself is kept")
    func keptAsItIs() {
        for text in [
            "plain ASCII, 100% ~$ `x` \\ back\\slash", "Ðorđe Łódź", "中文 テスト 한국어", "e\u{301} a\u{308}",
            "مرحبا שלום", "😀 👍🏽 🇺🇸 1\u{20E3}", "…–—", "\u{E000}",
        ] {
            #expect(visible(text) == text, "\(text.debugDescription)")
        }
    }

    @Test("escaping what is escaped already changes nothing: a message may escape a part twice")
    func idempotent() {
        let text = "\u{1B}[2J\u{200B}\u{A0}\n\u{202E}\u{9B}\u{E0041}x"
        #expect(visible(visible(text)) == visible(text))
    }
}
