/// A rule an input broke, named by field, with a machine-readable code; services turn it into a 422.
public struct ValidationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let code: String
    public let message: String

    public init(field: String, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String { "\(field): \(code) (\(message))" }
}
