import CSECore
import CSEGateways
import Testing

@Suite("Formats the tables can name: dates, hex, months, IP text, character classes")
struct FormatTests {
    /// A one-parameter spec with a format, to drive the engine directly.
    func errors(_ kind: ParameterFormat.Kind, _ value: String) throws -> [String] {
        let spec = GatewaySpec(
            gateway: "t", operations: ["o"], sources: [],
            parameters: [ParameterSpec(name: "v", format: ParameterFormat(kind), source: "decision:test")],
            rules: [], rejectsUnknownParameters: false)
        return GW.pairs(spec.validate(try GatewayMap(json: .object(JSONObject([("v", .string(value))])))))
    }

    @Test(
        "dates are YYYY-MM-DD that exist",
        arguments: [
            ("2024-02-29", true), ("2023-02-29", false), ("2000-02-29", true), ("1900-02-29", false), ("2024-04-31", false),
            ("2024-4-01", false), ("0000-01-01", false), ("2024-13-01", false), ("2024/01/01", false),
        ])
    func dates(text: String, valid: Bool) throws {
        #expect(CalendarDateText.isValid(text) == valid, "\(text)")
        #expect(try errors(.date, text).isEmpty == valid, "\(text)")
    }

    @Test(
        "hex and month formats",
        arguments: [
            (ParameterFormat.Kind.hex, "09afAF", true), (.hex, "0g", false), (.month, "01", true), (.month, "12", true),
            (.month, "1", false), (.month, "00", false), (.month, "13", false), (.countryAlpha3, "SAU", true),
            (.countryAlpha3, "SA", false),
        ])
    func simpleFormats(kind: ParameterFormat.Kind, text: String, valid: Bool) throws {
        #expect(try errors(kind, text).isEmpty == valid, "\(kind) \(text)")
    }

    @Test(
        "IP text: IPv4 without leading zeros, IPv6 with one :: at most and an optional IPv4 tail",
        arguments: [
            ("0.0.0.0", true, false), ("255.255.255.255", true, false), ("1.2.3.4.5", false, false), ("1..3.4", false, false),
            ("::", false, true), ("1::", false, true), ("1:2:3:4:5:6:7::", false, true), ("1:2:3:4:5:6::7:8", false, false),
            (":1::2", false, false), ("1:2:3:4:5:6:1.2.3.4", false, true), ("1:2:3:4:5:6:7:1.2.3.4", false, false),
            ("::1.2.3", false, false),
            ("[::1]", false, false), ("1:", false, false),
        ])
    func ipText(text: String, v4: Bool, v6: Bool) {
        #expect(IPAddressText.isIPv4(text) == v4 && IPAddressText.isIPv6(text) == v6, "\(text)")
    }

    @Test("character classes: ASCII letters unless Unicode letters are allowed; ASCII digits only; no controls in 'any'")
    func characterClasses() {
        #expect(CharacterClass(.alpha).allowsAll("Abc") && !CharacterClass(.alpha).allowsAll("Ab1"))
        #expect(!CharacterClass(.alpha).allowsAll("عبد") && CharacterClass(.alpha, allowsUnicodeLetters: true).allowsAll("عبد"))
        #expect(CharacterClass(.numeric, specials: "+ ").allowsAll("+962 79") && !CharacterClass(.numeric).allowsAll("٣"))
        #expect(CharacterClass(.any).allowsAll("<#x#> é") && !CharacterClass(.any).allowsAll("a\u{7}b"))
        #expect(CharacterClass(.alphanumeric, specials: "_-.").description == "alphanumeric+[-._]")
    }
}
