import FrameAnalysis
import Foundation
import Testing

/// The issue's accuracy criteria, applied to one labelled set (tools/framegen's or tools/camsim's): feedback accuracy
/// ≥ 95 % per class, and a mean corner error ≤ 2 % of the frame diagonal on sharp frames where the whole document is
/// in view and the engine found it. Prints per-class tables (and the worst frames) so the engine can be tuned; the
/// criteria are the issue's and are never loosened here.
struct AccuracyEvaluation: Sendable {
    static let requiredAccuracy = 0.95
    static let maxMeanCornerError = 0.02

    struct Outcome: Sendable {
        let label: GeneratedFrames.Label
        let primary: String
        let cornerError: Double?   // share of the diagonal, when both labelled and found
        let detail: String
    }

    struct ClassRow: Sendable {
        let expected: String
        let accuracy: Double
        let count: Int
    }

    /// The set's name in printed tables and known-issue comments ("framegen", "camsim").
    let setName: String
    let outcomes: [Outcome]

    /// Every single frame of `set` (sequences excluded) analysed once by one analyzer.
    init(setName: String, set: GeneratedFrames) {
        self.setName = setName
        let analyzer = FrameAnalyzer()
        outcomes = set.labels.filter { $0.sequence == nil }.map { label in
            let mode: FrameMode = label.mode == "selfie" ? .selfie : .document
            guard let bytes = try? set.bytes(label) else {
                return Outcome(label: label, primary: "UNREADABLE_FILE", cornerError: nil, detail: "")
            }
            do {
                let analysis = try analyzer.analyze(.jpeg(bytes), mode: mode)
                var error: Double?
                if let truth = label.corners, let found = analysis.region?.corners, found.count == 4 {
                    error = Self.cornerError(truth: truth, found: found, width: label.width, height: label.height)
                }
                let detail = analysis.feedback.map { item in
                    item.code.rawValue + (item.value.map { "=" + String(format: "%.3f", $0) } ?? "")
                }.joined(separator: ",")
                return Outcome(label: label, primary: analysis.primary.rawValue, cornerError: error, detail: detail)
            } catch {
                let code = (error as? FrameAnalysisError)?.code.rawValue ?? "unknown"
                return Outcome(label: label, primary: "ERROR_\(code)", cornerError: nil, detail: "")
            }
        }
    }

    /// Mean corner distance / diagonal, for the best cyclic pairing of the two clockwise corner lists (so a
    /// document rotated near 45° is not penalised for which corner is called top-left).
    static func cornerError(truth: [[Double]], found: [FramePoint], width: Int, height: Int) -> Double {
        let diagonal = Double(width * width + height * height).squareRoot()
        var best = Double.infinity
        for shift in 0..<4 {
            var total = 0.0
            for index in 0..<4 {
                let t = truth[index], f = found[(index + shift) % 4]
                total += ((t[0] - f.x) * (t[0] - f.x) + (t[1] - f.y) * (t[1] - f.y)).squareRoot()
            }
            best = min(best, total / 4 / diagonal)
        }
        return best
    }

    /// Per-class accuracy of one mode, printed as a table with the misses.
    func report(mode: String) -> [ClassRow] {
        let all = outcomes.filter { $0.label.mode == mode }
        var rows: [ClassRow] = []
        var text = "\n\(setName) \(mode) feedback accuracy (required ≥ \(Int(Self.requiredAccuracy * 100)) % per class)\n"
        let classes = all.map(\.label.expected).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for expected in classes {
            let group = all.filter { $0.label.expected == expected }
            let hits = group.filter { $0.primary == expected }.count
            let accuracy = Double(hits) / Double(max(group.count, 1))
            rows.append(ClassRow(expected: expected, accuracy: accuracy, count: group.count))
            let answers = Dictionary(grouping: group.filter { $0.primary != expected }, by: \.primary)
                .map { "\($0.key)×\($0.value.count)" }.sorted().joined(separator: " ")
            text += "  \(expected.padding(toLength: 18, withPad: " ", startingAt: 0)) "
                + "\(String(format: "%5.1f", accuracy * 100)) %  (\(hits)/\(group.count))"
                + (answers.isEmpty ? "" : "  misses: \(answers)") + "\n"
            for miss in group.filter({ $0.primary != expected }).prefix(3) {
                text += "      \(miss.label.file): \(miss.detail)\n"
            }
        }
        print(text)
        return rows
    }

