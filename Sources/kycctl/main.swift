// kycctl: the operator's command line. `up` runs the whole stack locally; `apikey` manages customer-backend keys.
import Credentials
import Foundation
import KYCCore
import StackSupervisor

let usage = """
    kycctl: operate a KYC Suite installation

    Usage:
      kycctl up                                   start the gateway and every service; Ctrl-C stops them
      kycctl apikey create --tenant ID [--admin] [--label TEXT]
                                                  create an API key and print it once (only a hash is stored)
      kycctl apikey list [--tenant ID]            list keys (never their secrets)
      kycctl apikey revoke KEY_ID                 revoke a key at once
      kycctl webhook set --tenant ID --url URL    set the tenant's webhook endpoint; prints its secret once
      kycctl verify-evidence BUNDLE.json [--document ID=FILE …] [--platform-key BASE64]
                                                  check a signing evidence bundle offline (exit 0 ok, 1 failed)
      kycctl verify-log [--tenant ID]             check the hash-chained signing evidence log (exit 0 intact)
      kycctl analyze [--mode document|selfie] [--sequence] [--rotation 0|90|180|270] [--thresholds FILE.json]
                     [--raw FORMAT:WIDTHxHEIGHT[:STRIDE] [--video-range]] [--timing] [--trace] FILE…
                                                  run the frame-analysis engine offline; one JSON object per frame
                                                  (--rotation: the clockwise turn the frames need, after their EXIF;
                                                  --raw: the files are gray8/nv12/nv21 camera frames of that layout;
                                                  --timing: each object gets the analysis's elapsedMicroseconds;
                                                  --trace: and the document search's steps, searchTrace)
      kycctl diagnose --labels DIR/labels.json [--misses] [FILE…]
                                                  where the document finder loses a labelled set's cards: per frame,
                                                  the candidate lines nearest each true side, the true outline's
                                                  score and print (a cut-off card's closed by the frame's borders,
                                                  with each side in view read) (--misses: only frames answered wrongly)

    Environment:
      KYC_DATA_DIR      directory of each service's SQLite database (default ./data)
      KYC_HTTP_HOST, KYC_HTTP_PORT, KYC_BROKER_ENDPOINT, LOG_LEVEL and the other keys each service's --help lists
                        are passed through to the processes `up` starts.
      KYC_APPOINTMENT_INSTANCES   AppointmentService processes `up` starts (default 1)
      KYC_CAPTURE_INSTANCES       CaptureService processes `up` starts (default 1)

    """

struct CommandLineError: Error, CustomStringConvertible {
    let description: String
}

/// Parses `--flag value` and `--switch` options after the command words.
struct Options {
    var values: [String: String] = [:]
    var switches: Set<String> = []
    var positional: [String] = []

    init(_ arguments: ArraySlice<String>, switches known: Set<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if known.contains(name) {
                    switches.insert(name)
                } else {
                    guard let value = iterator.next() else { throw CommandLineError(description: "\(argument) needs a value") }
                    values[name] = value
                }
            } else {
                positional.append(argument)
            }
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "up": try up()
    case "apikey": try apikey(arguments.dropFirst())
    case "webhook": try webhook(arguments.dropFirst())
    case "verify-evidence": try verifyEvidence(arguments.dropFirst())
    case "verify-log": try verifyLog(arguments.dropFirst())
    case "analyze": try analyze(arguments.dropFirst())
    case "diagnose": try diagnose(arguments.dropFirst())
    case nil, "help", "--help", "-h": print(usage, terminator: "")
    default: throw CommandLineError(description: "unknown command '\(arguments.first!)'")
    }
} catch let error as CommandLineError {
    FileHandle.standardError.write(Data("kycctl: \(error.description)\n\n\(usage)".utf8))
    exit(2)
} catch let error as CredentialError {
    FileHandle.standardError.write(Data("kycctl: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("kycctl: \(error)\n".utf8))
    exit(1)
}
