import KYCCrypto
import Foundation
import Storage

/// One entry of a tenant's hash-chained evidence log.
///
/// Its canonical bytes (hashed with SHA-256 into `entryHash`) are, UTF-8 with LF after each line:
/// `KYC-LOG-v1`, tenant, sequence, recordedAtMs, event, reference, details (canonical JSON), previousHash.
/// `previousHash` is the previous entry's `entryHash` (64 zeros for sequence 1), so editing, removing or reordering
/// any entry breaks a link.
public struct EvidenceLogEntry: Sendable, Equatable {
    public var tenant: String
    public var sequence: Int64
    public var recordedAtMs: Int64
    /// `request.created`, `key.enrolled`, `key.issued`, `document.signed` or `request.sealed`.
    public var event: String
    /// The signing request it concerns; empty for key enrolment.
    public var reference: String
    /// Canonical JSON text of the event's facts (hashes, ids; never document contents or secrets).
    public var details: String
    public var previousHash: String
    public var entryHash: String

    public static let genesisHash = String(repeating: "0", count: 64)

    public func canonicalBytes() -> [UInt8] {
        Array("KYC-LOG-v1\n\(tenant)\n\(sequence)\n\(recordedAtMs)\n\(event)\n\(reference)\n\(details)\n\(previousHash)\n".utf8)
    }

    /// SHA-256 hex of `canonicalBytes()`: what `entryHash` must be.
    public var computedHash: String { SHA256.hex(canonicalBytes()) }

    /// The entry as it appears in an evidence bundle.
    public var json: CanonicalJSON {
        .object(["tenant": .string(tenant), "sequence": .integer(sequence), "recordedAtMs": .integer(recordedAtMs),
                 "event": .string(event), "reference": .string(reference), "details": .string(details),
                 "previousHash": .string(previousHash), "hash": .string(entryHash)])
    }

    /// Reads a bundle's entry; nil when a field is missing or has the wrong type.
    public init?(json: CanonicalJSON) {
        guard let tenant = json["tenant"]?.stringValue, let sequence = json["sequence"]?.integerValue,
              let recorded = json["recordedAtMs"]?.integerValue, let event = json["event"]?.stringValue,
              let reference = json["reference"]?.stringValue, let details = json["details"]?.stringValue,
              let previous = json["previousHash"]?.stringValue, let hash = json["hash"]?.stringValue,
              json.objectValue?.count == 8 else { return nil }
        self.init(tenant: tenant, sequence: sequence, recordedAtMs: recorded, event: event, reference: reference,
                  details: details, previousHash: previous, entryHash: hash)
    }

    public init(tenant: String, sequence: Int64, recordedAtMs: Int64, event: String, reference: String,
                details: String, previousHash: String, entryHash: String) {
        self.tenant = tenant
        self.sequence = sequence
        self.recordedAtMs = recordedAtMs
        self.event = event
        self.reference = reference
        self.details = details
        self.previousHash = previousHash
        self.entryHash = entryHash
    }

    init(row: Row) throws {
        self.init(tenant: try row.string("tenant"), sequence: try row.int("sequence"),
                  recordedAtMs: try row.int("recorded_at_ms"), event: try row.string("event"),
                  reference: try row.string("reference"), details: try row.string("details"),
                  previousHash: try row.string("previous_hash"), entryHash: try row.string("entry_hash"))
    }
}

/// The first place a log stops being trustworthy.
public struct EvidenceLogBreak: Sendable, Equatable, CustomStringConvertible {
    public let tenant: String
    public let sequence: Int64
    public let problem: String
    public var description: String { "tenant \(tenant), entry \(sequence): \(problem)" }
}

/// Appends to and verifies the per-tenant hash chains in the `evidence_log` table.
public enum EvidenceLog {
    public static let schemaSQL = """
        CREATE TABLE evidence_log (
            tenant TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            recorded_at_ms INTEGER NOT NULL,
            event TEXT NOT NULL,
            reference TEXT NOT NULL,
            details TEXT NOT NULL,
            previous_hash TEXT NOT NULL,
            entry_hash TEXT NOT NULL,
            PRIMARY KEY (tenant, sequence)
        );
        """

