// Sobel gradients with an adaptive edge threshold: the document finder's vote and profiles read them.
import Foundation

/// Sobel gradients of an image with an adaptive edge threshold, in buffers reused between frames.
final class SobelGradients {
    private(set) var gx: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    private(set) var gy: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    /// |gx| + |gy|, 0 on the border rows and columns.
    private(set) var magnitude: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    private let histogram: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 2048)
    /// Four interleaved partial histograms of the sampled rows (consecutive pixels often share a bin: one counter
    /// per column modulo 4 keeps the increments independent). |gx| + |gy| ≤ 2040, so half of it has 1021 bins.
    private let partialHistograms: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 4 * 1024)
    /// The strongest 12 % of magnitudes, but never weaker than a step of ~10 grey levels.
    private(set) var edgeThreshold = 40
    /// The median gradient magnitude: in a frame of flat regions and texture, about the sensor's noise.
    private(set) var noiseLevel = 8
    /// The weakest gradient that votes for a line or supports a side: a step of ~4 grey levels, a third of an edge,
    /// or twice the noise, whichever is lower above the floor. A card's outline against a background of nearly
    /// its own shade (a light card on a light desk) is a step of a few grey levels, well under a third of the card's
    /// own text contrast, yet it stands clear of the noise and runs straight for a long way.
    var weakThreshold: Int { max(16, min(edgeThreshold / 3, 2 * noiseLevel)) }

    deinit {
        gx.deallocate()
        gy.deallocate()
        magnitude.deallocate()
        histogram.deallocate()
        partialHistograms.deallocate()
    }

    func compute(_ image: GrayImage) {
        let w = image.width, h = image.height, n = w * h
        if n > gx.count {
            gx.deallocate(); gy.deallocate(); magnitude.deallocate()
            gx = .allocate(capacity: n); gy = .allocate(capacity: n); magnitude = .allocate(capacity: n)
        }
        let src = image.base, gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        mp.update(repeating: 0, count: w)
        (mp + (h - 1) * w).update(repeating: 0, count: w)
        let hist = histogram.baseAddress!
        hist.update(repeating: 0, count: 2048)
        let partial = partialHistograms.baseAddress!
        partial.update(repeating: 0, count: 4 * 1024)
        for y in 1..<(h - 1) {
            let r0 = src + (y - 1) * w, r1 = src + y * w, r2 = src + (y + 1) * w
            let ox = gxp + y * w, oy = gyp + y * w, om = mp + y * w
            om[0] = 0
            om[w - 1] = 0
            for x in 1..<(w - 1) {
                // In 16 bits (|sx|, |sy| ≤ 1020): the compiler then handles 8 pixels per vector, not 4.
                let a = Int16(r0[x - 1]), b = Int16(r0[x]), c = Int16(r0[x + 1])
                let d = Int16(r1[x - 1]), f = Int16(r1[x + 1])
                let g = Int16(r2[x - 1]), hh = Int16(r2[x]), k = Int16(r2[x + 1])
                let sx = (c &+ 2 &* f &+ k) &- (a &+ 2 &* d &+ g)
                let sy = (g &+ 2 &* hh &+ k) &- (a &+ 2 &* b &+ c)
                ox[x] = sx
                oy[x] = sy
                om[x] = UInt16(bitPattern: (sx < 0 ? 0 &- sx : sx) &+ (sy < 0 ? 0 &- sy : sy))
            }
            // The percentile only needs a sample: every other row.
            if y & 1 == 0 {
                var x = 1
                while x + 4 <= w - 1 {
                    partial[Int(min(om[x] >> 1, 1023))] &+= 1
                    partial[1024 + Int(min(om[x + 1] >> 1, 1023))] &+= 1
                    partial[2048 + Int(min(om[x + 2] >> 1, 1023))] &+= 1
                    partial[3072 + Int(min(om[x + 3] >> 1, 1023))] &+= 1
                    x += 4
                }
                while x < w - 1 {
                    partial[Int(min(om[x] >> 1, 1023))] &+= 1
                    x += 1
                }
            }
        }
        for bin in 0..<1024 {
            hist[bin] = partial[bin] &+ partial[1024 + bin] &+ partial[2048 + bin] &+ partial[3072 + bin]
        }
        let counted = (w - 2) * ((h - 2) / 2)
        var remaining = counted * 12 / 100, bin = 2047
        while bin > 0 && remaining > 0 {
            remaining -= Int(hist[bin])
            bin -= 1
        }
        edgeThreshold = max(40, bin * 2)
        var half = counted / 2, median = 0
        while median < 2047 && half > 0 {
            half -= Int(hist[median])
            median += 1
        }
        noiseLevel = median * 2
    }

    /// Whether pixel `i` (of an image `width` pixels wide) is its edge's ridge: not weaker than its neighbours across
    /// the edge. A Sobel edge is ~3 px wide; only its ridge votes, which makes sharper, cheaper Hough peaks.
    @inline(__always)
    static func isRidge(_ magnitude: UnsafePointer<UInt16>, _ i: Int, gx: Int, gy: Int, width w: Int) -> Bool {
        let m = magnitude[i]
        return abs(gx) >= abs(gy) ? m >= magnitude[i - 1] && m >= magnitude[i + 1]
                                  : m >= magnitude[i - w] && m >= magnitude[i + w]
    }
}
