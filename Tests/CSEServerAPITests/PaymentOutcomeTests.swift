import CSECore
import CSEHTTP
import CSEServerAPI
import Testing

/// A CreatePayment outcome is decided from the payment's status category, never from the HTTP
/// status: a 2xx answer can carry a refused payment.
@Suite("A created payment whose status category is UNSUCCESSFUL is a refusal, whatever the HTTP status")
struct PaymentOutcomeTests {
    @Test(
        "a 201 answer with a REJECTED or CANCELLED payment throws worldline.paymentRejected naming the payment",
        arguments: [("2xx-REJECTED", "REJECTED", "UNSUCCESSFUL"), ("2xx-CANCELLED", "CANCELLED", "UNSUCCESSFUL")])
    func unsuccessfulCategory(mode: String, status: String, category: String) async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", mode]) { server in
            let error = await thrown { try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()) }
            #expect(error?.code == .worldlinePaymentRejected)
            #expect(error?.context["paymentStatus"] == status && error?.context["statusCategory"] == category)
            #expect(error?.context["status"] == "201" && error?.context["paymentId"]?.hasSuffix("_0") == true)
        }
    }

    @Test("without a status category, a refusing status (REJECTED) decides; a completed payment is returned")
    func statusWithoutCategory() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "2xx-REJECTED-uncategorised"]) {
            server in
            let error = await thrown { try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()) }
            #expect(error?.code == .worldlinePaymentRejected && error?.context["statusCategory"] == nil)
        }
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "2xx-CAPTURED"]) { server in
            let payment = try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment())
            #expect(payment.status == "CAPTURED" && payment.statusCategory == "COMPLETED" && !payment.isUnsuccessful)
        }
    }

    @Test("the category wins over the status when both are sent; an unknown category is not a refusal")
    func categoryDecides() async throws {
        let cases: [(String, Bool)] = [
            (#""status":"REJECTED","statusOutput":{"statusCategory":"UNSUCCESSFUL"}"#, true),
            (#""status":"SOMETHING_NEW","statusOutput":{"statusCategory":"UNSUCCESSFUL"}"#, true),
            (#""status":"CANCELLED","statusOutput":{"statusCategory":"PENDING_MERCHANT"}"#, false),
            (#""status":"REJECTED_CREDIT""#, true),
            (#""status":"PENDING_CAPTURE""#, false),
            (#""status":"CREATED","statusOutput":{"statusCategory":"ACCOUNT_VERIFIED"}"#, false),
        ]
        for (members, refused) in cases {
            let transport = RecordingTransport(status: 201, json: #"{"payment":{"id":"1_0",\#(members)}}"#)
            let client = WorldlineServerClient(
                credentials: try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "k", secretAPIKey: secret("s")),
                baseURL: try HTTPURL("https://payment.preprod.direct.worldline-solutions.com"), http: try client(transport))
            let error = await thrown { try await client.createPayment(try ServerEmulatorTests.payment()) }
            #expect((error?.code == .worldlinePaymentRejected) == refused, "\(members)")
            if !refused { #expect(error == nil, "\(members)") }
        }
    }
}
