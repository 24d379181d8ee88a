import KYCCore
import Foundation
import KYCMessages

/// The JSON shapes of KYB answers. Ids are named as the customer backends know them: `callBusinessUId`,
/// `staffUId`, `documentId`, `uploadId`; instants are ISO 8601 UTC with milliseconds.
enum KYBJSON {
    static func business(_ business: KYBBusiness) -> JSONValue {
        .object([
            ("callBusinessUId", .string(business.businessUID)),
            ("taxNumber", .string(business.taxNumber)),
            ("name", .string(business.name)),
            ("shortName", .string(business.shortName)),
            ("type", .string(business.type)),
            ("reference", .string(business.reference)),
            ("isInProgress", .bool(business.isInProgress)),
            ("data", data(business.dataJSON)),
            ("createdAt", .string(UTCTimestamp.iso8601(milliseconds: business.createdAtUnixMs))),
            ("updatedAt", .string(UTCTimestamp.iso8601(milliseconds: business.updatedAtUnixMs))),
            ("staff", .array(business.staff.map(staffMember))),
            ("documents", .array(business.documents.map(document))),
            ("statusHistory", .array(business.statusHistory.map(statusChange))),
            ("missingRequiredCategories", .object([
                ("firstPhase", .array(business.missingFirstPhase.map(JSONValue.string))),
                ("secondPhase", .array(business.missingSecondPhase.map(JSONValue.string))),
            ])),
        ])
    }

    /// The stored `data` JSON (null when none was sent).
    static func data(_ text: String) -> JSONValue {
        guard !text.isEmpty, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return .null
        }
        return value
    }

    static func statusChange(_ change: KYBStatusChange) -> JSONValue {
        .object([
            ("changedAt", .string(UTCTimestamp.iso8601(milliseconds: change.changedAtUnixMs))),
            ("event", .string(change.event)),
            ("changedFields", .array(change.changedFields.map(JSONValue.string))),
            ("reference", .string(change.reference)),
            ("isInProgress", .bool(change.isInProgress)),
            ("type", .string(change.type)),
            ("changedBy", .string(change.changedBy)),
            ("requestId", .string(change.requestID)),
        ])
    }

    static func staffMember(_ member: KYBStaffMember) -> JSONValue {
        .object([
            ("staffUId", .string(member.staffUID)),
            ("sessionUId", member.sessionUID.isEmpty ? .null : .string(member.sessionUID)),
            ("name", .string(member.name)),
            ("surname", .string(member.surname)),
            ("identityNo", .string(member.identityNo)),
            ("birthDate", .string(member.birthDate)),
            ("phone", .string(member.phone)),
            ("createdAt", .string(UTCTimestamp.iso8601(milliseconds: member.createdAtUnixMs))),
        ])
    }

    static func document(_ document: KYBDocument) -> JSONValue {
        .object([
            ("documentId", .string(document.documentUID)),
            ("category", .string(document.category)),
            ("reference", .string(document.reference)),
            ("extension", .string(document.fileExtension)),
            ("contentType", .string(document.contentType)),
            ("sizeBytes", .integer(document.sizeBytes)),
            ("contentHash", .string(document.sha256)),
            ("uploadId", .string(document.uploadUID)),
            ("createdAt", .string(UTCTimestamp.iso8601(milliseconds: document.createdAtUnixMs))),
        ])
    }

    static func category(_ category: KYBDocumentCategory) -> JSONValue {
        .object([
            ("category", .string(category.category)),
            ("name", .string(category.name)),
            ("nameEn", .string(category.nameEn)),
            ("isRequired", .bool(category.isRequired)),
            ("sequence", .integer(Int64(category.sequence))),
            ("secondPhase", .bool(category.secondPhase)),
        ])
    }

    /// The stored bytes as they were uploaded. Served as an attachment with `nosniff`, so a browser never renders
    /// a customer's upload inline as something else, and `no-store`, so no cache keeps a copy of a KYB document.
    static func documentContent(_ reply: BusinessDocumentContentReply) -> RouteResponse {
        let document = reply.document
        return .binary(reply.content, contentType: document.contentType, headers: [
            ("Content-Disposition", "attachment; filename=\"\(document.documentUID).\(document.fileExtension)\""),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
            ("X-Content-SHA256", document.sha256),
        ])
    }

    /// A 409 in the usual error shape, with the existing record's id beside `error` so that a client can go on with
    /// it.
    static func alreadyExists(_ error: APIError, extra: (String, JSONValue), requestID: String) -> RouteResponse {
        guard case let .object(pairs) = error.json(requestID: requestID) else {
            return .json(error.json(requestID: requestID), status: error.status)
        }
        return .json(.object(pairs + [extra]), status: error.status)
    }
}
