// The whole image's mean luma: the selfie search's exposure check, before any region is known.

extension GrayImage {
    /// Mean luma (0…255) of every pixel; 0 for an empty image.
    var meanLuma: Double {
        let count = width * height
        guard count > 0 else { return 0 }
        var sum = 0
        let pixels = base
        for index in 0..<count { sum &+= Int(pixels[index]) }
        return Double(sum) / Double(count)
    }
}
