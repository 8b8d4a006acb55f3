import CSEClientAPI
import CSECore
import CSEPayments
import Foundation
import TestSupport
import Testing

/// The platform's product ids are integers on the wire: an all-digit id is compared as a number,
/// and the product returned must be the one requested.
@Suite("Product ids are compared as numbers, and a returned product must be the one requested")
struct ProductIdentityTests {
    @Test(
        "leading zeros do not get past the refusal of 117, 5700, 5772 and 5784", arguments: ["0117", "00117", "05700", "005772", "0005784"])
    func zeroPaddedUnsupportedIDs(id: String) {
        #expect(throws: CSEError(.clientAPIProductUnavailable, "")) { try ProductRules.default.checkRequestable(productID: id) }
    }

    @Test("the id requested is the canonical one: leading zeros of an all-digit id are dropped, other ids are kept")
    func canonicalIDs() throws {
        #expect(try ProductRules.default.checkRequestable(productID: "0001") == "1")
        #expect(try ProductRules.default.checkRequestable(productID: "000") == "0")
        #expect(try ProductRules.default.checkRequestable(productID: "1170") == "1170")
        #expect(try ProductRules.default.checkRequestable(productID: "0abc") == "0abc")
        #expect(try ProductRules.default.checkRequestable(productID: "0_1") == "0_1")
    }

    @Test("a listed product whose id is written with leading zeros is dropped like its number")
    func zeroPaddedListEntries() throws {
        let json =
            #"{"paymentProducts":[{"id":"0117","paymentMethod":"card"},{"id":"0302","paymentMethod":"mobile"},{"id":1,"paymentMethod":"card"}]}"#
        let filtered = ProductRules.default.filter(try BasicPaymentProducts(json: Array(json.utf8)))
        #expect(filtered.paymentProducts.map(\.id) == ["1"])
        #expect(filtered.product(id: "01")?.id == "1")
    }

    @Test(
        "against the emulator: 0117 is refused without a call, 01 fetches product 1, and a product 117 returned for 1 is refused",
        .enabled(if: EmulatorAvailability.available, EmulatorAvailability.reason))
    func emulator() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session()
        let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")

        let unavailable = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "0117", for: context) }
        #expect(unavailable?.code == .clientAPIProductUnavailable && unavailable?.context["product"] == "117")
        #expect(try server.emulator.requests().isEmpty)

        let visa = try await session.paymentProduct(id: "01", for: context)
        #expect(visa.id == "1")
        #expect(try server.emulator.requests().map(\.path) == ["/client/v1/cust-e2e-1/products/1"])

        // The platform answers a request for 1 with product 117: never used, never cached.
        session.removeCachedResponses()
        var maestro = try JSONValue.parse(try ClientAPIFixtures.bytes("wl-sdk-client-android/paymentProductVisa.json"))
        guard case .object(var object) = maestro else { throw ClientAPIFixtures.FixtureMissing(path: "paymentProductVisa.json") }
        object["id"] = .number("117")
        maestro = .object(object)
        try server.emulator.enqueue(.json(200, maestro.serialized).onPath("/client/v1/cust-e2e-1/products/1"))
        let mismatch = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "1", for: context) }
        #expect(mismatch?.code == .clientAPIProductMismatch)
        #expect(mismatch?.context["requested"] == "1" && mismatch?.context["returned"] == "117")
        #expect(try await session.paymentProduct(id: "1", for: context).id == "1")
    }
}
