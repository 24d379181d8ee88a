// Hand-written conveniences for the generated Identity (Generated/envelope.pb.swift).

extension Identity {
    /// True when the customer backend declared nothing: every field has its default.
    public var isEmpty: Bool {
        self == Identity()
    }
}
