import CSECore
@testable import CSEServerAPI
import Testing

/// Issue #24, point 10: a Mastercard session printed on stdout shows no card number and no
/// security code, whatever the gateway names or nests them.
@Suite("Mastercard session output: card numbers masked by path and by value, security codes removed")
struct MastercardMaskingTests {
    static func masked(_ json: String) throws -> String {
        guard case .object(let object) = try JSONValue.parse(json) else { throw CSEError(.jsonSyntax, "not an object") }
        return String(decoding: try MastercardSession(response: object).maskedJSON, as: UTF8.self)
    }

    @Test(
        "a card number under any capitalisation, a dotted name or as deviceSpecificNumber is masked",
        arguments: [
            #"{"session":{"id":"S1"},"sourceOfFunds":{"provided":{"card":{"number":"5123450000000008"}}}}"#,
            #"{"session":{"id":"S1"},"sourceOfFunds.provided.card.number":"5123450000000008"}"#,
            #"{"session":{"id":"S1"},"sourceOfFunds":{"provided.card.number":"5123450000000008"}}"#,
            #"{"session":{"id":"S1"},"SourceOfFunds":{"Provided":{"CARD":{"NUMBER":"5123450000000008"}}}}"#,
            #"{"session":{"id":"S1"},"sourceOfFunds":{"provided":{"card":{"deviceSpecificNumber":"5123450000000008"}}}}"#,
            #"{"session":{"id":"S1"},"devicePayment":{"DeviceSpecificNumber":5123450000000008}}"#,
            // By value: a card number under a name the rules do not know, with any separators.
            #"{"session":{"id":"S1"},"order":{"reference":"5123 4500 0000 0008"}}"#,
            #"{"session":{"id":"S1"},"x":["5123.4500.0000.0008"]}"#,
            #"{"session":{"id":"S1"},"x":{"y":"5123_4500_0000_0008"}}"#,
        ])
    func cardNumbers(json: String) throws {
        let text = try Self.masked(json)
        #expect(!text.contains("5123450000000008") && !text.contains("4500") && !text.contains("0000"), "\(text)")
        #expect(text.contains("512345******0008"), "\(text)")
    }

    @Test(
        "security codes are removed under any capitalisation or dotted name",
        arguments: [
            #"{"session":{"id":"S1"},"sourceOfFunds":{"provided":{"card":{"securityCode":"123"}}}}"#,
            #"{"session":{"id":"S1"},"sourceOfFunds.provided.card.securityCode":"123"}"#,
            #"{"session":{"id":"S1"},"sourceOfFunds":{"provided":{"card":{"SECURITYCODE":"123"}}}}"#,
        ])
    func securityCodes(json: String) throws {
        let text = try Self.masked(json)
        #expect(!text.lowercased().contains("securitycode") && !text.contains("123"), "\(text)")
    }

    @Test("numbers that are not card numbers (Luhn fails, too short, words between) are kept")
    func otherNumbers() throws {
        let json =
            #"{"session":{"id":"SESSION0001234567890"},"order":{"amount":"12.34","id":"5123450000000009","ref":"1234 5678 9012"},"note":"card 5123 and 4500"}"#
        #expect(try Self.masked(json) == json)
    }
}
