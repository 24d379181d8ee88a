// Swift values for the document-category messages of proto/kyb.proto: the per-tenant list of documents KYB asks for.
import CKYCProto
import CProtobufC

/// One kind of document a business is asked for.
public struct KYBDocumentCategory: Sendable, Equatable {
    /// Stable code, e.g. `tax_plate`.
    public var category: String
    /// Turkish display name.
    public var name: String
    /// English display name.
    public var nameEn: String
    public var isRequired: Bool
    /// Display order.
    public var sequence: Int32
    /// Asked for after the first review.
    public var secondPhase: Bool

    public init(category: String = "", name: String = "", nameEn: String = "", isRequired: Bool = false,
                sequence: Int32 = 0, secondPhase: Bool = false) {
        self.category = category
        self.name = name
        self.nameEn = nameEn
        self.isRequired = isRequired
        self.sequence = sequence
        self.secondPhase = secondPhase
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__KybDocumentCategory> {
        let message = arena.allocate(Kyc__V1__KybDocumentCategory.self)
        kyc__v1__kyb_document_category__init(message)
        message.pointee.category = arena.string(category)
        message.pointee.name = arena.string(name)
        message.pointee.name_en = arena.string(nameEn)
        message.pointee.is_required = isRequired ? 1 : 0
        message.pointee.sequence = sequence
        message.pointee.second_phase = secondPhase ? 1 : 0
        return message
    }

    init(_ pointer: UnsafeMutablePointer<Kyc__V1__KybDocumentCategory>) {
        let c = pointer.pointee
        self.init(category: CRead.string(c.category), name: CRead.string(c.name), nameEn: CRead.string(c.name_en),
                  isRequired: c.is_required != 0, sequence: c.sequence, secondPhase: c.second_phase != 0)
    }
}

/// `kyb.ListDocumentCategories`.
public struct ListKYBDocumentCategoriesRequest: WireMessage, Equatable {
    public init() {}

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListKybDocumentCategoriesRequest.self)
        kyc__v1__list_kyb_document_categories_request__init(message)
        return pack(message, size: { kyc__v1__list_kyb_document_categories_request__get_packed_size($0) },
                    pack: { kyc__v1__list_kyb_document_categories_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListKybDocumentCategoriesRequest",
                          unpack: { kyc__v1__list_kyb_document_categories_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_kyb_document_categories_request__free_unpacked($0, nil) }) { _ in
            ListKYBDocumentCategoriesRequest()
        }
    }
}

public struct ListKYBDocumentCategoriesReply: WireMessage, Equatable {
    /// By sequence, then code.
    public var categories: [KYBDocumentCategory]

    public init(categories: [KYBDocumentCategory] = []) { self.categories = categories }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListKybDocumentCategoriesReply.self)
        kyc__v1__list_kyb_document_categories_reply__init(message)
        message.pointee.n_categories = categories.count
        message.pointee.categories = arena.messageArray(categories) { $0.cMessage(in: arena) }
        return pack(message, size: { kyc__v1__list_kyb_document_categories_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_kyb_document_categories_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListKybDocumentCategoriesReply",
                          unpack: { kyc__v1__list_kyb_document_categories_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_kyb_document_categories_reply__free_unpacked($0, nil) }) { message in
            ListKYBDocumentCategoriesReply(
                categories: CRead.messages(message.pointee.n_categories, message.pointee.categories) {
                    KYBDocumentCategory($0)
                })
        }
    }
}

/// `kyb.PutDocumentCategory`: creates or replaces one category of the caller's tenant (admin only).
public struct PutKYBDocumentCategoryRequest: WireMessage, Equatable {
    public var category: KYBDocumentCategory

    public init(category: KYBDocumentCategory = KYBDocumentCategory()) { self.category = category }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PutKybDocumentCategoryRequest.self)
        kyc__v1__put_kyb_document_category_request__init(message)
        message.pointee.category = category.cMessage(in: arena)
        return pack(message, size: { kyc__v1__put_kyb_document_category_request__get_packed_size($0) },
                    pack: { kyc__v1__put_kyb_document_category_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PutKybDocumentCategoryRequest",
                          unpack: { kyc__v1__put_kyb_document_category_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__put_kyb_document_category_request__free_unpacked($0, nil) }) { message in
            PutKYBDocumentCategoryRequest(
                category: message.pointee.category.map { KYBDocumentCategory($0) } ?? KYBDocumentCategory())
        }
    }
}

public struct PutKYBDocumentCategoryReply: WireMessage, Equatable {
    public var category: KYBDocumentCategory
    /// False when an existing category was replaced.
    public var created: Bool

    public init(category: KYBDocumentCategory = KYBDocumentCategory(), created: Bool = false) {
        self.category = category
        self.created = created
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PutKybDocumentCategoryReply.self)
        kyc__v1__put_kyb_document_category_reply__init(message)
        message.pointee.category = category.cMessage(in: arena)
        message.pointee.created = created ? 1 : 0
        return pack(message, size: { kyc__v1__put_kyb_document_category_reply__get_packed_size($0) },
                    pack: { kyc__v1__put_kyb_document_category_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PutKybDocumentCategoryReply",
                          unpack: { kyc__v1__put_kyb_document_category_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__put_kyb_document_category_reply__free_unpacked($0, nil) }) { message in
            PutKYBDocumentCategoryReply(
                category: message.pointee.category.map { KYBDocumentCategory($0) } ?? KYBDocumentCategory(),
                created: message.pointee.created != 0)
        }
    }
}

/// `kyb.DeleteDocumentCategory` (admin only).
public struct DeleteKYBDocumentCategoryRequest: WireMessage, Equatable {
    public var category: String

    public init(category: String = "") { self.category = category }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__DeleteKybDocumentCategoryRequest.self)
        kyc__v1__delete_kyb_document_category_request__init(message)
        message.pointee.category = arena.string(category)
        return pack(message, size: { kyc__v1__delete_kyb_document_category_request__get_packed_size($0) },
                    pack: { kyc__v1__delete_kyb_document_category_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "DeleteKybDocumentCategoryRequest",
                          unpack: { kyc__v1__delete_kyb_document_category_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__delete_kyb_document_category_request__free_unpacked($0, nil) }) { message in
            DeleteKYBDocumentCategoryRequest(category: CRead.string(message.pointee.category))
        }
    }
}

public struct DeleteKYBDocumentCategoryReply: WireMessage, Equatable {
    public var category: String

    public init(category: String = "") { self.category = category }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__DeleteKybDocumentCategoryReply.self)
        kyc__v1__delete_kyb_document_category_reply__init(message)
        message.pointee.category = arena.string(category)
        return pack(message, size: { kyc__v1__delete_kyb_document_category_reply__get_packed_size($0) },
                    pack: { kyc__v1__delete_kyb_document_category_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "DeleteKybDocumentCategoryReply",
                          unpack: { kyc__v1__delete_kyb_document_category_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__delete_kyb_document_category_reply__free_unpacked($0, nil) }) { message in
            DeleteKYBDocumentCategoryReply(category: CRead.string(message.pointee.category))
        }
    }
}
