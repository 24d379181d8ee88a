import Synchronization
import Testing

/// What one labelled set's accuracy suite holds it to: the bar (`AccuracyEvaluation`) on every class of one
/// mode, the classes known to be below it with the floors they must not fall below, and, for documents, the corner
/// error the set must stay under while it is above that bar. The camsim sets differ only in this data: each declares
/// its own, with the history behind the numbers, and the same checks run through it (`CamsimDocumentAccuracyTests`
/// for the document sets, one test case per set; `CamsimSelfieAccuracyTests`).
final class AccuracyBar: Sendable {
    /// The set's name in printed tables and known-issue comments ("camsim portrait").
    let setName: String
    /// The mode whose classes are judged: "document" or "selfie".
    let mode: String
    /// How many classes of `mode` the set must have.
    let classCount: Int
    /// "mode CLASS" → the accuracy it must not fall below while under the bar (see
    /// `AccuracyEvaluation.expectEveryClassAtTheBar`: the list can only shrink and its floors only rise).
    let knownBelowBar: [String: Double]
    /// The mean corner error the set has reached and must stay under (above the bar: a known issue).
    let recordedCornerError: Double?
    private let frames: @Sendable () -> Result<GeneratedFrames, GenerationError>
    /// The set analysed, once, by whichever test needs it first (the others wait for it).
    private let evaluation = Mutex<Result<AccuracyEvaluation, GenerationError>?>(nil)

    /// `frames` is read on first use, off the cooperative pool: reading it may generate the whole set.
    init(setName: String, frames: @autoclosure @escaping @Sendable () -> Result<GeneratedFrames, GenerationError>,
         mode: String, classCount: Int, knownBelowBar: [String: Double],
         recordedCornerError: Double? = nil) {
        self.setName = setName
        self.frames = frames
        self.mode = mode
        self.classCount = classCount
        self.knownBelowBar = knownBelowBar
        self.recordedCornerError = recordedCornerError
    }

    /// The set's evaluation, computed on a thread of its own the first time (see `onOwnThread`).
    func evaluated() async throws -> AccuracyEvaluation {
        try await onOwnThread {
            try self.evaluation.withLock { cached in
                let result = cached ?? self.frames().map { AccuracyEvaluation(setName: self.setName, set: $0) }
                cached = result
                return try result.get()
            }
        }
    }

    /// Every class of `mode` at the bar, or, when known to be below it, at least at its floor.
    func expectEveryClassAtTheBar() async throws {
        try await evaluated().expectEveryClassAtTheBar(mode: mode, classCount: classCount,
                                                       knownBelowBar: knownBelowBar)
    }

    /// The mean corner error at the bar, or under the recorded ceiling while the set is above it.
    func expectMeanCornerErrorAtTheBar() async throws {
        try await evaluated().expectMeanCornerErrorAtTheBar(recorded: recordedCornerError)
    }

    /// No frame with something to fix judged GOOD.
    func expectNoFalseGood() async throws {
        try await evaluated().expectNoFalseGood()
    }
}

extension AccuracyBar: CustomTestStringConvertible {
    /// The set's name, naming each test case of a check run over several sets.
    var testDescription: String { setName }
}
