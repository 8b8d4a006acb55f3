public import CSECore
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// An absolute `http(s)` URL that CSEKit may call (RFC 3986 §3, RFC 9110 §4.2): `https` to any
/// host; `http` only to loopback (127.0.0.0/8, `::1`, `localhost`). Anything else throws
/// `http.insecureURL` when the URL is parsed, so no connection is ever attempted.
///
/// The parser is strict rather than forgiving: ASCII only, no spaces or controls, no userinfo
/// (`user@`), no fragment, no literal `.`/`..` path segments, a well-formed `%XX` everywhere, a
/// host that is a DNS name, a canonical dotted-quad IPv4 address or a bracketed IPv6 address
/// (no zone), a port in 1...65535, at most `maximumLength` bytes. A host whose last label is
/// numeric must be a canonical dotted quad (`0177.0.0.1`, `127.1` and `0x7f.0.0.1` are refused:
/// resolvers read them differently, WHATWG URL §3.5). The scheme and the host are lower-cased.
///
/// ``description`` hides the query, which may carry a card prefix; ``absoluteString`` has it all.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest URL accepted, in bytes.
    package static let maximumLength = 8_192

    /// `https` or `http`.
    public let scheme: String
    /// The host, lower-cased; an IPv6 address without its brackets (for example `::1`).
    public let host: String
    /// The explicit port, or `nil` for the scheme's default.
    public let port: Int?
    /// The percent-encoded path: empty or starting with `/`.
    public let path: String
    /// The percent-encoded query without its `?`, or `nil` when the URL has none.
    public let query: String?

    /// Parses and checks `string`.
    /// - Throws: `http.invalidURL` naming the bad component (never its text), or
    ///   `http.insecureURL` for `http` to a non-loopback host or a scheme other than `http(s)`.
    public init(_ string: String) throws(CSEError) {
        let bytes = Array(string.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw Self.invalid("the URL is longer than \(Self.maximumLength) bytes")
        }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Self.invalid("the URL holds a space, a control or a non-ASCII character (percent-encode it)")
        }
        guard let separator = Self.find(Array("://".utf8), in: bytes[...]) else {
            throw Self.invalid("the URL is not absolute (no scheme://)")
        }
        let scheme = String(decoding: bytes[..<separator], as: UTF8.self).lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw CSEError(.httpInsecureURL, "only https (and http to loopback) URLs are allowed")
        }
        let rest = bytes[(separator + 3)...]
        guard !rest.contains(UInt8(ascii: "#")) else { throw Self.invalid("the URL has a fragment") }
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { throw Self.invalid("the URL has userinfo (user@host)") }
        let (host, port) = try Self.parseAuthority(authority)

        let tail = rest[authorityEnd...]
        let queryStart = tail.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = tail[..<(queryStart ?? tail.endIndex)]
        guard Self.isValidPath(pathBytes) else {
            throw Self.invalid("the path has a character that must be percent-encoded, a bad %XX, or a . or .. segment")
        }
        var query: String?
        if let queryStart {
            let queryBytes = tail[(queryStart + 1)...]
            guard Self.isValidQuery(queryBytes) else {
                throw Self.invalid("the query has a character that must be percent-encoded or a bad %XX")
            }
            query = String(decoding: queryBytes, as: UTF8.self)
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = String(decoding: pathBytes, as: UTF8.self)
        self.query = query
        guard scheme == "https" || Self.isLoopback(host) else {
            throw CSEError(.httpInsecureURL, "plain http is only allowed to loopback; use https", context: ["host": host])
        }
    }

    private init(scheme: String, host: String, port: Int?, path: String, query: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    /// `https://host` for a platform host that CSEKit names as a constant (an environment
    /// preset). The host is a lowercase DNS name written in the source, so nothing is parsed.
    package init(httpsHost host: String) {
        self.init(scheme: "https", host: host, port: nil, path: "", query: nil)
    }

    /// `scheme://host[:port]path[?query]`, IPv6 hosts in brackets.
    public var absoluteString: String {
        origin + path + (query.map { "?" + $0 } ?? "")
    }

    /// `scheme://host[:port]`.
    package var origin: String {
        scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + (port.map { ":\($0)" } ?? "")
    }

    /// The URL with its query replaced by `?[redacted]`: a query may hold a card prefix.
    public var description: String {
        origin + path + (query == nil ? "" : "?[redacted]")
    }

    /// Whether the host is a loopback address: `localhost`, 127.0.0.0/8 or `::1`.
    package var isLoopback: Bool { Self.isLoopback(host) }

    /// Appends path segments, each percent-encoded (RFC 3986 §3.3), joined with single slashes:
    /// a trailing `/` of the current path is not doubled. Every byte but the unreserved set
    /// (RFC 3986 §2.3) is encoded, `/` included, so a segment never adds a level.
    ///
    /// A segment that is empty, `.` or `..` is refused: encoding its dots (`%2E%2E`) does not
    /// help, because RFC 3986 §6.2.2.2 decodes percent-encoded unreserved characters and §5.2.4
    /// then removes the segment or climbs to the parent resource, and an empty segment (`//`) is
    /// merged away by many servers. Every path segment CSEKit builds from a value (a merchant id,
    /// a customer id, a session id, a product id) goes through here, so this is the one check.
    /// - Throws: ``CSEError/Code/httpInvalidPathSegment`` naming the segment's position (never
    ///   its text).
    package func appending(pathSegments: [String]) throws(CSEError) -> HTTPURL {
        var newPath = path
        if newPath.hasSuffix("/") { newPath.removeLast() }
        for (index, segment) in pathSegments.enumerated() {
            guard !Self.isUnsafePathSegment(segment) else {
                throw CSEError(
                    .httpInvalidPathSegment,
                    "a path segment built from a value is empty, '.' or '..' (RFC 3986 §5.2.4 would remove it or climb to the parent)",
                    context: ["segment": String(index + 1)])
            }
            newPath += "/"
            newPath += Self.percentEncode(segment)
        }
        return HTTPURL(scheme: scheme, host: host, port: port, path: newPath, query: query)
    }

    /// Whether `value` cannot be one path segment as it stands: it is empty, `.` or `..`
    /// (RFC 3986 §3.3, §5.2.4). The identifiers that become path segments (merchant ids,
    /// customer ids, session ids) refuse such values where they are read, with this test.
    package static func isUnsafePathSegment(_ value: String) -> Bool {
        value.isEmpty || value == "." || value == ".."
    }

    /// Returns a copy with the query set from ordered name/value pairs (RFC 3986 §3.4): each
    /// name and value percent-encoded (everything but the unreserved set, so a space is `%20`),
    /// pairs joined with `&`. No pairs removes the query.
    package func settingQuery(_ items: [(name: String, value: String)]) -> HTTPURL {
        let query =
            items.isEmpty ? nil : items.map { Self.percentEncode($0.name) + "=" + Self.percentEncode($0.value) }.joined(separator: "&")
        return HTTPURL(scheme: scheme, host: host, port: port, path: path, query: query)
    }

    /// The URL with its path and query removed: `scheme://host[:port]`.
    package var originURL: HTTPURL { HTTPURL(scheme: scheme, host: host, port: port, path: "", query: nil) }

    /// Replaces scheme, host and port with those of `origin` (the CLI's `--endpoint`); keeps path
    /// and query. The loopback rule holds: `origin` is itself a checked URL.
    package func replacingOrigin(with origin: HTTPURL) -> HTTPURL {
        HTTPURL(scheme: origin.scheme, host: origin.host, port: origin.port, path: path, query: query)
    }

    // MARK: Parsing

    private static func invalid(_ reason: String) -> CSEError { CSEError(.httpInvalidURL, reason) }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func parseAuthority(_ authority: ArraySlice<UInt8>) throws(CSEError) -> (String, Int?) {
        var hostBytes: ArraySlice<UInt8>
        var portBytes: ArraySlice<UInt8>?
        let host: String
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw invalid("the IPv6 host has no closing ]")
            }
            hostBytes = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { throw invalid("the IPv6 host is followed by something other than :port") }
                portBytes = after.dropFirst()
            }
            let text = String(decoding: hostBytes, as: UTF8.self).lowercased()
            guard parseIPv6(text) != nil else { throw invalid("the host is not an IPv6 address (zones are not accepted)") }
            host = text
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = authority[..<colon]
                portBytes = authority[(colon + 1)...]
            } else {
                hostBytes = authority
            }
            host = try checkedRegisteredName(hostBytes)
        }
        var port: Int?
        if let portBytes, !portBytes.isEmpty {
            guard portBytes.count <= 5, portBytes.allSatisfy({ (48...57).contains($0) }),
                let value = Int(String(decoding: portBytes, as: UTF8.self)), (1...65_535).contains(value)
            else { throw invalid("the port is not a number in 1...65535") }
            port = value
        }
        return (host, port)
    }

    /// A DNS name of letters, digits and hyphens (labels of 1...63 bytes, 253 in all), or a
    /// canonical dotted-quad IPv4 address.
    private static func checkedRegisteredName(_ bytes: ArraySlice<UInt8>) throws(CSEError) -> String {
        guard !bytes.isEmpty else { throw invalid("the URL has no host") }
        guard bytes.count <= 253 else { throw invalid("the host is longer than 253 bytes") }
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63,
                label.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") }),
                label.first != "-", label.last != "-"
            else { throw invalid("the host is not a DNS name or an IPv4 address") }
        }
        if let last = labels.last, last.allSatisfy(\.isNumber) || last.hasPrefix("0x") {
            guard parseIPv4(text) != nil else { throw invalid("the host is numeric but not a canonical dotted-quad IPv4 address") }
        }
        return text
    }

    /// The four octets of a canonical dotted quad (decimal, no leading zeros), or `nil`.
    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                part == "0" || part.first != "0", let value = UInt8(part)
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The 16 bytes of an IPv6 address (RFC 4291 §2.2 text forms, through `inet_pton`), or `nil`.
    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...58).contains($0) || (97...102).contains($0) || $0 == UInt8(ascii: ".") })
        else { return nil }
        var address = in6_addr()
        let ok = withUnsafeMutableBytes(of: &address) { buffer in inet_pton(AF_INET6, text, buffer.baseAddress) == 1 }
        guard ok else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        if let octets = parseIPv4(host) { return octets[0] == 127 }
        if host.contains(":"), let bytes = parseIPv6(host) { return bytes == [UInt8](repeating: 0, count: 15) + [1] }
        return false
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || Array("-._~".utf8).contains(byte)
    }

    /// `pchar` without the `%` (RFC 3986 §3.3): unreserved, sub-delims, `:` and `@`.
    private static func isPCharLiteral(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || Array("!$&'()*+,;=:@".utf8).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// Every byte allowed by `allowed`, or a well-formed `%XX`.
    private static func isEncoded(_ bytes: ArraySlice<UInt8>, allowing allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
            } else {
                guard allowed(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    /// `path-abempty` (RFC 3986 §3.3) without literal dot segments.
    private static func isValidPath(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard isEncoded(bytes, allowing: { isPCharLiteral($0) || $0 == UInt8(ascii: "/") }) else { return false }
        return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            $0.elementsEqual([UInt8(ascii: ".")]) || $0.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        }
    }

    /// `query` (RFC 3986 §3.4).
    private static func isValidQuery(_ bytes: ArraySlice<UInt8>) -> Bool {
        isEncoded(bytes, allowing: { isPCharLiteral($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
    }

    /// Every byte of the UTF-8 form but the unreserved set as upper-case `%XX` (RFC 3986 §2.1).
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
