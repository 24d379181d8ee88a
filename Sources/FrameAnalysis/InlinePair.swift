// Up to two values held inline: for the short lists the quad search builds per search step (a quad's long sides), so
// that building one costs no heap allocation (issue #5: the analysis's hot loop allocation-free).

/// A list of at most two values, stored in the value itself.
struct InlinePair<Element>: RandomAccessCollection {
    private var first0: Element?
    private var second0: Element?
    private(set) var count = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
        return position == 0 ? first0! : second0!
    }

    /// Adds `value` after the others; there is room for two.
    mutating func append(_ value: Element) {
        precondition(count < 2, "an InlinePair holds two values")
        if count == 0 { first0 = value } else { second0 = value }
        count += 1
    }
}
