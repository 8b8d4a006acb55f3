import CSEValidation
import Testing

@Suite("IBAN registry: the embedded table equals Vectors/iban/iban-registry.json")
struct IBANRegistryTableTests {
    @Test("same countries, in the same format")
    func countriesMatchVectors() throws {
        let embedded = IBANCountry.all
        let vectors = IBANVectors.countries.sorted { $0.code < $1.code }
        #expect(embedded.count == vectors.count)
        #expect(embedded.count == 111)
        #expect(embedded.filter(\.isInSWIFTRegistry).count == 89)
        for (country, row) in zip(embedded, vectors) {
            #expect(country.code == row.code, "\(row.code)")
            #expect(country.name == row.name, "\(row.code)")
            #expect(country.length == row.length, "\(row.code)")
            #expect(country.bbanSpec == row.bban, "\(row.code)")
            #expect(country.isSEPA == row.sepa, "\(row.code)")
            #expect(country.isInSWIFTRegistry == row.swiftRegistry, "\(row.code)")
            #expect(country.example == row.example, "\(row.code)")
            #expect(IBANCountry.named(row.code.lowercased()) == country, "\(row.code)")
        }
    }

    @Test("same territories")
    func territoriesMatchVectors() {
        let embedded = IBANTerritory.all.map { "\($0.code)>\($0.ibanPrefix)" }
        let vectors = IBANVectors.territories.map { "\($0.code)>\($0.prefix)" }
        #expect(embedded == vectors)
        #expect(embedded.count == 16)
    }
}
