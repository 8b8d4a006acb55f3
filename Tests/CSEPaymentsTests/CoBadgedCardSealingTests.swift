import CSECore
import CSEPayments
import CSEValidation
import Testing

/// A co-badged card (a domestic brand whose BINs also belong to an international brand) seals a
/// brand the platform has a product id for: the payer's choice first (the EU Interchange Fee
/// Regulation lets the payer choose), else the first of the card's brands with an id.
@Suite("Co-badged cards seal a brand the platform knows: the payer's choice, else the first co-brand with a platform id")
struct CoBadgedCardSealingTests {
    /// A Luhn-valid number of `length` digits starting with the range's first IIN.
    static func pan(startingWith range: IINRange, length: Int) -> String {
        var digits = Array(range.first.utf8).map { Int($0 - 0x30) }
        while digits.count < length - 1 { digits.append(0) }
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            let doubled = offset % 2 == 0 ? digit * 2 : digit
            sum += doubled > 9 ? doubled - 9 : doubled
        }
        digits.append((10 - sum % 10) % 10)
        return String(decoding: digits.map { UInt8($0 + 0x30) }, as: UTF8.self)
    }

    /// One sample card per IIN range of every built-in brand without a platform id, with the
    /// brands the embedded table gives it.
    static let domesticSamples: [(brand: CardBrand, pan: String, brands: [CardBrand])] = CardBrand.all
        .filter { PlatformProductIDs.productID(for: $0) == nil }
        .flatMap { brand in
            brand.iinRanges.map { range in
                let pan = pan(startingWith: range, length: brand.panLengths[0])
                return (brand, pan, CardBrandTable.embedded.brands(forPartialNumber: pan))
            }
        }

    /// Whether `range` holds the 8-digit IIN `iin`.
    static func covers(_ range: IINRange, _ iin: UInt32) -> Bool {
        let scale = UInt32([1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000][8 - range.first.count])
        return UInt32(range.first)! * scale <= iin && iin < (UInt32(range.last)! + 1) * scale
    }

    static func seal(_ pan: String, choosing brand: CardBrand? = nil) throws(CSEError) -> JSONValue? {
        var request = PaymentRequest(product: BuiltinProducts.card)
        try request.setValue(pan, forField: "cardNumber")
        request.cardBrand = brand
        let sealed = try demoSealer(allowInvalid: true).seal(request, clientSessionID: "s")
        return try? JSONValue.parse(try openSealed(sealed.encryptedCustomerInput))["paymentProductId"]
    }

    static func error(_ pan: String, choosing brand: CardBrand? = nil) -> CSEError? {
        do throws(CSEError) {
            _ = try seal(pan, choosing: brand)
            return nil
        } catch {
            #expect(!error.description.contains(pan) && !error.description.contains(String(pan.prefix(6))))
            return error
        }
    }

    @Test("the domestic brands with co-brands are found in the brand tables, and mada is among them")
    func domesticBrandsWithCoBrands() {
        let found = Set(Self.domesticSamples.filter { $0.brands.count > 1 }.map(\.brand.id))
        #expect(found.contains("mada"))
        // Every brand that declares co-badges is a domestic brand whose BINs the table co-badges.
        for brand in CardBrand.all where !brand.coBadgeIDs.isEmpty { #expect(found.contains(brand.id), "\(brand.id)") }
    }

    @Test("every BIN of every domestic brand seals its first brand with a platform id, or is refused when it has none")
    func everyDomesticBIN() throws {
        var sealedCount = 0
        for sample in Self.domesticSamples {
            if let cobrand = sample.brands.first(where: { PlatformProductIDs.productID(for: $0) != nil }) {
                #expect(sample.brands.first?.id == sample.brand.id && sample.brand.coBadgeIDs.contains(cobrand.id), "\(sample.brand.id)")
                let id = try Self.seal(sample.pan)
                #expect(id == .number(PlatformProductIDs.productID(for: cobrand)!), "\(sample.brand.id) \(sample.pan.prefix(8))")
                sealedCount += 1
            } else {
                let error = Self.error(sample.pan)
                #expect(error?.code == .paymentsUnknownCardBrand, "\(sample.brand.id) \(sample.pan.prefix(8))")
                #expect(error?.context["brand"] == sample.brands.first?.id)
            }
        }
        // Independently of the table: the BINs inside a range of a brand they declare as co-badge
        // (86 of mada's 113 prefixes lie in a Visa or Mastercard range).
        let coBadged = Self.domesticSamples.filter { sample in
            let iin = UInt32(sample.pan.prefix(8))!
            return sample.brand.coBadgeIDs.contains { id in
                CardBrand.all.first { $0.id == id }!.iinRanges.contains { $0.first.count <= 8 && Self.covers($0, iin) }
            }
        }
        #expect(sealedCount == coBadged.count && sealedCount == 86)
    }

    @Test("mada BIN 440795 (co-badged Visa) seals Visa, 1; before, it was refused with brand=mada")
    func madaVisa() throws {
        let pan = Self.pan(startingWith: IINRange(first: "440795", last: "440795")!, length: 16)
        #expect(CardBrandTable.embedded.brands(forPartialNumber: pan).map(\.id) == ["mada", "visa"])
        #expect(try Self.seal(pan) == .number("1"))
        #expect(try Self.seal(pan, choosing: .visa) == .number("1"))
    }

    @Test("the payer's choice comes first; a brand that is not the card's is payments.cardBrandMismatch")
    func payersChoice() throws {
        let madaVisa = Self.pan(startingWith: IINRange(first: "440795", last: "440795")!, length: 16)
        let mismatch = Self.error(madaVisa, choosing: .mastercard)
        #expect(mismatch?.code == .paymentsCardBrandMismatch)
        #expect(mismatch?.context["brand"] == "mastercard" && mismatch?.context["cardBrands"] == "mada,visa")
        // Choosing the domestic brand itself: the card is mada, but the platform has no id for it.
        let domestic = Self.error(madaVisa, choosing: .mada)
        #expect(domestic?.code == .paymentsUnknownCardBrand && domestic?.context["cardBrands"] == "mada,visa")
        // A card that is not co-badged: only its own brand may be chosen.
        #expect(Self.error("4111111111111111", choosing: .mastercard)?.code == .paymentsCardBrandMismatch)
        #expect(try Self.seal("5555555555554444", choosing: .mastercard) == .number("3"))
        // Without a number (an account on file), the choice is the only brand there is.
        var onFile = PaymentRequest(product: BuiltinProducts.card)
        onFile.cardBrand = .americanExpress
        let sealed = try demoSealer(allowInvalid: true).seal(onFile, clientSessionID: "s")
        #expect(try JSONValue.parse(try openSealed(sealed.encryptedCustomerInput))["paymentProductId"] == .number("2"))
    }

    @Test("every co-brand a mada card has can be chosen, and seals its own id")
    func everyCoBrandCanBeChosen() throws {
        for sample in Self.domesticSamples where sample.brands.count > 1 {
            for brand in sample.brands.dropFirst() {
                guard let id = PlatformProductIDs.productID(for: brand) else { continue }
                #expect(try Self.seal(sample.pan, choosing: brand) == .number(id), "\(sample.brand.id) → \(brand.id)")
            }
        }
    }
}
