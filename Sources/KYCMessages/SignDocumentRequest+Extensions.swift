// Hand-written conveniences for the generated SignDocumentRequest (Generated/signing.pb.swift).
//
// protoc-c 1.4 has no proto3 `optional`, so signing.proto carries the document bytes as `data` plus a `has_data`
// flag: empty bytes sent on purpose and no bytes at all must stay apart (the service only checks the document when
// the device sent it). The generator keeps the two wire fields; callers read and write them as one optional here.

extension SignDocumentRequest {
    /// A request whose document bytes are `shownData`: the bytes the device showed, or nil when it sent none
    /// (`has_data` false; the service then signs without checking the document).
    public init(reference: String = "", documentID: String = "", keyID: String = "", signature: [UInt8] = [],
                shownData: [UInt8]?) {
        self.init(reference: reference, documentID: documentID, keyID: keyID, signature: signature,
                  data: shownData ?? [], hasData: shownData != nil)
    }

    /// The document bytes the device showed, or nil when it sent none: `data` when `hasData`, else nil. Setting it
    /// sets both wire fields.
    public var shownData: [UInt8]? {
        get { hasData ? data : nil }
        set {
            data = newValue ?? []
            hasData = newValue != nil
        }
    }
}
