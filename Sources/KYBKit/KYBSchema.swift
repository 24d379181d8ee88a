import Storage

/// KYBService's database schema, one migration per version. Rows are always read and written with their tenant;
/// public ids (`biz_…`, `stf_…`, `doc_…`, `upl_…`) are random, internal integer ids never leave the service.
enum KYBSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "businesses, staff, documents and document categories", sql: """
            CREATE TABLE businesses (
                id INTEGER PRIMARY KEY,
                tenant TEXT NOT NULL,
                uid TEXT NOT NULL UNIQUE,
                tax_number TEXT NOT NULL,
                name TEXT NOT NULL,
                short_name TEXT NOT NULL,
                data_json TEXT NOT NULL,
                type TEXT NOT NULL CHECK (type IN ('limited', 'anonymous', 'sole_proprietorship')),
                reference TEXT NOT NULL,
                is_in_progress INTEGER NOT NULL,
                created_at_ms INTEGER NOT NULL,
                updated_at_ms INTEGER NOT NULL,
                created_by TEXT NOT NULL,
                request_key TEXT NOT NULL,
                UNIQUE (tenant, tax_number)
            );
            CREATE TABLE business_status_history (
                id INTEGER PRIMARY KEY,
                business_id INTEGER NOT NULL REFERENCES businesses(id),
                changed_at_ms INTEGER NOT NULL,
                event TEXT NOT NULL CHECK (event IN ('created', 'updated')),
                changed_fields TEXT NOT NULL,
                reference TEXT NOT NULL,
                is_in_progress INTEGER NOT NULL,
                type TEXT NOT NULL,
                changed_by TEXT NOT NULL,
                request_id TEXT NOT NULL
            );
            CREATE INDEX business_status_history_by_business ON business_status_history(business_id, id);
            CREATE TABLE staff (
                id INTEGER PRIMARY KEY,
                business_id INTEGER NOT NULL REFERENCES businesses(id),
                uid TEXT NOT NULL UNIQUE,
                session_uid TEXT NOT NULL,
                name TEXT NOT NULL,
                surname TEXT NOT NULL,
                identity_no TEXT NOT NULL,
                birth_date TEXT NOT NULL,
                phone TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                created_by TEXT NOT NULL,
                request_key TEXT NOT NULL,
                UNIQUE (business_id, identity_no)
            );
            CREATE TABLE document_blobs (
                id INTEGER PRIMARY KEY,
                tenant TEXT NOT NULL,
                sha256 TEXT NOT NULL,
                size_bytes INTEGER NOT NULL,
                content BLOB NOT NULL,
                created_at_ms INTEGER NOT NULL,
                UNIQUE (tenant, sha256)
            );
            CREATE TABLE document_uploads (
                id INTEGER PRIMARY KEY,
                business_id INTEGER NOT NULL REFERENCES businesses(id),
                uid TEXT NOT NULL UNIQUE,
                request_key TEXT NOT NULL,
                category TEXT NOT NULL,
                reference TEXT NOT NULL,
                uploaded_by TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                UNIQUE (business_id, request_key)
            );
            CREATE TABLE documents (
                id INTEGER PRIMARY KEY,
                uid TEXT NOT NULL UNIQUE,
                business_id INTEGER NOT NULL REFERENCES businesses(id),
                upload_id INTEGER NOT NULL REFERENCES document_uploads(id),
                blob_id INTEGER NOT NULL REFERENCES document_blobs(id),
                category TEXT NOT NULL,
                reference TEXT NOT NULL,
                extension TEXT NOT NULL,
                content_type TEXT NOT NULL,
                position INTEGER NOT NULL,
                created_at_ms INTEGER NOT NULL
            );
            CREATE INDEX documents_by_business ON documents(business_id, id);
            CREATE TABLE document_categories (
                tenant TEXT NOT NULL,
                category TEXT NOT NULL,
                name TEXT NOT NULL,
                name_en TEXT NOT NULL,
                is_required INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                second_phase INTEGER NOT NULL,
                PRIMARY KEY (tenant, category)
            );
            CREATE TABLE tenant_category_lists (
                tenant TEXT PRIMARY KEY
            );
            INSERT INTO document_categories(tenant, category, name, name_en, is_required, sequence, second_phase) VALUES
                ('', 'trade_registry_gazette', 'Ticaret Sicil Gazetesi', 'Trade registry gazette', 1, 10, 0),
                ('', 'tax_plate', 'Vergi Levhası', 'Tax plate', 1, 20, 0),
                ('', 'signature_circular', 'İmza Sirküleri', 'Signature circular', 1, 30, 0),
                ('', 'activity_certificate', 'Faaliyet Belgesi', 'Activity certificate', 1, 40, 0),
                ('', 'shareholder_structure', 'Ortaklık Yapısı', 'Shareholder structure', 1, 50, 0),
                ('', 'representative_id_copy', 'Yetkili Kimlik Fotokopisi',
                 'Identity card copies of the authorised representatives', 1, 60, 0),
                ('', 'articles_of_association', 'Şirket Ana Sözleşmesi', 'Articles of association', 0, 70, 0),
                ('', 'beneficial_owner_declaration', 'Gerçek Faydalanıcı Beyanı', 'Beneficial owner declaration',
                 1, 80, 1),
                ('', 'address_proof', 'İşyeri Adres Belgesi', 'Proof of business address', 1, 90, 1),
                ('', 'board_resolution', 'Yönetim Kurulu / Müdürler Kurulu Kararı',
                 'Board resolution authorising the representatives', 0, 100, 1);
            """),
    ]

    /// The tenant id under which the platform's default categories are stored.
    static let defaultsTenant = ""
}

/// Internal lookups shared by the registries.
enum BusinessLookup {
    /// The internal id of the tenant's business `uid`, or nil when the tenant has no such business.
    static func id(tenant: String, uid: String, in transaction: Transaction) throws -> Int64? {
        try transaction.queryOne("SELECT id FROM businesses WHERE tenant = ? AND uid = ?", [.text(tenant), .text(uid)])?
            .int("id")
    }
}
