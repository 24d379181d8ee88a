import Foundation
import KYCCore
import Testing

@Suite struct JSONStringTests {
    func quoted(_ value: String) -> String {
        var out: [UInt8] = []
        JSONString.appendQuoted(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Byte-exact: signing's canonical JSON (signed evidence) is written with it, so the form must never drift.
    @Test func escapesExactlyWhatJSONRequiresInTheCanonicalForm() {
        #expect(quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(quoted("\u{08}\t\n\u{0C}\r") == #""\b\t\n\f\r""#)
        #expect(quoted("\u{01}\u{1F}") == #""\u0001\u001f""#)
        #expect(quoted("/ üç 🙂") == "\"/ üç 🙂\"")
        #expect(quoted("") == "\"\"")
    }

    @Test func everyStringRoundTripsThroughFoundationsParser() throws {
        let samples = ["plain", "ctl \u{00}\u{07}\u{1B}", "quote \" back \\ slash", "Ünïcødé ğüşıöç", "\u{7F}"]
        for sample in samples {
            let data = Data(quoted(sample).utf8)
            let parsed = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? String
            #expect(parsed == sample)
        }
    }
}
