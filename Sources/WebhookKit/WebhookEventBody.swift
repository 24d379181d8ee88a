import Foundation
import KYCCore

/// The JSON body POSTed for an event, built once when the event arrives and stored, so every attempt sends (and
/// signs) exactly the same bytes: `{"type":"…","timestamp":"<ISO 8601 UTC>","data":<the event's data object>}`.
public enum WebhookEventBody {
    public static func make(type: String, occurredAtUnixMs: Int64, data: [UInt8]) -> [UInt8] {
        var body = Array(#"{"type":"#.utf8)
        body += quoted(type)
        body += Array(#","timestamp":"#.utf8)
        body += quoted(UTCTimestamp.iso8601(milliseconds: occurredAtUnixMs))
        body += Array(#","data":"#.utf8)
        body += data
        body.append(UInt8(ascii: "}"))
        return body
    }


    /// A JSON string literal (event types are validated to plain ASCII, but escape anyway).
    private static func quoted(_ value: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
