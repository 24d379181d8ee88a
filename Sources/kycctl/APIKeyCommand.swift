// `kycctl apikey …`: customer-backend API keys in the gateway's database.
import Credentials
import Foundation
import KYCCore

func dataDirectory() -> String {
    var env = EnvironmentReader()
    return env.string("KYC_DATA_DIR", default: "./data")
}

func apikey(_ arguments: ArraySlice<String>) throws {
    guard let verb = arguments.first else { throw CommandLineError(description: "apikey needs create, list or revoke") }
    let options = try Options(arguments.dropFirst(), switches: ["admin"])
    let store = try CredentialStore(dataDirectory: dataDirectory())
    switch verb {
    case "create":
        guard let tenant = options.values["tenant"] else { throw CommandLineError(description: "--tenant is required") }
        let (record, secret) = try store.createAPIKey(tenant: tenant, admin: options.switches.contains("admin"),
                                                     label: options.values["label"] ?? "")
        print(secret)
        FileHandle.standardError.write(Data("""
            created \(record.keyID) for tenant \(record.tenant) with scopes \(record.scopes.joined(separator: ","))
            the key above is shown only now: store it safely

            """.utf8))
    case "list":
        for key in try store.listAPIKeys(tenant: options.values["tenant"]) {
            let state = key.revokedAt == nil ? "active" : "revoked"
            print("\(key.keyID)\t\(key.tenant)\t\(key.scopes.joined(separator: ","))\t\(state)\t\(key.label)")
        }
    case "revoke":
        guard let keyID = options.positional.first else { throw CommandLineError(description: "revoke needs KEY_ID") }
        guard try store.revokeAPIKey(keyID: keyID) else {
            throw CommandLineError(description: "no active key \(keyID)")
        }
        print("revoked \(keyID)")
    default:
        throw CommandLineError(description: "unknown apikey command '\(verb)'")
    }
}

