import CSECore
import Foundation
import Testing
import TestSupport

/// The transport never follows a proxy from the environment. The proxy variables are set in a
/// child process's environment (`cse`, whose every call goes through `CurlTransport`), never in
/// this test process: `setenv` while other tests start processes races with their copy of the
/// environment (`Process.run()` crashed in a `memcpy` of it when this test set them in-process).
@Suite("CurlTransport ignores proxies from the environment")
struct ProxyEnvironmentTests {
    @Test("with http_proxy, HTTP_PROXY, https_proxy and ALL_PROXY pointing at a second server, the request still goes direct")
    func environmentProxyIgnored() async throws {
        try await withEmulator { (proxy) async throws in
            try await withEmulator { (target) async throws in
                let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]
                var environment = ProcessInfo.processInfo.environment
                for name in names { environment[name] = proxy.baseURL }
                let directory = try CommandRunner.temporaryDirectory()
                let credentials = directory + "/credentials.json"
                try Data(#"{"merchantId":"1234","apiKeyId":"k","secretApiKey":"s"}"#.utf8).write(to: URL(fileURLWithPath: credentials))
                CommandRunner.ownerOnly(credentials)
                // GetPayment reaches the target whatever it answers; only where it went matters.
                _ = try CommandRunner.run(
                    ["worldline", "get-payment", "pay-1", "--credentials", credentials, "--endpoint", target.baseURL, "--timeout", "60"],
                    environment: environment)
                #expect(try target.requests().count == 1)
                #expect(try proxy.requests().count == 0)
                #expect(try proxy.stats().connections == 0)
            }
        }
    }
}
