import CSECore
import Foundation

/// A ratio target from `Benchmarks/thresholds.json`.
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
    let target: Double
    /// The ratio measured when the threshold was last reviewed, to detect improvements (exit 4).
    let baseline: Double?

    func ratio(benchmark: Measurement, reference: Measurement) -> Double {
        switch kind {
        case .speedup: return reference.p50 / benchmark.p50
        case .fractionOf: return benchmark.p50 / reference.p50
        }
    }

    func meets(_ ratio: Double) -> Bool { kind == .speedup ? ratio >= target : ratio <= target }

    /// A gross regression: beyond the gate factor from the target (noise never trips it).
    func regressed(_ ratio: Double, gateFactor: Double) -> Bool {
        kind == .speedup ? ratio < target * gateFactor : ratio > target / gateFactor
    }

    func improved(_ ratio: Double, margin: Double) -> Bool {
        guard let baseline else { return false }
        return kind == .speedup ? ratio > baseline * margin : ratio < baseline / margin
    }
}

struct Thresholds {
    let gateFactor: Double
    let improvementMargin: Double
    let targets: [RatioTarget]

    static func load(path: String) throws -> Thresholds {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try JSONValue.parse(Array(data))
        func number(_ v: JSONValue?) -> Double? { if case .number(let t)? = v { return Double(t) } else { return nil } }
        var targets: [RatioTarget] = []
        for entry in json["targets"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let reference = entry["reference"]?.stringValue,
                let kind = entry["kind"]?.stringValue.flatMap(RatioTarget.Kind.init(rawValue:)), let target = number(entry["target"])
            else { throw CSEError(.init("bench.thresholds"), "malformed target entry in \(path)") }
            targets.append(RatioTarget(name: name, reference: reference, kind: kind, target: target, baseline: number(entry["baseline"])))
        }
        return Thresholds(
            gateFactor: number(json["gateFactor"]) ?? 0.8, improvementMargin: number(json["improvementMargin"]) ?? 1.25, targets: targets)
    }
}

enum Report {
    static func format(_ ns: Double) -> String {
        if ns >= 1_000_000 { return String(format: "%.2f ms", ns / 1_000_000) }
        if ns >= 1_000 { return String(format: "%.2f µs", ns / 1_000) }
        return String(format: "%.1f ns", ns)
    }

    static func table(_ results: [Measurement], ratios: [String: (Double, RatioTarget)]) -> String {
        let headers = ["benchmark", "p0", "p25", "p50", "p75", "p90", "p99", "p100", "ops/s", "samples", "ratio (target, reference)"]
        var rows: [[String]] = []
        for m in results {
            var row = [m.name]
            for p in [0.0, 25, 50, 75, 90, 99, 100] { row.append(format(m.percentile(p))) }
            row.append(String(format: "%.0f", m.opsPerSecond))
            row.append(String(m.samples.count))
            if let (ratio, target) = ratios[m.name] {
                let op = target.kind == .speedup ? "≥" : "≤"
                let verdict = target.meets(ratio) ? "met" : "MISSED"
                row.append(String(format: "%.3f (%@ %.2f, %@) %@", ratio, op, target.target, target.reference, verdict))
            } else {
                row.append("")
            }
            rows.append(row)
        }
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == 0 ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ")
        }
        var out = line(headers) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }

    static func json(_ results: [Measurement], ratios: [String: (Double, RatioTarget)], machine: String) -> [UInt8] {
        var benchmarks: [JSONValue] = []
        func num(_ d: Double) -> JSONValue { .number(String(format: "%.3f", d)) }
        for m in results {
            var o = JSONObject()
            o["name"] = .string(m.name)
            for p in [0, 25, 50, 75, 90, 99, 100] { o["p\(p)_ns"] = num(m.percentile(Double(p))) }
            o["ops_per_s"] = num(m.opsPerSecond)
            o["samples"] = .number(String(m.samples.count))
            o["iterations_per_sample"] = .number(String(m.iterationsPerSample))
            if let (ratio, target) = ratios[m.name] {
                o["ratio"] = num(ratio)
                o["reference"] = .string(target.reference)
                o["ratio_kind"] = .string(target.kind.rawValue)
                o["target"] = num(target.target)
                o["target_met"] = .bool(target.meets(ratio))
            }
            benchmarks.append(.object(o))
        }
        var root = JSONObject()
        root["machine"] = .string(machine)
        root["benchmarks"] = .array(benchmarks)
        var bytes = JSONValue.object(root).serializedBytes
        bytes.append(0x0A)
        return bytes
    }
}
