/// One benchmark: a name and a body that runs `iterations` operations. Setup happens when the
/// benchmark is constructed (outside the timed region); the body is timed as a whole and divided
/// by `iterations`.
struct Benchmark {
    /// `group/name`, e.g. `jwe-encrypt/rsa2048-oaep-a256cbc`.
    let name: String
    /// The inner loop: perform the operation `iterations` times, sinking results with `blackHole`.
    let body: (Int) -> Void

    init(_ name: String, body: @escaping (Int) -> Void) {
        self.name = name
        self.body = body
    }
}

/// The measured distribution of one benchmark, in nanoseconds per operation.
struct Measurement {
    let name: String
    let samples: [Double]
    let iterationsPerSample: Int

    func percentile(_ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = p / 100 * Double(sorted.count - 1)
        let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - Double(lo))
    }

    var p50: Double { percentile(50) }
    var opsPerSecond: Double { p50 > 0 ? 1e9 / p50 : 0 }
}

/// How long to measure.
struct RunConfiguration {
    /// Target duration of one sample (inner loops scale to reach it).
    var sampleNanoseconds: UInt64 = 10_000_000
    /// Warm-up time before sampling.
    var warmupNanoseconds: UInt64 = 100_000_000
    /// Measuring time per benchmark.
    var measureNanoseconds: UInt64 = 1_000_000_000
    /// Upper bound on samples.
    var maxSamples = 200
    /// Lower bound on samples.
    var minSamples = 10

    static let full = RunConfiguration()
    static let quick = RunConfiguration(
        sampleNanoseconds: 5_000_000, warmupNanoseconds: 20_000_000, measureNanoseconds: 250_000_000, maxSamples: 60, minSamples: 10)
}

enum Runner {
    /// Warms up, scales the inner loop to about one sample duration, then samples.
    static func measure(_ benchmark: Benchmark, configuration: RunConfiguration) -> Measurement {
        // Warm-up and calibration: double the iterations until one call takes a sample's time.
        var iterations = 1
        let warmupEnd = nowNanoseconds() + configuration.warmupNanoseconds
        while true {
            let start = nowNanoseconds()
            benchmark.body(iterations)
            let elapsed = nowNanoseconds() - start
            if elapsed >= configuration.sampleNanoseconds / 2 || iterations >= 1 << 24 {
                if elapsed > 0 {
                    let scaled = Double(iterations) * Double(configuration.sampleNanoseconds) / Double(elapsed)
                    iterations = max(1, Int(scaled))
                }
                if nowNanoseconds() >= warmupEnd { break }
            } else {
                iterations *= 2
            }
        }
        var samples: [Double] = []
        let deadline = nowNanoseconds() + configuration.measureNanoseconds
        while samples.count < configuration.maxSamples && (samples.count < configuration.minSamples || nowNanoseconds() < deadline) {
            let start = nowNanoseconds()
            benchmark.body(iterations)
            let elapsed = nowNanoseconds() - start
            samples.append(Double(elapsed) / Double(iterations))
        }
        return Measurement(name: benchmark.name, samples: samples, iterationsPerSample: iterations)
    }
}
