// `kycctl webhook …`: per-tenant webhook endpoints, written straight into WebhookService's database
// (`<KYC_DATA_DIR>/webhooks.sqlite`), as `kycctl apikey` writes the gateway's.
import Foundation
import KYCMessages
import Messaging
import WebhookKit

private let webhookUsage = """
    kycctl webhook set --tenant ID --url URL    set the tenant's webhook endpoint; prints a new signing secret once
    kycctl webhook show --tenant ID             print the tenant's endpoint URL (never the secret)
    """

func webhook(_ arguments: ArraySlice<String>) throws {
    guard let verb = arguments.first else { throw CommandLineError(description: "webhook needs set or show\n\(webhookUsage)") }
    let options = try Options(arguments.dropFirst(), switches: [])
    guard let tenant = options.values["tenant"], !tenant.isEmpty else {
        throw CommandLineError(description: "--tenant is required")
    }
    let path = (dataDirectory() as NSString).appendingPathComponent("\(WebhookSchema.databaseName).sqlite")
    let store = try WebhookStore(path: path)
    defer { store.close() }
    switch verb {
    case "set":
        guard let url = options.values["url"] else { throw CommandLineError(description: "--url is required") }
        let reply: SetEndpointReply
        do {
            reply = try store.setEndpoint(tenant: tenant, url: url, now: Int64(Date().timeIntervalSince1970 * 1000))
        } catch let error as ServiceError {
            throw CommandLineError(description: error.message)
        }
        print(reply.secret)
        FileHandle.standardError.write(Data("""
            webhook endpoint of tenant \(tenant) set to \(reply.url)
            the signing secret above is shown only now: give it to the receiving backend; setting the URL again \
            issues a new one

            """.utf8))
    case "show":
        guard let endpoint = try store.endpoint(tenant: tenant) else {
            throw CommandLineError(description: "tenant \(tenant) has no webhook endpoint")
        }
        print(endpoint.url)
    default:
        throw CommandLineError(description: "unknown webhook command '\(verb)'\n\(webhookUsage)")
    }
}
