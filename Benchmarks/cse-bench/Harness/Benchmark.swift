/// One benchmark: a name and a body that runs `iterations` operations. Setup happens when the
/// benchmark is constructed (outside the timed region); the body is timed as a whole and divided
/// by `iterations`, so it must sink every result with ``blackHole(_:)``.
struct Benchmark {
    /// `group/case`, e.g. `jwe-encrypt/rsa2048`.
    let name: String
    /// The inner loop: perform the operation `iterations` times.
    let body: (Int) -> Void
    /// For a body that times itself (an async loop that must not count the thread hop into its
    /// task, see ``selfTimed(_:extras:body:)``): runs `iterations` operations and returns the
    /// nanoseconds they took.
    let selfTimedBody: ((Int) -> UInt64)?
    /// A whole-operation benchmark that is too slow for a sampled loop (loading a 1,000,000-row
    /// table): it runs once per repetition, outside the interleaved rounds.
    let oneShot: Bool
    /// Extra figures computed during setup, reported next to the timing (e.g. bytes per range).
    let extras: [(String, Double)]

    init(_ name: String, oneShot: Bool = false, extras: [(String, Double)] = [], body: @escaping (Int) -> Void) {
        self.name = name
        self.oneShot = oneShot
        self.extras = extras
        self.body = body
        self.selfTimedBody = nil
    }

    /// A benchmark whose body measures its own inner loop. For async code: the body starts a
    /// task, and the time until that task runs and until the waiting thread wakes again is
    /// scheduler latency (on a VM, up to hundreds of µs per sample when a vCPU idles), not a
    /// cost of the operation a caller already in an async context pays. package-benchmark
    /// does the same with `startMeasurement()`/`stopMeasurement()`.
    static func selfTimed(_ name: String, extras: [(String, Double)] = [], body: @escaping (Int) -> UInt64) -> Benchmark {
        Benchmark(name: name, extras: extras, selfTimedBody: body)
    }

    private init(name: String, extras: [(String, Double)], selfTimedBody: @escaping (Int) -> UInt64) {
        self.name = name
        self.oneShot = false
        self.extras = extras
        self.body = { _ = selfTimedBody($0) }
        self.selfTimedBody = selfTimedBody
    }

    /// Runs the body once and returns the elapsed nanoseconds of its timed region.
    func run(_ iterations: Int) -> UInt64 {
        if let selfTimedBody { return selfTimedBody(iterations) }
        let start = nowNanoseconds()
        body(iterations)
        return nowNanoseconds() - start
    }
}

/// The measured distribution of one benchmark, in nanoseconds per operation.
struct Measurement {
    let name: String
    let samples: [Double]
    let iterationsPerSample: Int
    let extras: [(String, Double)]

    private var sorted: [Double] { samples.sorted() }

    /// Linear-interpolated percentile, `p` in 0...100.
    func percentile(_ p: Double) -> Double {
        let sorted = self.sorted
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
    /// Target duration of one sample: inner loops scale to reach it.
    var sampleNanoseconds: UInt64
    /// Warm-up time per benchmark before calibration ends.
    var warmupNanoseconds: UInt64
    /// Interleaved rounds: each round takes one sample of every selected benchmark.
    var rounds: Int
    /// Stop starting new rounds after this much wall time (a guard for overloaded machines).
    var budgetNanoseconds: UInt64
    /// Repetitions of one-shot benchmarks.
    var oneShotRepetitions: Int

    /// The default: 10 ms samples, 100 rounds (about 1 s of samples per benchmark).
    static let full = RunConfiguration(
        sampleNanoseconds: 10_000_000, warmupNanoseconds: 100_000_000, rounds: 100,
        budgetNanoseconds: 300_000_000_000, oneShotRepetitions: 5)
    /// `--quick`, the CI smoke pass: 5 ms samples, 60 rounds (about 20 s here), at most 60 s of rounds.
    static let quick = RunConfiguration(
        sampleNanoseconds: 5_000_000, warmupNanoseconds: 25_000_000, rounds: 60,
        budgetNanoseconds: 60_000_000_000, oneShotRepetitions: 2)
}

enum Runner {
    /// Measures `benchmarks` in interleaved rounds.
    ///
    /// Each benchmark is first warmed up and calibrated on its own (its inner loop doubled until
    /// one call takes about a sample's time). Then every round takes one sample of each benchmark,
    /// starting at a rotating position. A benchmark and its in-run reference are therefore sampled
    /// milliseconds apart throughout the run, so a load change on the shared machine moves both
    /// and their ratio stays stable; that ratio, not the absolute time, is what the targets check.
    static func measure(
        _ benchmarks: [Benchmark], configuration: RunConfiguration, progress: (String) -> Void
    ) -> [Measurement] {
        var iterations: [Int] = []
        for benchmark in benchmarks {
            if benchmark.oneShot {
                iterations.append(1)
                continue
            }
            progress("calibrating \(benchmark.name)")
            iterations.append(calibrate(benchmark, configuration: configuration))
        }
        var samples = [[Double]](repeating: [], count: benchmarks.count)
        let sampled = benchmarks.indices.filter { !benchmarks[$0].oneShot }
        let deadline = nowNanoseconds() + configuration.budgetNanoseconds
        if !sampled.isEmpty {
            progress("sampling \(sampled.count) benchmarks in \(configuration.rounds) interleaved rounds")
            for round in 0..<configuration.rounds {
                if round >= 5 && nowNanoseconds() >= deadline { break }
                for offset in 0..<sampled.count {
                    let index = sampled[(round + offset) % sampled.count]
                    samples[index].append(sample(benchmarks[index], iterations: iterations[index]))
                }
            }
        }
        for index in benchmarks.indices where benchmarks[index].oneShot {
            progress("running \(benchmarks[index].name) \(configuration.oneShotRepetitions)×")
            for _ in 0..<configuration.oneShotRepetitions {
                samples[index].append(sample(benchmarks[index], iterations: 1))
            }
        }
        return benchmarks.indices.map {
            Measurement(
                name: benchmarks[$0].name, samples: samples[$0], iterationsPerSample: iterations[$0],
                extras: benchmarks[$0].extras)
        }
    }

    /// Warms up and returns the inner-loop count that makes one sample last about
    /// `sampleNanoseconds`.
    private static func calibrate(_ benchmark: Benchmark, configuration: RunConfiguration) -> Int {
        var iterations = 1
        let warmupEnd = nowNanoseconds() + configuration.warmupNanoseconds
        while true {
            let elapsed = benchmark.run(iterations)
            if elapsed >= configuration.sampleNanoseconds / 2 || iterations >= 1 << 26 {
                if elapsed > 0 {
                    let scaled = Double(iterations) * Double(configuration.sampleNanoseconds) / Double(elapsed)
                    iterations = max(1, Int(scaled))
                }
                if nowNanoseconds() >= warmupEnd { return iterations }
            } else {
                iterations *= 2
            }
        }
    }

    @inline(__always)
    private static func sample(_ benchmark: Benchmark, iterations: Int) -> Double {
        Double(benchmark.run(iterations)) / Double(iterations)
    }
}
