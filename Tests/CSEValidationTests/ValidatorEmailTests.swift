import CSEValidation
import Testing

@Suite("emailAddress (reference regex language, hand-written matcher)")
struct ValidatorEmailTests {
    let validator = EmailAddressValidator()

    // WL OnlinePaymentsKitTests/Models/Validator/ValidatorEmailAddressTestCase.swift @ ff86eee8:
    // testValidateCorrect1, 3, 4, 6…13 (eleven addresses; the research note said ten).
    @Test(
        "WL valid addresses",
        arguments: [
            ("Correct1", "test@example.com"),
            ("Correct3", "\"Fred Bloggs\"@example.com"),
            ("Correct4", "\"Joe\\Blow\"@example.com"),
            ("Correct6", "customer/department=shipping@example.com"),
            ("Correct7", "$A12345@example.com"),
            ("Correct8", "!def!xyz%abc@example.com"),
            ("Correct9", "_somename@example.com"),
            ("Correct10", "\"b(c)d,e:f;g<h>i[j\\k]l@example.com"),
            ("Correct11", "just\"not\"right@example.com"),
            ("Correct12", "this is\"not\"allowed@example.com"),
            ("Correct13", "this\\ still\"not\\allowed@example.com"),
        ])
    func worldlineValid(id: String, address: String) {
        #expect(validator.validate(address, in: context()).isValid, "case \(id)")
    }

    @Test(
        "WL invalid addresses",
        arguments: [
            ("Incorrect1", "Abc.example.com"),
            ("Incorrect2", "A@b@c@example.com"),
            ("Incorrect3", "\"Abc@def\"@example.com"),
        ])
    func worldlineInvalid(id: String, address: String) {
        #expect(validator.validate(address, in: context()) == .invalid(.emailAddress), "case \(id)")
    }

    @Test(
        "the structure of the reference regex",
        arguments: [
            ("minimal", "a@b.cc", true),
            ("subdomains", "a.b.c@x.y.example.com", true),
            ("one-letter top label", "a@b.c", false),
            ("no dot in domain", "a@localhost", false),
            ("empty local part", "@b.cc", false),
            ("leading dot", ".a@b.cc", false),
            ("trailing dot in local part", "a.@b.cc", false),
            ("double dot in local part", "a..b@c.dd", false),
            ("dot after @", "a@.b.cc", false),
            ("double dot in domain", "a@b..cc", false),
            ("trailing dot", "a@b.cc.", false),
            ("no @", "abc", false),
            ("only @", "@", false),
            ("empty", "", false),
            ("spaces are ordinary characters", "a b@c d.e f", true),
            ("non-ASCII letters", "jörg@müller.de", true),
            ("two-scalar emoji as the top label", "a@b.👍🏽", true),
            ("one-scalar emoji as the top label", "a@b.😀", false),
            ("newline inside", "a\n@b.cc", true),
        ])
    func structure(id: String, address: String, valid: Bool) {
        #expect(EmailAddressValidator.matches(address) == valid, "case \(id)")
    }

    @Test("10 kB values are checked in one linear pass")
    func long() {
        #expect(validator.validate(Long.letters + "@example.com", in: context()).isValid)
        #expect(!validator.validate(String(repeating: "@", count: 10_000), in: context()).isValid)
        #expect(!validator.validate(String(repeating: "a.", count: 5_000) + "@b.cc", in: context()).isValid)
        #expect(validator.validate("a@" + String(repeating: "b.", count: 5_000) + "cc", in: context()).isValid)
        #expect(!validator.validate(Long.emoji, in: context()).isValid)
    }
}
