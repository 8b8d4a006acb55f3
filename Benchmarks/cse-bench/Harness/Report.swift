import CSECore
import Foundation

enum Report {
    static func format(_ ns: Double) -> String {
        if ns >= 1_000_000_000 { return String(format: "%.2f s", ns / 1_000_000_000) }
        if ns >= 1_000_000 { return String(format: "%.2f ms", ns / 1_000_000) }
        if ns >= 1_000 { return String(format: "%.2f µs", ns / 1_000) }
        return String(format: "%.1f ns", ns)
    }

    /// The human table: percentiles, ops/s, samples, and every target or guidance figure.
    static func table(_ results: [Measurement], outcome: CheckOutcome, guidance: [Guidance]) -> String {
        let headers = ["benchmark", "p0", "p25", "p50", "p75", "p90", "p99", "p100", "ops/s", "samples", "target / guidance"]
        var rows: [[String]] = []
        for m in results {
            var row = [m.name]
            for p in [0.0, 25, 50, 75, 90, 99, 100] { row.append(format(m.percentile(p))) }
            row.append(m.opsPerSecond >= 100 ? String(format: "%.0f", m.opsPerSecond) : String(format: "%.2f", m.opsPerSecond))
            row.append(String(m.samples.count))
            var notes: [String] = []
            for result in outcome.results where result.target.name == m.name {
                let measured = result.target.kind == .speedup ? String(format: "%.3f×", result.ratio) : String(format: "%.4f", result.ratio)
                let verdict = result.regressed ? "REGRESSION" : (result.met ? "met" : "missed")
                notes.append("\(measured) (\(result.target.summary)) \(verdict)")
            }
            for g in guidance where g.name == m.name {
                notes.append("guidance ≤ \(format(g.p50Nanoseconds)) \(m.p50 <= g.p50Nanoseconds ? "met" : "over")")
            }
            for (key, value) in m.extras {
                notes.append(String(format: "%@ %.1f", key, value))
            }
            row.append(notes.joined(separator: "; "))
            rows.append(row)
        }
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                i == 0 || i == cells.count - 1
                    ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - c.count) + c
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var out = line(headers) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }

    /// The JSON report: `{"machine":…,"configuration":…,"benchmarks":[…],"check":…}`. Each benchmark
    /// has `name`, `p0_ns`…`p100_ns`, `p50_ns`, `ops_per_s`, `samples`; benchmarks with ratio
    /// targets also have `ratio` and `reference` (the first target) and `ratios` (all of them).
    static func json(
        _ results: [Measurement], outcome: CheckOutcome, guidance: [Guidance], machine: String, configuration: String
    ) -> [UInt8] {
        var benchmarks: [JSONValue] = []
        func num(_ d: Double) -> JSONValue { .number(d.isFinite ? String(format: "%.3f", d) : "0") }
        for m in results {
            var o = JSONObject()
            o["name"] = .string(m.name)
            for p in [0, 25, 50, 75, 90, 99, 100] { o["p\(p)_ns"] = num(m.percentile(Double(p))) }
            o["ops_per_s"] = num(m.opsPerSecond)
            o["samples"] = .number(String(m.samples.count))
            o["iterations_per_sample"] = .number(String(m.iterationsPerSample))
            let mine = outcome.results.filter { $0.target.name == m.name }
            if let first = mine.first {
                o["ratio"] = num(first.ratio)
                o["reference"] = .string(first.target.reference)
                o["ratios"] = .array(
                    mine.map { result in
                        var r = JSONObject()
                        r["reference"] = .string(result.target.reference)
                        r["kind"] = .string(result.target.kind.rawValue)
                        r["ratio"] = num(result.ratio)
                        r["target"] = num(result.target.target)
                        r["gate"] = num(result.target.gateRatio)
                        r["target_met"] = .bool(result.met)
                        r["regressed"] = .bool(result.regressed)
                        return .object(r)
                    })
            }
            if let g = guidance.first(where: { $0.name == m.name }) {
                o["guidance_p50_ns"] = num(g.p50Nanoseconds)
                o["guidance_met"] = .bool(m.p50 <= g.p50Nanoseconds)
            }
            for (key, value) in m.extras { o[key] = num(value) }
            benchmarks.append(.object(o))
        }
        var root = JSONObject()
        root["machine"] = .string(machine)
        root["configuration"] = .string(configuration)
        root["benchmarks"] = .array(benchmarks)
        var check = JSONObject()
        check["exit_code"] = .number(String(outcome.exitCode))
        check["regressions"] = .array(outcome.regressions.map { .string("\($0.target.name) vs \($0.target.reference)") })
        check["improvements"] = .array(outcome.improvements.map { .string("\($0.target.name) vs \($0.target.reference)") })
        root["check"] = .object(check)
        var bytes = JSONValue.object(root).serializedBytes
        bytes.append(0x0A)
        return bytes
    }
}
