import Foundation

/// The file types a KYB document may have, recognised by extension and by the bytes themselves (magic numbers), so
/// that a renamed executable or HTML page is never stored as a "PDF" and later served with a trusted content type.
public enum DocumentFileType: String, Sendable, CaseIterable {
    case pdf
    case jpeg
    case png

    /// The file type an extension names (`pdf`, `jpg`, `jpeg`, `png`; case and a leading dot ignored), or nil when
    /// the extension is not on the allow-list.
    public init?(fileExtension: String) {
        var key = fileExtension.trimmingCharacters(in: .whitespaces).lowercased()
        if key.hasPrefix(".") { key.removeFirst() }
        switch key {
        case "pdf": self = .pdf
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }

    /// The extensions on the allow-list, for error messages and docs.
    public static let allowedExtensions = ["pdf", "jpg", "jpeg", "png"]

    /// The `Content-Type` the document is served with.
    public var contentType: String {
        switch self {
        case .pdf: "application/pdf"
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    /// The signature every file of this type starts with.
    public var magicBytes: [UInt8] {
        switch self {
        case .pdf: Array("%PDF-".utf8)
        case .jpeg: [0xFF, 0xD8, 0xFF]
        case .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        }
    }

    /// True when `content` starts with this type's signature.
    public func matches(_ content: [UInt8]) -> Bool {
        content.count >= magicBytes.count && content.starts(with: magicBytes)
    }
}
