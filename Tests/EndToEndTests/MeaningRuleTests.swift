import Testing

/// The rule RealExportTests holds describe's proposals to (issue 28, item 2), on the values the
/// issue names: it must let what keeps a value's meaning through, and nothing else.
@Suite("the meaning rule of complete cells")
struct MeaningRuleTests {
    @Test(
        "what keeps the meaning passes",
        arguments: [
            (MeaningRule.Kind.plain, "19480713", "1948-07-13", [String]()),
            (.plain, "-33.4183", "-33.4183", []),
            (.plain, "31.12.1999", "31/12/1999", []),
            (.plain, "555-123-4567", "+1 (555) 123-4567", ["+1 ([000]) [000]-[0000]"]),
            (.plain, "1927-01-01T00:00:00Z", "1927-01-01T00:00:00Z", []),
            (.card, "4111-1111-1111-1111", "4111 1111 1111 1111", []),
            (.phone, "+20 2 2417 7236", "+20 2 24177236", []),
            (.phone, "+44 (0)20 7946 0958", "+44 20 7946 0958", []),
            (.phone, "0044 20 7946 0958", "+44 20 7946 0958", []),
            (.phone, "01642 672351", "+44 1642 672351", []),
            (.phone, "1-613-563-4223", "+1 613-563-4223", []),
            (.phone, "+44 20 7946 0958 ext. 12", "+44 20 7946 0958 x12", []),
            (.phone, "020 7946 0958", "+442079460958", []),
            (.phone, "+44 20 7946 0958", "020 7946 0958", []),
        ])
    func kept(kind: MeaningRule.Kind, input: String, formatted: String, formats: [String]) {
        let rule = MeaningRule(kind: kind, formats: formats)
        #expect(rule.problem(input: input, formatted: formatted) == nil)
    }

    @Test(
        "what changes the meaning is found",
        arguments: [
            (MeaningRule.Kind.plain, "-75.6913", "75.6913", "the sign \"-\" is dropped"),
            (.plain, "2.29806", "22.9806", "are joined"),
            (.plain, "3.20", "320", "are joined"),
            (.plain, "4,5", "4.5", "the separator \",\" became \".\""),
            (.plain, "+20 2 2417 7236", "+20 22 417 7236", "are joined"),
            (.plain, "Staten Island", "Staten Islan", "is missing or out of order"),
            (.plain, "AB12", "BA12", "is neither"),
            (.plain, "12", "123", "\"3\" is neither"),
            (.card, "4111 1111 1111 1111", "4111 1111 1111 1112", "differ"),
            (.phone, "+44 20 7946 0958", "+44 20 7946 0959", "does not end"),
            (.phone, "+44 20 7946 0958", "+49 20 7946 0958", "before the national number"),
            (.phone, "+44 20 7946 0958 x12", "+44 20 7946 0958", "extension"),
        ])
    func changed(kind: MeaningRule.Kind, input: String, formatted: String, why: String) {
        let problem = MeaningRule(kind: kind).problem(input: input, formatted: formatted)
        #expect(problem?.contains(why) == true, "\(problem ?? "none")")
    }

    @Test("a case-folding column compares letters without their case")
    func foldsCase() {
        let rule = MeaningRule(kind: .plain, foldsCase: true)
        #expect(rule.problem(input: "ts18 1hu", formatted: "TS18 1HU") == nil)
        #expect(MeaningRule(kind: .plain).problem(input: "ts18 1hu", formatted: "TS18 1HU") != nil)
    }
}
