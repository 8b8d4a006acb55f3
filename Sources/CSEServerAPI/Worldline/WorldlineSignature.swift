package import CSECore
package import CSECrypto

/// The Worldline (Online Payments / GCS) `v1HMAC` request signature of the server API.
///
/// The string to sign is, each followed by `\n`: the method in upper case; the `Content-Type`
/// value (empty when absent); the `Date` value; every `X-GCS-*` header as `name:value`, names
/// lower-cased and sorted, values unfolded (a line break and the whitespace after it become one
/// space) and trimmed; and the path with its query. The signature is base64 of HMAC-SHA256
/// (RFC 2104, FIPS 180-4) over the UTF-8 bytes under the secret API key, sent as
/// `Authorization: GCS v1HMAC:<apiKeyId>:<signature>` (the Worldline server SDKs'
/// `V1HmacAuthenticator`).
package enum WorldlineSignature {
    /// The string to sign.
    /// - Parameters:
    ///   - method: The HTTP method, for example `POST`.
    ///   - headers: The request's header fields (only `Content-Type`, `Date` and `X-GCS-*` count).
    ///   - path: The path as it is sent, for example `/v2/1234/sessions`.
    ///   - query: The query without `?`, if any.
    /// - Returns: The text whose HMAC is the signature.
    package static func stringToSign(
        method: String, headers: some Sequence<(name: String, value: String)>,
        path: String, query: String? = nil
    ) -> String {
        var contentType: String?
        var date: String?
        var gcs: [(name: String, value: String)] = []
        for (name, value) in headers {
            let lower = name.lowercased()
            if lower == "content-type" {
                contentType = value
            } else if lower == "date" {
                date = value
            } else if lower.hasPrefix("x-gcs") {
                gcs.append((lower, canonicalValue(value)))
            }
        }
        // Stable sort by name, as the SDK's Comparator does.
        gcs = gcs.enumerated().sorted { a, b in
            a.element.name == b.element.name ? a.offset < b.offset : a.element.name.utf8.lexicographicallyPrecedes(b.element.name.utf8)
        }.map(\.element)
        var text = method.uppercased() + "\n" + (contentType ?? "") + "\n" + (date ?? "") + "\n"
        for header in gcs { text += header.name + ":" + header.value + "\n" }
        text += path
        if let query { text += "?" + query }
        text += "\n"
        return text
    }

    /// A header value as it is signed: each line break (`\n` or `\r\n`) and the non-newline
    /// whitespace after it become one space, then leading and trailing whitespace is removed.
    package static func canonicalValue(_ value: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(value.utf8)
        var i = 0
        while i < bytes.count {
            let isBreak = bytes[i] == 0x0A || (bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A)
            if isBreak {
                i += bytes[i] == 0x0D ? 2 : 1
                while i < bytes.count, [0x20, 0x09, 0x0B, 0x0C].contains(bytes[i]) { i += 1 }
                out.append(0x20)
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        var start = 0
        var end = out.count
        while start < end, out[start] <= 0x20 { start += 1 }
        while end > start, out[end - 1] <= 0x20 { end -= 1 }
        return String(decoding: out[start..<end], as: UTF8.self)
    }

    /// The signature: base64 (RFC 4648 §4, padded) of HMAC-SHA256 of `stringToSign` under `secret`.
    /// - Parameters:
    ///   - stringToSign: The text from ``stringToSign(method:headers:path:query:)``.
    ///   - secret: The secret API key's UTF-8 bytes.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` for an empty secret, or a backend error.
    package static func signature(of stringToSign: String, secret: SecureBytes) throws(CSEError) -> String {
        guard secret.count > 0 else {
            throw CSEError(.serverAPICredentials, "the secret API key is empty", context: ["member": "secretApiKey"])
        }
        let bytes = Array(stringToSign.utf8)
        let mac = try HMAC.authenticationCode(.sha256, key: secret, message: bytes.span.bytes)
        return Base64.encode(mac)
    }

    /// The `Authorization` header value `GCS v1HMAC:<apiKeyId>:<signature>`.
    package static func authorization(apiKeyID: String, signature: String) -> String {
        "GCS v1HMAC:" + apiKeyID + ":" + signature
    }
}
