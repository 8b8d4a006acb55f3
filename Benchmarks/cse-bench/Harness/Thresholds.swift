import CSECore
import Foundation

/// A ratio target from `Benchmarks/thresholds.json`: the benchmark is compared with a reference
/// measured in the same run.
struct RatioTarget {
    enum Kind: String {
        /// Throughput relative to the reference: ratio = reference p50 / benchmark p50, higher is better.
        case speedup
        /// Cost as a fraction of the reference: ratio = benchmark p50 / reference p50, lower is better.
        case fractionOf
    }

    let name: String
    let reference: String
    let kind: Kind
    /// The target the issue sets (met or not is reported, never gated).
    let target: Double
    /// The CI gate: a ratio this far beyond the target is a gross regression (exit 2).
    /// Speedup: regression when ratio < target × gate. Fraction: when ratio > target / gate.
    let gate: Double
    /// The ratio measured when the threshold was last reviewed; a run better than it by the
    /// improvement margin reports an improvement (exit 4).
    let baseline: Double?

    func ratio(benchmark: Measurement, reference: Measurement) -> Double {
        switch kind {
        case .speedup: return reference.p50 / benchmark.p50
        case .fractionOf: return benchmark.p50 / reference.p50
        }
    }

    func meets(_ ratio: Double) -> Bool { kind == .speedup ? ratio >= target : ratio <= target }

    /// The ratio at which the gate trips.
    var gateRatio: Double { kind == .speedup ? target * gate : target / gate }

    func regressed(_ ratio: Double) -> Bool { kind == .speedup ? ratio < gateRatio : ratio > gateRatio }

    func improved(_ ratio: Double, margin: Double) -> Bool {
        guard let baseline else { return false }
        return kind == .speedup ? ratio > baseline * margin : ratio < baseline / margin
    }

    /// `≥ 1.10× raw-oaep/rsa2048` or `≤ 0.03 of raw-oaep/rsa2048`.
    var summary: String {
        kind == .speedup
            ? String(format: "≥ %.2f× %@", target, reference)
            : String(format: "≤ %.3g of %@", target, reference)
    }
}

/// An absolute guidance figure (the issue's figures "on this class of machine"): reported next to
/// the benchmark, never gated, because absolute times drift with the machine and its load.
struct Guidance {
    let name: String
    let p50Nanoseconds: Double
}

/// The parsed `Benchmarks/thresholds.json`.
struct Thresholds {
    /// Default gate factor for targets that do not set their own.
    let gateFactor: Double
    /// How much better than its baseline a ratio must be to count as an improvement.
    let improvementMargin: Double
    let targets: [RatioTarget]
    let guidance: [Guidance]

    static let empty = Thresholds(gateFactor: 0.8, improvementMargin: 1.15, targets: [], guidance: [])

    static func load(path: String) throws -> Thresholds {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try JSONValue.parse(Array(data))
        func number(_ value: JSONValue?) -> Double? {
            if case .number(let text)? = value { return Double(text) } else { return nil }
        }
        let gateFactor = number(json["gateFactor"]) ?? 0.8
        var targets: [RatioTarget] = []
        for entry in json["targets"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let reference = entry["reference"]?.stringValue,
                let kind = entry["kind"]?.stringValue.flatMap(RatioTarget.Kind.init(rawValue:)),
                let target = number(entry["target"])
            else { throw CSEError(.init("bench.thresholds"), "malformed target entry in \(path)") }
            targets.append(
                RatioTarget(
                    name: name, reference: reference, kind: kind, target: target,
                    gate: number(entry["gate"]) ?? gateFactor, baseline: number(entry["baseline"])))
        }
        var guidance: [Guidance] = []
        for entry in json["guidance"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let ns = number(entry["p50_ns"]) else {
                throw CSEError(.init("bench.thresholds"), "malformed guidance entry in \(path)")
            }
            guidance.append(Guidance(name: name, p50Nanoseconds: ns))
        }
        return Thresholds(
            gateFactor: gateFactor, improvementMargin: number(json["improvementMargin"]) ?? 1.15,
            targets: targets, guidance: guidance)
    }
}

/// One evaluated target.
struct RatioResult {
    let target: RatioTarget
    let ratio: Double
    var met: Bool { target.meets(ratio) }
    var regressed: Bool { target.regressed(ratio) }
}

/// What `--check` decides.
struct CheckOutcome {
    let results: [RatioResult]
    let improvements: [RatioResult]
    let regressions: [RatioResult]

    /// package-benchmark's codes: 0 nothing notable, 2 a regression, 4 improvements only.
    var exitCode: Int32 { !regressions.isEmpty ? 2 : (!improvements.isEmpty ? 4 : 0) }

    init(thresholds: Thresholds, measurements: [Measurement]) {
        let byName = Dictionary(measurements.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [RatioResult] = []
        for target in thresholds.targets {
            guard let benchmark = byName[target.name], let reference = byName[target.reference],
                !benchmark.samples.isEmpty, !reference.samples.isEmpty
            else { continue }
            results.append(RatioResult(target: target, ratio: target.ratio(benchmark: benchmark, reference: reference)))
        }
        self.results = results
        regressions = results.filter(\.regressed)
        improvements = results.filter { $0.target.improved($0.ratio, margin: thresholds.improvementMargin) }
    }
}
