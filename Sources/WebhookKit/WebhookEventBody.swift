import Foundation
import KYCCore

/// The JSON body POSTed for an event, built once when the event arrives and stored, so every attempt sends (and
/// signs) exactly the same bytes: `{"type":"…","timestamp":"<ISO 8601 UTC>","data":<the event's data object>}`.
public enum WebhookEventBody {
    public static func make(type: String, occurredAtUnixMs: Int64, data: [UInt8]) -> [UInt8] {
        var body = Array(#"{"type":"#.utf8)
        JSONString.appendQuoted(type, to: &body)
        body += Array(#","timestamp":"#.utf8)
        JSONString.appendQuoted(UTCTimestamp.iso8601(milliseconds: occurredAtUnixMs), to: &body)
        body += Array(#","data":"#.utf8)
        body += data
        body.append(UInt8(ascii: "}"))
        return body
    }
}
