import KYCCrypto
import KYCMessages
import Messaging
import Storage

/// The businesses' documents. Content is stored once per tenant and SHA-256 (identical files uploaded twice, or for
/// two businesses, share one blob); each document row points at its blob. An upload — every document of one
/// request — is written in ONE transaction: a failure or a crash before COMMIT leaves nothing of it behind.
public final class DocumentVault: Sendable {
    private let database: Database
    /// Called inside the upload transaction after each document row is written (index of the document). Tests use
    /// it to fail, or to kill the process, in the middle of an upload.
    private let midUploadHook: (@Sendable (Int) throws -> Void)?

    init(database: Database, midUploadHook: (@Sendable (Int) throws -> Void)? = nil) {
        self.database = database
        self.midUploadHook = midUploadHook
    }

    /// Stores the inspected documents under `category` (which must be one of the tenant's categories). A retry of
    /// the same request answers the documents it stored the first time.
    public func upload(_ documents: [InspectedDocument], businessUID: String, category: String, reference: String,
                       caller: KYBCaller, now: Int64) throws -> UploadBusinessDocumentsReply {
        try database.transaction { transaction in
            guard let businessID = try BusinessLookup.id(tenant: caller.tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            if let previous = try transaction.queryOne(
                "SELECT id, uid FROM document_uploads WHERE business_id = ? AND request_key = ?",
                [.integer(businessID), .text(caller.requestKey)]) {
                let uploadID = try previous.int("id")
                return UploadBusinessDocumentsReply(
                    uploadUID: try previous.string("uid"),
                    documents: try Self.documents(where: "d.upload_id = ?", [.integer(uploadID)], in: transaction))
            }
            let categories = try DocumentCategoryCatalog.categories(tenant: caller.tenant, in: transaction)
            guard categories.contains(where: { $0.category == category }) else {
                throw ServiceError.invalidArgument(field: "category", code: "unknown_category",
                                                   message: "category must be one of the tenant's document categories")
            }
            let uploadUID = SecureRandom.identifier(prefix: "upl_")
            let uploadID = try transaction.insert("""
                INSERT INTO document_uploads(business_id, uid, request_key, category, reference, uploaded_by,
                                             created_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.integer(businessID), .text(uploadUID), .text(caller.requestKey), .text(category),
                      .text(reference), .text(caller.principalID), .integer(now)])
            var stored: [KYBDocument] = []
            for (position, document) in documents.enumerated() {
                try transaction.execute("""
                    INSERT INTO document_blobs(tenant, sha256, size_bytes, content, created_at_ms)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT(tenant, sha256) DO NOTHING
                    """, [.text(caller.tenant), .text(document.sha256), .integer(Int64(document.content.count)),
                          .blob(document.content), .integer(now)])
                let blobID = try transaction.queryOne("SELECT id FROM document_blobs WHERE tenant = ? AND sha256 = ?",
                                                      [.text(caller.tenant), .text(document.sha256)])!.int("id")
                let uid = SecureRandom.identifier(prefix: "doc_")
                try transaction.execute("""
                    INSERT INTO documents(uid, business_id, upload_id, blob_id, category, reference, extension,
                                          content_type, position, created_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(uid), .integer(businessID), .integer(uploadID), .integer(blobID), .text(category),
                          .text(reference), .text(document.fileExtension), .text(document.fileType.contentType),
                          .integer(Int64(position)), .integer(now)])
                stored.append(KYBDocument(documentUID: uid, category: category, reference: reference,
                                          fileExtension: document.fileExtension,
                                          contentType: document.fileType.contentType,
                                          sizeBytes: Int64(document.content.count), sha256: document.sha256,
                                          createdAtUnixMs: now, uploadUID: uploadUID))
                try midUploadHook?(position)
            }
            return UploadBusinessDocumentsReply(uploadUID: uploadUID, documents: stored)
        }
    }

    /// The business's documents, oldest first. Throws `not_found` for another tenant's id.
    public func list(businessUID: String, tenant: String) throws -> [KYBDocument] {
        try database.transaction(.deferred) { transaction in
            guard let businessID = try BusinessLookup.id(tenant: tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            return try Self.documents(businessID: businessID, in: transaction)
        }
    }

    /// One document with its bytes. Throws `not_found` when the tenant's business has no such document.
    public func content(documentUID: String, businessUID: String, tenant: String) throws
        -> BusinessDocumentContentReply {
        try database.transaction(.deferred) { transaction in
            guard let businessID = try BusinessLookup.id(tenant: tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            guard let document = try Self.documents(where: "d.business_id = ? AND d.uid = ?",
                                                     [.integer(businessID), .text(documentUID)],
                                                     in: transaction).first,
                  let row = try transaction.queryOne("""
                      SELECT b.content FROM documents d JOIN document_blobs b ON b.id = d.blob_id WHERE d.uid = ?
                      """, [.text(documentUID)]) else {
                throw ServiceError(status: .notFound, code: "document_not_found", message: "no document with this id")
            }
            return BusinessDocumentContentReply(document: document, content: try row.blob("content"))
        }
    }

    /// How many distinct contents the tenant has stored (for tests and operators checking deduplication).
    public func blobCount(tenant: String) throws -> Int {
        Int(try database.queryOne("SELECT COUNT(*) AS n FROM document_blobs WHERE tenant = ?", [.text(tenant)])?
            .int("n") ?? 0)
    }

    static func documents(businessID: Int64, in transaction: Transaction) throws -> [KYBDocument] {
        try documents(where: "d.business_id = ?", [.integer(businessID)], in: transaction)
    }

    private static func documents(where condition: String, _ bindings: [SQLValue],
                                  in transaction: Transaction) throws -> [KYBDocument] {
        try transaction.query("""
            SELECT d.uid, d.category, d.reference, d.extension, d.content_type, d.created_at_ms, b.size_bytes,
                   b.sha256, u.uid AS upload_uid
            FROM documents d JOIN document_blobs b ON b.id = d.blob_id JOIN document_uploads u ON u.id = d.upload_id
            WHERE \(condition) ORDER BY d.id
            """, bindings).map { row in
            KYBDocument(documentUID: try row.string("uid"), category: try row.string("category"),
                        reference: try row.string("reference"), fileExtension: try row.string("extension"),
                        contentType: try row.string("content_type"), sizeBytes: try row.int("size_bytes"),
                        sha256: try row.string("sha256"), createdAtUnixMs: try row.int("created_at_ms"),
                        uploadUID: try row.string("upload_uid"))
        }
    }
}
