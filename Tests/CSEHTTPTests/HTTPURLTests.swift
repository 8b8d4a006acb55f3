import CSECore
import CSEHTTP
import Testing

@Suite("HTTPURL: RFC 3986 parsing, the https/loopback rule, building")
struct HTTPURLTests {
    @Test("an https URL splits into scheme, host, port, path and query; scheme and host are lower-cased")
    func components() throws {
        let url = try HTTPURL("HTTPS://API.Example.COM:8443/client/v1/Cust%20Id?a=1&b=%2F")
        #expect(url.scheme == "https")
        #expect(url.host == "api.example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/client/v1/Cust%20Id")
        #expect(url.query == "a=1&b=%2F")
        #expect(url.absoluteString == "https://api.example.com:8443/client/v1/Cust%20Id?a=1&b=%2F")
    }

    @Test("no path, no port, no query; an empty query is kept as empty")
    func minimal() throws {
        let url = try HTTPURL("https://example.com")
        #expect(url.path == "")
        #expect(url.port == nil)
        #expect(url.query == nil)
        #expect(try HTTPURL("https://example.com/?").query == "")
        #expect(try HTTPURL("https://example.com:/x").port == nil)
    }

    @Test(
        "plain http is allowed to loopback only: 127.0.0.0/8, ::1 and localhost",
        arguments: ["http://127.0.0.1:8080/x", "http://127.255.0.9/", "http://[::1]:9/", "http://localhost/", "http://LOCALHOST:1"])
    func httpToLoopback(_ text: String) throws {
        let url = try HTTPURL(text)
        #expect(url.scheme == "http")
        #expect(url.isLoopback)
    }

    @Test(
        "plain http elsewhere is http.insecureURL, and so is any other scheme",
        arguments: [
            "http://example.com/", "http://10.0.0.1/", "http://128.0.0.1/", "http://[::2]/", "http://localhost.example.com/",
            "http://127.0.0.1.nip.io/", "http://[::ffff:7f00:1]/", "ftp://127.0.0.1/", "file:///etc/passwd", "ws://localhost/",
        ])
    func insecure(_ text: String) {
        #expect(throws: CSEError(.httpInsecureURL, "")) { try HTTPURL(text) }
    }

    @Test("the insecure-URL error names the host but not the path's query")
    func insecureErrorText() {
        do {
            _ = try HTTPURL("http://example.com/v1/x?cardNumber=4111111111111111")
            Issue.record("accepted")
        } catch {
            #expect(error.context["host"] == "example.com")
            #expect(!error.description.contains("4111111111111111"))
        }
    }

    @Test(
        "malformed URLs are http.invalidURL",
        arguments: [
            "", "example.com/x", "https//example.com", "https://", "https:///path", "https://user@example.com/",
            "https://user:pw@example.com/", "https://example.com/#frag", "https://example.com/a b", "https://example.com/\u{7F}",
            "https://exämple.com/", "https://example.com/%zz", "https://example.com/%4", "https://example.com/a/../b",
            "https://example.com/./b", "https://example.com/a/..", "https://example.com:0/", "https://example.com:65536/",
            "https://example.com:-1/", "https://example.com:8a/", "https://example.com:123456/", "https://exa_mple.com/",
            "https://-example.com/", "https://example-.com/", "https://example..com/", "https://.example.com/", "https://[::1/",
            "https://[::1]x/", "https://[fe80::1%25eth0]/", "https://[zz::1]/", "https://0177.0.0.1/", "https://127.1/",
            "https://0x7f.0.0.1/", "https://2130706433/", "https://127.000.0.1/", "https://256.0.0.1/", "https://1.2.3.4.5/",
            "https://example.com/a\"b", "https://example.com/a<b", "https://example.com/?a=<", "https://example.com/a\\b",
            "https://example.com/a{b}", "https://example.com/a|b", "https://exa%41mple.com/", "https://example.com/\r\nX: y",
        ])
    func invalid(_ text: String) {
        #expect(throws: CSEError(.httpInvalidURL, "")) { try HTTPURL(text) }
    }

    @Test("the length limit is 8192 bytes")
    func lengthLimit() throws {
        let prefix = "https://example.com/"
        let fits = prefix + String(repeating: "a", count: HTTPURL.maximumLength - prefix.utf8.count)
        #expect(try HTTPURL(fits).path.utf8.count == HTTPURL.maximumLength - "https://example.com".utf8.count)
        #expect(throws: CSEError(.httpInvalidURL, "")) { try HTTPURL(fits + "a") }
    }

