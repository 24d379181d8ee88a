// A list kept between frames, reused without allocating (issue #5: the analysis's hot loop allocation-free).

extension Array {
    /// This array's storage, emptied, leaving the array itself empty: for a list a class keeps between calls, taken
    /// out at the start of one and put back at its end. Taken out first, so that the storage is not shared when it
    /// is emptied: `removeAll(keepingCapacity: true)` on a copy still held by the property allocates a new buffer.
    mutating func takenEmptied() -> Array {
        var taken = self
        self = []
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
