import CSECore
import Foundation

/// base64url (RFC 4648 §5, unpadded as in JOSE) against Foundation's base64 plus the url-safe
/// rewrite a Swift SDK does by hand.
enum EncodingSuite {
    static let sizes: [(label: String, count: Int)] = [("300B", 300), ("64KiB", 65_536)]

    static var definitions: [Definition] {
        var all: [Definition] = []
        for (label, count) in sizes {
            let bytes = Fixtures.bytes(count, seed: UInt64(count))
            all.append(
                Definition("base64url-encode/\(label)") { _ in
                    guard Base64URL.encode(bytes) == foundationEncode(Data(bytes)) else {
                        fatalError("base64url-encode setup: CSECore and Foundation disagree")
                    }
                    return Benchmark("base64url-encode/\(label)") { iterations in
                        repeatSinking(iterations) { Base64URL.encode(bytes) }
                    }
                })
            all.append(
                Definition("foundation/base64url-encode/\(label)") { _ in
                    let data = Data(bytes)
                    return Benchmark("foundation/base64url-encode/\(label)") { iterations in
                        repeatSinking(iterations) { foundationEncode(data) }
                    }
                })
            let text = Base64URL.encode(bytes)
            all.append(
                Definition("base64url-decode/\(label)") { _ in
                    guard mustSucceed({ () throws(CSEError) in try Base64URL.decode(text) }) == bytes,
                        foundationDecode(text) == Data(bytes)
                    else { fatalError("base64url-decode setup: a decoder does not round-trip") }
                    return Benchmark("base64url-decode/\(label)") { iterations in
                        repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try Base64URL.decode(text) } }
                    }
                })
            all.append(
                Definition("foundation/base64url-decode/\(label)") { _ in
                    Benchmark("foundation/base64url-decode/\(label)") { iterations in
                        repeatSinking(iterations) { foundationDecode(text) }
                    }
                })
        }
        return all
    }

    /// `Data.base64EncodedString()` made url-safe and unpadded, the usual Swift SDK code.
    static func foundationEncode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The inverse: back to the standard alphabet, re-pad, `Data(base64Encoded:)`.
    static func foundationDecode(_ text: String) -> Data? {
        var standard =
            text
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let remainder = standard.utf8.count % 4
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }
}