    @Test("invalid-URL errors never quote the URL")
    func invalidErrorText() {
        for text in [
            "https://user:4111111111111111@example.com/", "https://example.com/4111111111111111 x",
            "https://example.com/?q=4111111111111111#f",
        ] {
            do {
                _ = try HTTPURL(text)
                Issue.record("accepted")
            } catch {
                #expect(!error.description.contains("4111111111111111"))
            }
        }
    }

    @Test("IPv6 hosts lose their brackets in host and regain them in absoluteString")
    func ipv6() throws {
        let url = try HTTPURL("https://[2001:DB8::1]:443/x")
        #expect(url.host == "2001:db8::1")
        #expect(url.absoluteString == "https://[2001:db8::1]:443/x")
        #expect(!url.isLoopback)
    }

    @Test("appending percent-encodes each segment and joins with single slashes")
    func appending() throws {
        let base = try HTTPURL("https://example.com/client/")
        #expect(try base.appending(pathSegments: ["v1", "cust/omer id", "ä"]).path == "/client/v1/cust%2Fomer%20id/%C3%A4")
        #expect(try HTTPURL("https://example.com").appending(pathSegments: ["v1"]).path == "/v1")
        #expect(try HTTPURL("https://example.com/").appending(pathSegments: ["v1"]).path == "/v1")
        #expect(try HTTPURL("https://example.com/a?x=1").appending(pathSegments: ["b"]).absoluteString == "https://example.com/a/b?x=1")
    }

    @Test("an empty, . or .. segment is refused, encoded or not it would climb or vanish (RFC 3986 §5.2.4, §6.2.2.2)")
    func appendingDots() throws {
        let base = try HTTPURL("https://example.com/v1")
        for segments in [["..", "products"], ["."], ["customer", ""], ["a", "..", "b"]] {
            #expect(throws: CSEError(.httpInvalidPathSegment, "")) { try base.appending(pathSegments: segments) }
        }
        do throws(CSEError) {
            _ = try base.appending(pathSegments: ["ok", ".."])
            Issue.record("a .. segment was accepted")
        } catch {
            #expect(error.context == ["segment": "2"])
        }
        #expect(try base.appending(pathSegments: ["a?b#c%d"]).path == "/v1/a%3Fb%23c%25d")
        #expect(try base.appending(pathSegments: ["..."]).path == "/v1/...")
        #expect(try base.appending(pathSegments: ["%2E%2E"]).path == "/v1/%252E%252E")
    }

    @Test("an appended URL parses back to itself")
    func appendedRoundTrip() throws {
        let built = try HTTPURL("https://example.com/client").appending(pathSegments: ["v1", "...", "x y", "~ok-._"])
            .settingQuery([(name: "a b", value: "c&d=e")])
        #expect(try HTTPURL(built.absoluteString) == built)
    }

    @Test("settingQuery encodes names and values (space as %20) and keeps order; no items removes the query")
    func query() throws {
        let url = try HTTPURL("https://example.com/p?old=1")
        let set = url.settingQuery([(name: "countryCode", value: "NL"), (name: "amount", value: "1 000"), (name: "x", value: "a+b&c=d/é")])
        #expect(set.query == "countryCode=NL&amount=1%20000&x=a%2Bb%26c%3Dd%2F%C3%A9")
        #expect(set.settingQuery([]).query == nil)
    }

    @Test("replacingOrigin takes scheme, host and port and keeps path and query")
    func replacingOrigin() throws {
        let url = try HTTPURL("https://api.example.com/client/v1/c/products?x=1")
        let local = try HTTPURL("http://127.0.0.1:8080")
        #expect(url.replacingOrigin(with: local).absoluteString == "http://127.0.0.1:8080/client/v1/c/products?x=1")
    }

    @Test("description hides the query")
    func description() throws {
        let url = try HTTPURL("https://example.com/iin?bin=41111111")
        #expect(url.description == "https://example.com/iin?[redacted]")
        #expect(!"\(url)".contains("41111111"))
    }

    @Test("equal URLs after normalisation are equal and hash alike")
    func equality() throws {
        #expect(try HTTPURL("HTTPS://Example.com/a") == HTTPURL("https://example.com/a"))
        #expect(try HTTPURL("https://example.com/a") != HTTPURL("https://example.com/A"))
        #expect(Set([try HTTPURL("https://EXAMPLE.com/a"), try HTTPURL("https://example.com/a")]).count == 1)
    }
}
