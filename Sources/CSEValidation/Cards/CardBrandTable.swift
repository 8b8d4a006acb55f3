import CSECore

/// Brand detection over a set of ``CardBrand``s, precomputed when the table is created.
///
/// For every precision of 1 to 8 leading digits the table holds the 8-digit IIN space cut into
/// sorted, disjoint segments, each labelled with its answer, so a detection is one binary search
/// over a few hundred integers and no string work.
///
/// **Semantics.** With `n` leading digits known (at most 8 are used), a brand range matches when
/// it covers *every* card number that starts with those digits; a range that is finer than the
/// input is not yet decided. Among matching ranges the narrowest one (fewest 8-digit IINs; ties:
/// earlier brand, then earlier range) wins: most specific range first. The answer is that brand,
/// then brands whose matching range has the same bounds, then brands listed in the winner's
/// ``CardBrand/coBadgeIDs`` that also match (for example mada, then Visa), each once.
public struct CardBrandTable: Sendable {
    /// The brands, in priority order for ties.
    public let brands: [CardBrand]
    /// Segment starts of every precision 1…8, concatenated; `levelBounds[p]..<levelBounds[p + 1]`
    /// is precision `p`'s part (index 0 unused).
    private let starts: [UInt32]
    /// The answer index of each segment, parallel to ``starts``.
    private let segmentAnswers: [UInt16]
    private let levelBounds: [Int]
    private let answers: [[CardBrand]]

    private struct Level {
        var starts: [UInt32] = []
        var answers: [UInt16] = []
    }

    /// The table of the embedded brands (``CardBrand/all``).
    public static let embedded = CardBrandTable(brands: CardBrand.all)

    /// Creates a table and precomputes its lookup structure.
    /// - Parameter brands: The brands, earlier ones winning ties between equally narrow ranges.
    public init(brands: [CardBrand]) {
        self.brands = brands
        struct Candidate { var low: UInt32; var high: UInt32; var width: UInt32; var brand: Int; var order: Int }
        var answers: [[CardBrand]] = [[]]
        var answerIndex: [[Int]: UInt16] = [[]: 0]
        var levels = [Level](repeating: Level(), count: 9)
        for digits in 1...8 {
            var block: UInt32 = 1
            for _ in digits..<8 { block *= 10 }
            // Shrink every range to the blocks of this precision that it covers entirely.
            var candidates = [Candidate]()
            var order = 0
            for (b, brand) in brands.enumerated() {
                for range in brand.iinRanges {
                    order += 1
                    let firstBlock = (range.lowerBound + block - 1) / block
                    let endBlock = (range.upperBound + 1) / block
                    guard firstBlock < endBlock else { continue }
                    candidates.append(
                        Candidate(
                            low: firstBlock * block, high: endBlock * block - 1,
                            width: range.width, brand: b, order: order))
                }
            }
            var cuts = [UInt32]()
            cuts.reserveCapacity(2 * candidates.count + 1)
            cuts.append(0)
            for c in candidates {
                cuts.append(c.low)
                if c.high < 99_999_999 { cuts.append(c.high + 1) }
            }
            cuts.sort()
            // Sweep the cuts upwards with the ranges covering the current one: a range joins when the
            // sweep reaches its low end and leaves once past its high end. (A filter of every range
            // per cut, sorted, made this table a sixth of the instructions of a one-shot `cse seal`.)
            let byLow = candidates.sorted { ($0.low, $0.order) < ($1.low, $1.order) }
            var nextCandidate = 0
            var active = [Candidate]()
            var extra = [Candidate]()
            var ids = [Int]()
            var level = Level()
            var previousCut: UInt32?
            for start in cuts {
                if start == previousCut { continue }
                previousCut = start
                while nextCandidate < byLow.count && byLow[nextCandidate].low <= start {
                    active.append(byLow[nextCandidate])
                    nextCandidate += 1
                }
                active.removeAll { $0.high < start }
                ids.removeAll(keepingCapacity: true)
                // The narrowest covering range (ties: earlier order) answers; then, in the same
                // order, ranges with its bounds and its co-badges.
                if let winner = active.min(by: { ($0.width, $0.order) < ($1.width, $1.order) }) {
                    ids.append(winner.brand)
                    let original = brands[winner.brand]
                    extra.removeAll(keepingCapacity: true)
                    for c in active where c.order != winner.order {
                        let sameBounds = c.width == winner.width && c.low == winner.low
                        if sameBounds || original.coBadgeIDs.contains(brands[c.brand].id) { extra.append(c) }
                    }
                    if extra.count > 1 { extra.sort { ($0.width, $0.order) < ($1.width, $1.order) } }
                    for c in extra where !ids.contains(c.brand) { ids.append(c.brand) }
                }
                let answer: UInt16
                if let known = answerIndex[ids] {
                    answer = known
                } else {
                    answer = UInt16(answers.count)
                    answerIndex[ids] = answer
                    answers.append(ids.map { brands[$0] })
                }
                if level.answers.last == answer { continue }
                level.starts.append(start)
                level.answers.append(answer)
            }
            levels[digits] = level
        }
        var flatStarts = [UInt32](), flatAnswers = [UInt16](), bounds = [0, 0]
        for level in levels.dropFirst() {
            flatStarts += level.starts
            flatAnswers += level.answers
            bounds.append(flatStarts.count)
        }
        self.starts = flatStarts
        self.segmentAnswers = flatAnswers
        self.levelBounds = bounds
        self.answers = answers
    }

