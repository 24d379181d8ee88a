// Swift values for the document messages of proto/kyb.proto: uploads, metadata listings and content reads.
import CKYCProto
import CProtobufC

/// The metadata of one stored document (never its bytes).
public struct KYBDocument: Sendable, Equatable {
    public var documentUID: String
    public var category: String
    public var reference: String
    /// Lower case: pdf, jpg, jpeg, png.
    public var fileExtension: String
    /// application/pdf, image/jpeg or image/png.
    public var contentType: String
    public var sizeBytes: Int64
    /// Lower-case hex SHA-256 of the content.
    public var sha256: String
    public var createdAtUnixMs: Int64
    /// Documents sent in one request share it.
    public var uploadUID: String

    public init(documentUID: String = "", category: String = "", reference: String = "", fileExtension: String = "",
                contentType: String = "", sizeBytes: Int64 = 0, sha256: String = "", createdAtUnixMs: Int64 = 0,
                uploadUID: String = "") {
        self.documentUID = documentUID
        self.category = category
        self.reference = reference
        self.fileExtension = fileExtension
        self.contentType = contentType
        self.sizeBytes = sizeBytes
        self.sha256 = sha256
        self.createdAtUnixMs = createdAtUnixMs
        self.uploadUID = uploadUID
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__KybDocument> {
        let message = arena.allocate(Kyc__V1__KybDocument.self)
        kyc__v1__kyb_document__init(message)
        message.pointee.document_uid = arena.string(documentUID)
        message.pointee.category = arena.string(category)
        message.pointee.reference = arena.string(reference)
        message.pointee.extension = arena.string(fileExtension)
        message.pointee.content_type = arena.string(contentType)
        message.pointee.size_bytes = sizeBytes
        message.pointee.sha256 = arena.string(sha256)
        message.pointee.created_at_unix_ms = createdAtUnixMs
        message.pointee.upload_uid = arena.string(uploadUID)
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__KybDocument>) {
        let c = pointer.pointee
        self.init(documentUID: CRead.string(c.document_uid), category: CRead.string(c.category),
                  reference: CRead.string(c.reference), fileExtension: CRead.string(c.extension),
                  contentType: CRead.string(c.content_type), sizeBytes: c.size_bytes, sha256: CRead.string(c.sha256),
                  createdAtUnixMs: c.created_at_unix_ms, uploadUID: CRead.string(c.upload_uid))
    }
}

/// One file of an upload, as the client sent it (content already base64-decoded by the gateway).
public struct KYBDocumentUpload: Sendable, Equatable {
    public var fileExtension: String
    public var content: [UInt8]
    /// The SHA-256 hex the client declared for `content`.
    public var contentHash: String

    public init(fileExtension: String = "", content: [UInt8] = [], contentHash: String = "") {
        self.fileExtension = fileExtension
        self.content = content
        self.contentHash = contentHash
    }
}

/// `kyb.UploadDocuments`: every document of one category, stored all together or not at all.
public struct UploadBusinessDocumentsRequest: WireMessage, Equatable {
    public var businessUID: String
    public var category: String
    public var reference: String
    public var documents: [KYBDocumentUpload]

    public init(businessUID: String = "", category: String = "", reference: String = "",
                documents: [KYBDocumentUpload] = []) {
        self.businessUID = businessUID
        self.category = category
        self.reference = reference
        self.documents = documents
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__UploadBusinessDocumentsRequest.self)
        kyc__v1__upload_business_documents_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.category = arena.string(category)
        message.pointee.reference = arena.string(reference)
        message.pointee.n_documents = documents.count
        message.pointee.documents = arena.messageArray(documents) { document in
            let item = arena.allocate(Kyc__V1__KybDocumentUpload.self)
            kyc__v1__kyb_document_upload__init(item)
            item.pointee.extension = arena.string(document.fileExtension)
            item.pointee.content = arena.bytes(document.content)
            item.pointee.content_hash = arena.string(document.contentHash)
            return item
        }
        return pack(message, size: { kyc__v1__upload_business_documents_request__get_packed_size($0) },
                    pack: { kyc__v1__upload_business_documents_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "UploadBusinessDocumentsRequest",
                          unpack: { kyc__v1__upload_business_documents_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__upload_business_documents_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return UploadBusinessDocumentsRequest(
                businessUID: CRead.string(c.business_uid), category: CRead.string(c.category),
                reference: CRead.string(c.reference),
                documents: CRead.messages(c.n_documents, c.documents) { item in
                    KYBDocumentUpload(fileExtension: CRead.string(item.pointee.extension),
                                      content: CRead.bytes(item.pointee.content),
                                      contentHash: CRead.string(item.pointee.content_hash))
                })
        }
    }
}

public struct UploadBusinessDocumentsReply: WireMessage, Equatable {
    public var uploadUID: String
    /// In the order they were sent.
    public var documents: [KYBDocument]

