import Foundation
import KYCMessages

/// Reads the JSON of KYB requests into service messages. The gateway checks JSON types, decodes base64 and caps
/// lengths (so the envelope stays small); KYBService checks the rules (checksums, dates, hashes, file types).
enum KYBRequestBody {
    static func uid(_ context: RouteContext) -> String { context.pathParameters["uid"] ?? "" }

    /// A query parameter, empty when absent; 422 when longer than `maxLength`.
    static func query(_ context: RouteContext, _ name: String, maxLength: Int) throws -> String {
        let value = context.request.query[name] ?? ""
        guard value.count <= maxLength else {
            throw APIError.invalidField(name, "too_long", "\(name) must be at most \(maxLength) characters")
        }
        return value
    }

    static func createBusiness(_ context: RouteContext) throws -> CreateBusinessRequest {
        let body = try context.jsonBody()
        let reader = JSONFieldReader(body)
        var dataJSON = ""
        if let data = body["data"], !data.isNull {
            guard data.objectValue != nil || data.arrayValue != nil else {
                throw APIError.invalidField("data", "invalid_type", "data must be a JSON object or array")
            }
            dataJSON = String(decoding: data.encoded(), as: UTF8.self)
        }
        return CreateBusinessRequest(taxNumber: try reader.string("taxNumber", maxLength: 32) ?? "",
                                     name: try reader.string("name", maxLength: 1000) ?? "",
                                     shortName: try reader.string("shortName", maxLength: 1000) ?? "",
                                     dataJSON: dataJSON, type: try reader.string("type", maxLength: 64) ?? "",
                                     reference: try reader.string("reference", maxLength: 1000) ?? "")
    }

    static func updateBusiness(_ context: RouteContext) throws -> UpdateBusinessRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        let request = UpdateBusinessRequest(businessUID: uid(context),
                                            reference: try reader.string("reference", maxLength: 1000),
                                            isInProgress: try reader.bool("isInProgress"),
                                            type: try reader.string("type", maxLength: 64))
        // A PATCH that names none of the fields is almost always a misspelt field; say so rather than answer 200.
        guard request.reference != nil || request.isInProgress != nil || request.type != nil else {
            throw APIError.invalidField("body", "nothing_to_update",
                                        "send at least one of reference, isInProgress, type")
        }
        return request
    }

    static func addStaff(_ context: RouteContext) throws -> AddBusinessStaffRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        return AddBusinessStaffRequest(businessUID: uid(context),
                                       sessionUID: try reader.string("sessionUId", maxLength: 200) ?? "",
                                       name: try reader.string("name", maxLength: 1000) ?? "",
                                       surname: try reader.string("surname", maxLength: 1000) ?? "",
                                       identityNo: try reader.string("identityNo", maxLength: 32) ?? "",
                                       birthDate: try reader.string("birthDate", maxLength: 32) ?? "",
                                       phone: try reader.string("phone", maxLength: 64) ?? "")
    }

    static func uploadDocuments(_ context: RouteContext) throws -> UploadBusinessDocumentsRequest {
        let body = try context.jsonBody()
        let reader = JSONFieldReader(body)
        let documents = try reader.requiredObjectArray("document").map { fields in
            let path = fields.path
            let item = fields.object
            // Read directly: the body limit already bounds it, and counting characters of megabytes is wasted work.
            let encoded: String
            switch item["content"] {
            case nil, .null?: encoded = ""
            case let .string(text)?: encoded = text
            default: throw APIError.invalidField("\(path).content", "invalid_type", "\(path).content must be a string")
            }
            return KYBDocumentUpload(fileExtension: try fields.string("extension", maxLength: 16) ?? "",
                                     content: try JSONFieldReader.strictBase64(encoded, field: "\(path).content"),
                                     contentHash: try fields.string("contentHash", maxLength: 128) ?? "")
        }
        return UploadBusinessDocumentsRequest(businessUID: uid(context),
                                              category: try reader.string("category", maxLength: 64) ?? "",
                                              reference: try reader.string("reference", maxLength: 1000) ?? "",
                                              documents: documents)
    }

    static func putCategory(_ context: RouteContext) throws -> PutKYBDocumentCategoryRequest {
        let reader = JSONFieldReader(try context.jsonBody())
        let sequence = try reader.integer("sequence") ?? 0
        guard (0...1_000_000).contains(sequence) else {
            throw APIError.invalidField("sequence", "out_of_range", "sequence must be between 0 and 1000000")
        }
        return PutKYBDocumentCategoryRequest(category: KYBDocumentCategory(
            category: context.pathParameters["category"] ?? "",
            name: try reader.string("name", maxLength: 1000) ?? "",
            nameEn: try reader.string("nameEn", maxLength: 1000) ?? "",
            isRequired: try reader.bool("isRequired") ?? false, sequence: Int32(sequence),
            secondPhase: try reader.bool("secondPhase") ?? false))
    }

    /// Standard base64 (RFC 4648 §4) with padding and nothing else: no line breaks, no spaces, no URL-safe
    /// alphabet. Lenient decoders accept input that different systems decode differently; a document whose bytes
    /// depend on the decoder must not be stored.
}