    /// The brands of a (partial) card number, most specific first, co-badges after.
    ///
    /// ASCII spaces are ignored. Any other character that is not an ASCII digit (including
    /// Arabic-Indic digits such as `٤`) means the value is not a card number: the result is empty.
    /// - Parameter number: The card number as typed so far.
    /// - Returns: The matching brands; empty when undecided, unknown or unreadable.
    public func brands(forPartialNumber number: String) -> [CardBrand] {
        guard let digits = CardDigits(number, withLuhn: false), digits.count > 0 else { return [] }
        let precision = min(digits.count, 8)
        return answers[answer(key: digits.key(using: precision), precision: precision)]
    }

    /// The most specific brand of a (partial) card number, or `nil`.
    /// - Parameter number: The card number as typed so far.
    public func brand(forPartialNumber number: String) -> CardBrand? {
        brands(forPartialNumber: number).first
    }

    /// The brand with this id, or `nil`.
    /// - Parameter id: A brand id.
    public func brand(withID id: String) -> CardBrand? {
        brands.first { $0.id.isByteEqual(to: id) }
    }

    /// Looks up a partial card number as reference §4 describes, with brand ids as product ids.
    ///
    /// Fewer than 6 digits gives ``IINStatus/notEnoughDigits``; otherwise the first 8 digits are
    /// used when there are at least 8, else the first 6. Spaces are ignored; any other non-digit
    /// gives ``IINStatus/unknown``. The most specific brand is the product; further brands (same
    /// range or co-badges) are the co-brands. Country, card type and issuer are unknown here.
    /// - Parameters:
    ///   - number: The card number as typed so far.
    ///   - allowedProductIDs: The brand ids allowed in the caller's context.
    /// - Returns: The IIN details.
    public func iinDetails(forPartialNumber number: String, allowedProductIDs: Set<String>) -> IINDetails {
        guard let digits = CardDigits(number, withLuhn: false) else { return .unknown }
        guard digits.count >= 6 else { return .notEnoughDigits }
        let precision = digits.count >= 8 ? 8 : 6
        let found = answers[answer(key: digits.key(using: precision), precision: precision)]
        guard let primary = found.first else { return .unknown }
        let coBrands = found.dropFirst().map {
            IINCoBrand(productID: $0.id, isAllowedInContext: allowedProductIDs.contains($0.id), cardType: nil)
        }
        return IINDetails(
            productID: primary.id, isAllowedInContext: allowedProductIDs.contains(primary.id),
            countryCode: nil, cardType: nil, issuer: nil, coBrands: coBrands)
    }

    private func answer(key: UInt32, precision: Int) -> Int {
        starts.withUnsafeBufferPointer { starts in
            // The last segment of this precision starting at or before `key`; its first starts at 0.
            var low = levelBounds[precision], high = levelBounds[precision + 1]
            while high - low > 1 {
                let mid = (low + high) >> 1
                if starts[mid] <= key { low = mid } else { high = mid }
            }
            return Int(segmentAnswers[low])
        }
    }
}