    public init(uploadUID: String = "", documents: [KYBDocument] = []) {
        self.uploadUID = uploadUID
        self.documents = documents
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__UploadBusinessDocumentsReply.self)
        kyc__v1__upload_business_documents_reply__init(message)
        message.pointee.upload_uid = arena.string(uploadUID)
        message.pointee.n_documents = documents.count
        message.pointee.documents = arena.messageArray(documents) { $0.cMessage(in: arena) }
        return pack(message, size: { kyc__v1__upload_business_documents_reply__get_packed_size($0) },
                    pack: { kyc__v1__upload_business_documents_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "UploadBusinessDocumentsReply",
                          unpack: { kyc__v1__upload_business_documents_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__upload_business_documents_reply__free_unpacked($0, nil) }) { message in
            UploadBusinessDocumentsReply(
                uploadUID: CRead.string(message.pointee.upload_uid),
                documents: CRead.messages(message.pointee.n_documents, message.pointee.documents) { KYBDocument($0) })
        }
    }
}

/// `kyb.ListDocuments`.
public struct ListBusinessDocumentsRequest: WireMessage, Equatable {
    public var businessUID: String

    public init(businessUID: String = "") { self.businessUID = businessUID }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListBusinessDocumentsRequest.self)
        kyc__v1__list_business_documents_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        return pack(message, size: { kyc__v1__list_business_documents_request__get_packed_size($0) },
                    pack: { kyc__v1__list_business_documents_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListBusinessDocumentsRequest",
                          unpack: { kyc__v1__list_business_documents_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_business_documents_request__free_unpacked($0, nil) }) { message in
            ListBusinessDocumentsRequest(businessUID: CRead.string(message.pointee.business_uid))
        }
    }
}

public struct ListBusinessDocumentsReply: WireMessage, Equatable {
    /// Oldest first.
    public var documents: [KYBDocument]

    public init(documents: [KYBDocument] = []) { self.documents = documents }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListBusinessDocumentsReply.self)
        kyc__v1__list_business_documents_reply__init(message)
        message.pointee.n_documents = documents.count
        message.pointee.documents = arena.messageArray(documents) { $0.cMessage(in: arena) }
        return pack(message, size: { kyc__v1__list_business_documents_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_business_documents_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListBusinessDocumentsReply",
                          unpack: { kyc__v1__list_business_documents_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_business_documents_reply__free_unpacked($0, nil) }) { message in
            ListBusinessDocumentsReply(
                documents: CRead.messages(message.pointee.n_documents, message.pointee.documents) { KYBDocument($0) })
        }
    }
}

/// `kyb.GetDocumentContent`.
public struct GetBusinessDocumentContentRequest: WireMessage, Equatable {
    public var businessUID: String
    public var documentUID: String

    public init(businessUID: String = "", documentUID: String = "") {
        self.businessUID = businessUID
        self.documentUID = documentUID
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetBusinessDocumentContentRequest.self)
        kyc__v1__get_business_document_content_request__init(message)
        message.pointee.business_uid = arena.string(businessUID)
        message.pointee.document_uid = arena.string(documentUID)
        return pack(message, size: { kyc__v1__get_business_document_content_request__get_packed_size($0) },
                    pack: { kyc__v1__get_business_document_content_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetBusinessDocumentContentRequest",
                          unpack: { kyc__v1__get_business_document_content_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_business_document_content_request__free_unpacked($0, nil) }) { message in
            GetBusinessDocumentContentRequest(businessUID: CRead.string(message.pointee.business_uid),
                                              documentUID: CRead.string(message.pointee.document_uid))
        }
    }
}

public struct BusinessDocumentContentReply: WireMessage, Equatable {
    public var document: KYBDocument
    public var content: [UInt8]

    public init(document: KYBDocument = KYBDocument(), content: [UInt8] = []) {
        self.document = document
        self.content = content
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__BusinessDocumentContentReply.self)
        kyc__v1__business_document_content_reply__init(message)
        message.pointee.document = document.cMessage(in: arena)
        message.pointee.content = arena.bytes(content)
        return pack(message, size: { kyc__v1__business_document_content_reply__get_packed_size($0) },
                    pack: { kyc__v1__business_document_content_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "BusinessDocumentContentReply",
                          unpack: { kyc__v1__business_document_content_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__business_document_content_reply__free_unpacked($0, nil) }) { message in
            BusinessDocumentContentReply(document: message.pointee.document.map { KYBDocument($0) } ?? KYBDocument(),
                                         content: CRead.bytes(message.pointee.content))
        }
    }
}