    /// Expects every class of `mode` at the bar. Classes listed in `knownBelowBar` ("document TILTED": its accuracy
    /// when listed) have their shortfall recorded as a known issue instead, but must not fall below that listed
    /// accuracy (a regression fails); once such a class meets the bar, no known issue is recorded and the test fails
    /// until it is removed from the list, so the list can only shrink and its floors only rise.
    func expectEveryClassAtTheBar(mode: String, classCount: Int, knownBelowBar: [String: Double]) {
        let rows = report(mode: mode)
        #expect(rows.count == classCount)
        for row in rows {
            let name = "\(mode) \(row.expected)"
            let percent = "\(Int((row.accuracy * 100).rounded())) % of \(row.count) frames"
            let check = {
                #expect(row.accuracy >= Self.requiredAccuracy, "\(setName) \(name): \(percent)")
            }
            if let floor = knownBelowBar[name] {
                #expect(row.accuracy >= floor - 1e-9, "\(setName) \(name) fell below its recorded \(floor): \(percent)")
                withKnownIssue("issue #5: \(setName) \(name) is below the \(Int(Self.requiredAccuracy * 100)) % bar",
                               check)
            } else {
                check()
            }
        }
    }

    /// Auto-capture's safety: a frame with anything to fix must never be judged GOOD (a GOOD frame is captured).
    func expectNoFalseGood() {
        let unsafe = outcomes.filter { $0.primary == "GOOD" && $0.label.expected != "GOOD" }
        let names = unsafe.map { "\($0.label.file) (\($0.label.expected))" }.joined(separator: ", ")
        #expect(unsafe.isEmpty, "\(setName) frames judged GOOD with something to fix: \(names)")
    }

    /// Mean corner error over sharp, fully visible, detected documents, printed with the worst frames.
    func meanCornerError() -> (mean: Double, measured: Int, eligible: Int) {
        // Sharp frames with the whole document in view: a corner outside the frame (a CUT_OFF card's, or a card held
        // too close that runs past the frame) has no image evidence, and the outline there is a frame border. (Until
        // 2026-12-01 only CUT_OFF frames were left out, while this comment already said "whole document in view":
        // camsim's MOVE_AWAY cards that run past the frame, whose outlines cannot reach their corners, were counted.)
        let eligible = outcomes.filter {
            $0.label.mode == "document" && $0.label.sharp && $0.label.wholeDocumentInView
        }
        let measured = eligible.compactMap(\.cornerError)
        let mean = measured.reduce(0, +) / Double(max(measured.count, 1))
        var text = "\n\(setName) corner error on sharp detected frames: mean \(String(format: "%.4f", mean)) of the "
            + "diagonal over \(measured.count) of \(eligible.count) frames (required ≤ \(Self.maxMeanCornerError))\n"
        for outcome in eligible.filter({ ($0.cornerError ?? 0) > 0.02 })
            .sorted(by: { $0.cornerError! > $1.cornerError! }).prefix(5) {
            text += "  \(outcome.label.file): \(String(format: "%.4f", outcome.cornerError!))\n"
        }
        print(text)
        return (mean, measured.count, eligible.count)
    }

    /// The issue's corner criterion: enough documents found to judge, and a mean corner error at the bar. `recorded`
    /// is the level the set has reached, which it must not rise above (the bar alone would let a set that met it
    /// long ago slide back to it); a recorded level above the bar is a known issue.
    func expectMeanCornerErrorAtTheBar(recorded ceiling: Double? = nil) {
        let (mean, measured, eligible) = meanCornerError()
        #expect(measured >= eligible / 2, "the engine found too few documents to judge corners")
        if let ceiling {
            #expect(mean <= ceiling, "\(setName) corner error rose above its recorded \(ceiling)")
        }
        if let ceiling, ceiling > Self.maxMeanCornerError {
            withKnownIssue("issue #5: \(setName) mean corner error is above the bar") {
                #expect(mean <= Self.maxMeanCornerError)
            }
        } else {
            #expect(mean <= Self.maxMeanCornerError)
        }
    }
}
