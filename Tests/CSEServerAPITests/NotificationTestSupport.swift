import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import Foundation
import TestSupport

/// A notification as the emulator would POST it (`GET /test/<platform>-webhook/…`, signed or
/// authenticated by the emulator with Python's hmac/hashlib/base64).
struct Delivery {
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// The value of the first header called `name`.
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    static func fetch(_ server: LoopbackEmulator, _ path: String) async throws -> Delivery {
        let url = try HTTPURL(server.baseURL + path)
        let json = try JSONValue.parse(try await realClient().send(HTTPRequest(method: .get, url: url)).body)
        let headers = (json["headers"]?.arrayValue ?? []).compactMap { pair -> (name: String, value: String)? in
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let value = items[1].stringValue else {
                return nil
            }
            return (name, value)
        }
        return Delivery(headers: headers, body: Array((json["body"]?.stringValue ?? "").utf8))
    }
}

/// The notification vectors of `Vectors/notifications/notification-signatures.json`.
struct NotificationVectors: Decodable {
    struct Key: Decodable {
        let utf8: String?
        let base64: String?
    }

    struct WebhookHMAC: Decodable {
        let id: String
        let platform: String
        let key: Key
        let body: String
        let signature: String
        let valid: Bool
        let source: String
    }

    struct APSSignatureVector: Decodable {
        let id: String
        let phrase: String
        let parameters: [String: String]
        let signature: String
        let source: String
    }

    let webhookHMACs: [WebhookHMAC]
    let apsSignatures: [APSSignatureVector]

    static func load() throws -> NotificationVectors {
        try VectorFiles.project(NotificationVectors.self, "notifications/notification-signatures.json")
    }
}
