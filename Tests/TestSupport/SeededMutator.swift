// Seeded random damage to good inputs (frames, messages) for tests that check bad input is an error value, never a
// crash: the same seed gives the same damage on every run.

/// A small deterministic generator (tests must not depend on the system RNG) and the damage it does.
public struct SeededMutator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// A number in 0..<bound.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    /// One to five damages: bytes overwritten (mostly in the first 2 KB, where headers and their lengths are), a
    /// cut, bytes inserted, or a 16-bit big-endian length set to an extreme.
    public mutating func damaged(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for _ in 0...next(4) {
            guard !out.isEmpty else { break }
            let near = min(out.count, 2048)
            switch next(5) {
            case 0, 1:
                out[next(next(4) == 0 ? out.count : near)] = UInt8(next(256))
            case 2:
                out = Array(out.prefix(next(out.count)))
            case 3:
                let at = next(near)
                out.insert(contentsOf: (0..<(1 + next(8))).map { _ in UInt8(next(256)) }, at: at)
            default:
                let at = next(max(near - 1, 1))
                let length: [UInt16] = [0, 1, 2, 0xFFFF, 0x8000, UInt16(next(65_536))]
                let value = length[next(length.count)]
                if at + 1 < out.count {
                    out[at] = UInt8(value >> 8)
                    out[at + 1] = UInt8(value & 0xFF)
                }
            }
        }
        return out
    }
}
