// A quadrilateral's four corners (or four per-side flags) held inline, so that building, scaling or reordering a quad
// costs no heap allocation (issue #5 asks the analysis's hot loop to stay allocation-free; an array per quad for its
// corners and another for its border flags were about a fifth of the document analysis's allocations per frame,
// docs/capture.md "Profiling").

/// Four values in order, stored in the value itself and indexed 0...3 as an array's elements are. (An array literal
/// builds an array first: in the analysis, build one with `init(_:_:_:_:)`, from a tuple, or with `mapValues`; `map`
/// returns an array too.)
struct QuadValues<Element>: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    var v0: Element
    var v1: Element
    var v2: Element
    var v3: Element

    init(_ v0: Element, _ v1: Element, _ v2: Element, _ v3: Element) {
        self.v0 = v0
        self.v1 = v1
        self.v2 = v2
        self.v3 = v3
    }

    /// The four elements of `values` (exactly four expected).
    init<Values: Collection<Element>>(_ values: Values) {
        precondition(values.count == 4, "a quadrilateral has four corners and sides, got \(values.count) values")
        var i = values.startIndex
        let a = values[i]
        i = values.index(after: i)
        let b = values[i]
        i = values.index(after: i)
        let c = values[i]
        i = values.index(after: i)
        self.init(a, b, c, values[i])
    }

    /// The four values of a tuple, in order (a ranked quad's corners, as the quad search holds them).
    init(_ tuple: (Element, Element, Element, Element)) {
        self.init(tuple.0, tuple.1, tuple.2, tuple.3)
    }

    init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// The same value four times.
    init(repeating value: Element) {
        self.init(value, value, value, value)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 4 }

    subscript(position: Int) -> Element {
        get {
            switch position {
            case 0: v0
            case 1: v1
            case 2: v2
            case 3: v3
            default: preconditionFailure("index \(position) out of 0...3")
            }
        }
        set {
            switch position {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            default: preconditionFailure("index \(position) out of 0...3")
            }
        }
    }

    /// `transform` applied to each value, in the same order (no array built, unlike `map`).
    func mapValues<T>(_ transform: (Element) -> T) -> QuadValues<T> {
        QuadValues<T>(transform(v0), transform(v1), transform(v2), transform(v3))
    }

    /// The four values as a tuple, for the quad search's tuple-based helpers.
    var tuple: (Element, Element, Element, Element) { (v0, v1, v2, v3) }
}

extension QuadValues: Equatable where Element: Equatable {}
extension QuadValues: Sendable where Element: Sendable {}

/// A quad's corners, in order around it.
typealias QuadCorners = QuadValues<SIMD2<Double>>

extension QuadValues where Element == SIMD2<Double> {
    /// The smallest and largest x and y of the corners (their bounding box), without building arrays of them.
    var bounds: (min: SIMD2<Double>, max: SIMD2<Double>) {
        (pointwiseMin(pointwiseMin(v0, v1), pointwiseMin(v2, v3)),
         pointwiseMax(pointwiseMax(v0, v1), pointwiseMax(v2, v3)))
    }
}

/// A flag per side of a quad (side i runs from corner i to corner i + 1), such as whether a frame border stands in for it.
typealias QuadSideFlags = QuadValues<Bool>
