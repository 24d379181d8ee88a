import Credentials
import Foundation
import KYCMessages

/// Corporate onboarding routes (issue #4) → KYBService. The customer backend (API key) does everything; a mobile
/// session opened with `businessUId` and the `kyb` scope may read that business, add and check its staff, upload
/// and list its documents, and read the document categories — for any other business the service answers 404.
/// Document content and the business's registration, update and tax-number check are for API keys only; changing
/// the category list needs an admin API key.
enum KYBRoutes {
    static let service = "kyb"

    static func routes() -> [Route] {
        let backend = RouteAccess.apiKey(scope: Scope.backend)
        let mobile = RouteAccess.apiKeyOrSession(sessionScope: Scope.kyb)
        let admin = RouteAccess.apiKey(scope: Scope.admin)
        return [
            // Before `/v1/kyb/businesses/{uid}`: the table answers the first pattern that matches.
            Route("GET", "/v1/kyb/businesses/check", access: backend, action: .service(ServiceCall(
                service: service, method: "kyb.CheckBusiness",
                buildPayload: { context in
                    CheckBusinessRequest(taxNumber: try KYBRequestBody.query(context, "taxNumber", maxLength: 32))
                        .serialized()
                },
                renderReply: { payload, _ in
                    let reply = try CheckBusinessReply(serialized: payload)
                    return .object([
                        ("checkRecord", .bool(reply.exists)),
                        ("callBusinessUId", reply.exists ? .string(reply.businessUID) : .null),
                        ("type", reply.exists ? .string(reply.type) : .null),
                    ])
                }))),
            Route("POST", "/v1/kyb/businesses", access: backend, action: .service(ServiceCall(
                service: service, method: "kyb.CreateBusiness",
                buildPayload: { context in try KYBRequestBody.createBusiness(context).serialized() },
                renderResponse: { payload, context in
                    let reply = try CreateBusinessReply(serialized: payload)
                    guard reply.outcome == .created else {
                        return KYBJSON.alreadyExists(
                            APIError(status: 409, code: "already_exists",
                                     message: "this tenant already registered a business with this tax number",
                                     field: "taxNumber"),
                            extra: ("callBusinessUId", .string(reply.businessUID)), requestID: context.requestID)
                    }
                    return .json(.object([("callBusinessUId", .string(reply.businessUID))]), status: 201)
                }))),
            Route("GET", "/v1/kyb/businesses/{uid}", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.GetBusiness",
                buildPayload: { context in GetBusinessRequest(businessUID: KYBRequestBody.uid(context)).serialized() },
                renderReply: { payload, _ in KYBJSON.business(try BusinessReply(serialized: payload).business) }))),
            Route("PATCH", "/v1/kyb/businesses/{uid}", access: backend, action: .service(ServiceCall(
                service: service, method: "kyb.UpdateBusiness",
                buildPayload: { context in try KYBRequestBody.updateBusiness(context).serialized() },
                renderReply: { payload, _ in KYBJSON.business(try BusinessReply(serialized: payload).business) }))),
            Route("POST", "/v1/kyb/businesses/{uid}/staff", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.AddStaff",
                buildPayload: { context in try KYBRequestBody.addStaff(context).serialized() },
                renderResponse: { payload, context in
                    let reply = try AddBusinessStaffReply(serialized: payload)
                    guard reply.outcome == .created else {
                        return KYBJSON.alreadyExists(
                            APIError(status: 409, code: "already_exists",
                                     message: "this business already has a staff member with this identity number",
                                     field: "identityNo"),
                            extra: ("staffUId", .string(reply.staff.staffUID)), requestID: context.requestID)
                    }
                    return .json(KYBJSON.staffMember(reply.staff), status: 201)
                }))),
            Route("GET", "/v1/kyb/businesses/{uid}/staff", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.ListStaff",
                buildPayload: { context in
                    ListBusinessStaffRequest(businessUID: KYBRequestBody.uid(context)).serialized()
                },
                renderReply: { payload, _ in
                    .object([("staff", .array(try ListBusinessStaffReply(serialized: payload).staff
                        .map(KYBJSON.staffMember)))])
                }))),
            Route("GET", "/v1/kyb/businesses/{uid}/staff/check", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.CheckStaff",
                buildPayload: { context in
                    CheckBusinessStaffRequest(businessUID: KYBRequestBody.uid(context),
                                              identityNo: try KYBRequestBody.query(context, "identityNo",
                                                                                   maxLength: 32)).serialized()
                },
                renderReply: { payload, _ in
                    .object([("exists", .bool(try CheckBusinessStaffReply(serialized: payload).exists))])
                }))),
            Route("POST", "/v1/kyb/businesses/{uid}/documents", access: mobile, bodyLimit: .upload,
                  action: .service(ServiceCall(
                      service: service, method: "kyb.UploadDocuments", successStatus: 201,
                      buildPayload: { context in try KYBRequestBody.uploadDocuments(context).serialized() },
                      renderReply: { payload, _ in
                          let reply = try UploadBusinessDocumentsReply(serialized: payload)
                          return .object([
                              ("uploadId", .string(reply.uploadUID)),
                              ("documentIds", .array(reply.documents.map { .string($0.documentUID) })),
                              ("documents", .array(reply.documents.map(KYBJSON.document))),
                          ])
                      }))),
            Route("GET", "/v1/kyb/businesses/{uid}/documents", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.ListDocuments",
                buildPayload: { context in
                    ListBusinessDocumentsRequest(businessUID: KYBRequestBody.uid(context)).serialized()
                },
                renderReply: { payload, _ in
                    .object([("documents", .array(try ListBusinessDocumentsReply(serialized: payload).documents
                        .map(KYBJSON.document)))])
                }))),
            Route("GET", "/v1/kyb/businesses/{uid}/documents/{documentId}/content", access: backend,
                  action: .service(ServiceCall(
                      service: service, method: "kyb.GetDocumentContent",
                      buildPayload: { context in
                          GetBusinessDocumentContentRequest(businessUID: KYBRequestBody.uid(context),
                                                            documentUID: context.pathParameters["documentId"] ?? "")
                              .serialized()
                      },
                      renderResponse: { payload, _ in
                          KYBJSON.documentContent(try BusinessDocumentContentReply(serialized: payload))
                      }))),
            Route("GET", "/v1/kyb/document-categories", access: mobile, action: .service(ServiceCall(
                service: service, method: "kyb.ListDocumentCategories",
                buildPayload: { _ in ListKYBDocumentCategoriesRequest().serialized() },
                renderReply: { payload, _ in
                    .array(try ListKYBDocumentCategoriesReply(serialized: payload).categories.map(KYBJSON.category))
                }))),
            Route("PUT", "/v1/kyb/document-categories/{category}", access: admin, action: .service(ServiceCall(
                service: service, method: "kyb.PutDocumentCategory",
                buildPayload: { context in try KYBRequestBody.putCategory(context).serialized() },
                renderResponse: { payload, _ in
                    let reply = try PutKYBDocumentCategoryReply(serialized: payload)
                    return .json(KYBJSON.category(reply.category), status: reply.created ? 201 : 200)
                }))),
            Route("DELETE", "/v1/kyb/document-categories/{category}", access: admin, action: .service(ServiceCall(
                service: service, method: "kyb.DeleteDocumentCategory",
                buildPayload: { context in
                    DeleteKYBDocumentCategoryRequest(category: context.pathParameters["category"] ?? "").serialized()
                },
                renderReply: { payload, _ in
                    .object([("category", .string(try DeleteKYBDocumentCategoryReply(serialized: payload).category)),
                             ("deleted", .bool(true))])
                }))),
        ]
    }
}
