import KYCCrypto
import Foundation
import KYCMessages
import Messaging

/// A document that passed every check, ready to store.
public struct InspectedDocument: Sendable, Equatable {
    public let fileType: DocumentFileType
    /// The extension as the client named it, lower case (`jpg` stays `jpg`).
    public let fileExtension: String
    public let content: [UInt8]
    public let sha256: String
}

/// The checks an upload passes before anything is stored: count and size limits (413), the extension allow-list,
/// the declared SHA-256 (422 `hash_mismatch`) and the magic bytes of the declared type (422
/// `content_type_mismatch`). Fields are named as in the JSON request: `document[2].contentHash`.
public struct DocumentInspector: Sendable {
    public let limits: KYBLimits

    public init(limits: KYBLimits) {
        self.limits = limits
    }

    public func inspect(_ documents: [KYBDocumentUpload]) throws -> [InspectedDocument] {
        guard !documents.isEmpty else {
            throw ServiceError.invalidArgument(field: "document", code: "required",
                                               message: "document must list at least one file")
        }
        guard documents.count <= limits.maxDocumentsPerUpload else {
            throw ServiceError.invalidArgument(field: "document", code: "too_many_documents",
                                               message: "at most \(limits.maxDocumentsPerUpload) documents per request")
        }
        // Sizes first: they are cheap, and an oversized request should not cost a hash of every byte.
        var total = 0
        for (index, document) in documents.enumerated() {
            if document.content.count > limits.maxDocumentBytes {
                throw Self.tooLarge(field: "document[\(index)].content",
                                    message: "document[\(index)] is larger than \(limits.maxDocumentBytes) bytes")
            }
            total += document.content.count
        }
        if total > limits.maxUploadBytes {
            throw Self.tooLarge(field: "document",
                                message: "the documents together are larger than \(limits.maxUploadBytes) bytes")
        }
        return try documents.enumerated().map { index, document in try inspect(document, at: index) }
    }

    private func inspect(_ document: KYBDocumentUpload, at index: Int) throws -> InspectedDocument {
        let prefix = "document[\(index)]"
        guard let fileType = DocumentFileType(fileExtension: document.fileExtension) else {
            throw ServiceError.invalidArgument(
                field: "\(prefix).extension", code: "unsupported_extension",
                message: "\(prefix).extension must be one of \(DocumentFileType.allowedExtensions.joined(separator: ", "))")
        }
        guard !document.content.isEmpty else {
            throw ServiceError.invalidArgument(field: "\(prefix).content", code: "empty_content",
                                               message: "\(prefix).content is empty")
        }
        let declared = document.contentHash.trimmingCharacters(in: .whitespaces).lowercased()
        guard declared.utf8.count == 64, declared.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw ServiceError.invalidArgument(field: "\(prefix).contentHash", code: "invalid_hash",
                                               message: "\(prefix).contentHash must be a SHA-256 in 64 hex digits")
        }
        let actual = SHA256.hex(document.content)
        guard actual == declared else {
            throw ServiceError.invalidArgument(field: "\(prefix).contentHash", code: "hash_mismatch",
                                               message: "the SHA-256 of \(prefix).content is not \(prefix).contentHash")
        }
        guard fileType.matches(document.content) else {
            throw ServiceError.invalidArgument(
                field: "\(prefix).content", code: "content_type_mismatch",
                message: "\(prefix).content is not a \(fileType.rawValue.uppercased()) file")
        }
        var fileExtension = document.fileExtension.trimmingCharacters(in: .whitespaces).lowercased()
        if fileExtension.hasPrefix(".") { fileExtension.removeFirst() }
        return InspectedDocument(fileType: fileType, fileExtension: fileExtension, content: document.content,
                                 sha256: actual)
    }

    static func tooLarge(field: String, message: String) -> ServiceError {
        ServiceError(status: .resourceExhausted, code: "payload_too_large", message: message,
                     violations: [FieldViolation(field: field, code: "payload_too_large", message: message)])
    }
}
