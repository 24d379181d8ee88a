import Foundation
import Messaging

/// The rules for a tenant's webhook URL: absolute `http` or `https`, with a host, no credentials, no fragment, at
/// most 2,048 characters, no spaces or control characters.
public enum WebhookEndpointURL {
    public static let maxLength = 2_048

    /// The URL as given, or a `ServiceError` naming the `url` field.
    public static func validate(_ url: String) throws(ServiceError) -> String {
        func invalid(_ code: String, _ message: String) -> ServiceError {
            .invalidArgument(field: "url", code: code, message: message)
        }
        guard !url.isEmpty else { throw invalid("required", "url is required") }
        guard url.utf8.count <= maxLength else { throw invalid("too_long", "url is longer than \(maxLength) characters") }
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw invalid("invalid_url", "url must not contain spaces or control characters")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw invalid("invalid_url", "url must be an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw invalid("unsupported_scheme", "url must use http or https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw invalid("invalid_url", "url must name a host")
        }
        guard components.user == nil, components.password == nil else {
            throw invalid("invalid_url", "url must not carry credentials; authenticate with the webhook signature")
        }
        guard components.fragment == nil else { throw invalid("invalid_url", "url must not have a fragment") }
        return url
    }
}