    /// Appends an entry inside the caller's transaction (which must be IMMEDIATE, so no other writer can take the
    /// same sequence number).
    @discardableResult
    public static func append(_ tx: Transaction, tenant: String, event: String, reference: String,
                              details: CanonicalJSON, now: Int64) throws -> EvidenceLogEntry {
        let last = try tx.queryOne(
            "SELECT sequence, entry_hash FROM evidence_log WHERE tenant = ? ORDER BY sequence DESC LIMIT 1",
            [.text(tenant)])
        var entry = EvidenceLogEntry(
            tenant: tenant, sequence: (try last?.int("sequence") ?? 0) + 1, recordedAtMs: now, event: event,
            reference: reference, details: String(decoding: details.canonicalBytes(), as: UTF8.self),
            previousHash: try last?.string("entry_hash") ?? EvidenceLogEntry.genesisHash, entryHash: "")
        entry.entryHash = entry.computedHash
        try tx.execute("""
            INSERT INTO evidence_log (tenant, sequence, recorded_at_ms, event, reference, details, previous_hash,
                                      entry_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(tenant), .integer(entry.sequence), .integer(now), .text(event), .text(reference),
                  .text(entry.details), .text(entry.previousHash), .text(entry.entryHash)])
        return entry
    }

    /// Checks one tenant's entries, given in stored order by sequence: the first break, or nil when intact.
    public static func firstBreak(in entries: [EvidenceLogEntry]) -> EvidenceLogBreak? {
        var expected: Int64 = 1
        var previous = EvidenceLogEntry.genesisHash
        for entry in entries {
            if entry.sequence != expected {
                return EvidenceLogBreak(tenant: entry.tenant, sequence: expected, problem: entry.sequence > expected
                    ? "entry missing (removed?): the next stored entry is \(entry.sequence)"
                    : "entry out of order or duplicated: found \(entry.sequence) where \(expected) was expected")
            }
            if entry.previousHash != previous {
                return EvidenceLogBreak(tenant: entry.tenant, sequence: entry.sequence,
                                        problem: "previous-hash link broken: entry \(entry.sequence - 1) was edited, "
                                            + "removed or reordered")
            }
            if entry.computedHash != entry.entryHash {
                return EvidenceLogBreak(tenant: entry.tenant, sequence: entry.sequence,
                                        problem: "entry edited: its content no longer matches its hash")
            }
            previous = entry.entryHash
            expected += 1
        }
        return nil
    }

    /// What `verify` found.
    public struct Report: Sendable, Equatable {
        public var tenants: [String] = []
        public var entries = 0
        public var sealedBundlesChecked = 0
        public var breaks: [EvidenceLogBreak] = []
        public var isIntact: Bool { breaks.isEmpty }
    }

    /// Verifies every tenant's chain (or just `tenant`), then checks that each sealed request's evidence still finds
    /// its log entries unchanged in the log (which also catches a removed tail). One break per tenant: the first.
    public static func verify(_ database: Database, tenant: String? = nil) throws -> Report {
        var report = Report()
        let tenants = try tenant.map { [$0] }
            ?? database.query("SELECT DISTINCT tenant FROM evidence_log ORDER BY tenant").map { try $0.string("tenant") }
        for name in tenants {
            let entries = try database.query("SELECT * FROM evidence_log WHERE tenant = ? ORDER BY sequence",
                                              [.text(name)]).map(EvidenceLogEntry.init(row:))
            report.tenants.append(name)
            report.entries += entries.count
            if let broken = firstBreak(in: entries) {
                report.breaks.append(broken)
                continue
            }
            let bySequence = Dictionary(entries.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
            let bundles = try database.query("""
                SELECT reference, evidence_json FROM signing_requests
                WHERE tenant = ? AND evidence_json IS NOT NULL ORDER BY sealed_at_ms
                """, [.text(name)])
            for row in bundles {
                report.sealedBundlesChecked += 1
                guard let bundle = try? CanonicalJSON.parse(try row.blob("evidence_json")),
                      let log = bundle["log"]?.arrayValue else { continue }
                for item in log {
                    guard let sealed = EvidenceLogEntry(json: item) else { continue }
                    if bySequence[sealed.sequence] != sealed {
                        report.breaks.append(EvidenceLogBreak(
                            tenant: name, sequence: sealed.sequence,
                            problem: "entry differs from (or is missing against) the sealed evidence of request "
                                + "\(try row.string("reference"))"))
                        break
                    }
                }
                if report.breaks.last?.tenant == name { break }
            }
        }
        return report
    }
}
