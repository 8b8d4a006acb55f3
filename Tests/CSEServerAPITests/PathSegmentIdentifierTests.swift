import CSECore
import CSECrypto
import CSEGateways
import CSEHTTP
import CSEServerAPI
import Testing

/// RFC 3986 §6.2.2.2 decodes `%2E` and §5.2.4 then removes `.` and climbs on `..`: an identifier
/// that becomes a path segment may be neither, in any encoding.
@Suite("Identifiers that become URL path segments refuse '.' and '..'")
struct PathSegmentIdentifierTests {
    @Test("a Worldline merchant id of '.' or '..' is refused when the credentials are made", arguments: [".", ".."])
    func worldlineMerchantID(id: String) {
        #expect(throws: CSEError(.serverAPICredentials, "")) {
            try WorldlineServerCredentials(merchantID: id, apiKeyID: "k1", secretAPIKey: secret("s"))
        }
    }

    @Test("a Mastercard merchant id of '.' or '..' is refused when the credentials are made", arguments: [".", ".."])
    func mastercardMerchantID(id: String) {
        #expect(throws: CSEError(.serverAPICredentials, "")) {
            try MastercardCredentials(merchantID: id, apiPassword: secret("pw"))
        }
    }

    @Test("ids that merely contain dots are still identifiers", arguments: ["...", "a.b", ".a", "a.."])
    func dottedIDsStayValid(id: String) throws {
        _ = try WorldlineServerCredentials(merchantID: id, apiKeyID: "k1", secretAPIKey: secret("s"))
        _ = try MastercardCredentials(merchantID: id, apiPassword: secret("pw"))
    }

    @Test("a Mastercard session id of '.' or '..' is refused before any request", arguments: [".", ".."])
    func mastercardSessionID(id: String) async throws {
        let transport = RecordingTransport([])
        let api = try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_1", apiPassword: secret("pw")),
            environment: .mastercard(.mtf), http: try client(transport))
        await #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { try await api.retrieveSession(id: id) }
        await #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { try await api.updateSession(id: id, with: GatewayMap()) }
        #expect(transport.requests.isEmpty)
    }
}
