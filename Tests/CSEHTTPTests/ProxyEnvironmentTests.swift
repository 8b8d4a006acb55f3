import CSECore
@_spi(CustomTransport) import CSEHTTP
import Foundation
import Testing
import TestSupport

@Suite("CurlTransport ignores proxies from the environment", .serialized)
struct ProxyEnvironmentTests {
    @Test("with http_proxy, HTTP_PROXY, https_proxy and ALL_PROXY pointing at a second server, the request still goes direct")
    func environmentProxyIgnored() async throws {
        try await withEmulator { (proxy) async throws in
            try await withEmulator { (target) async throws in
                let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]
                for name in names { setenv(name, proxy.baseURL, 1) }
                defer { for name in names { unsetenv(name) } }
                let response = try await loopbackClient().send(HTTPRequest(method: .get, url: try HTTPURL(target.baseURL + "/echo")))
                #expect(response.status == 200)
                #expect(try target.requests().count == 1)
                #expect(try proxy.requests().count == 0)
                #expect(try proxy.stats().connections == 0)
            }
        }
    }
}
