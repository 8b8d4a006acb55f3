/// A benchmark that has not been set up yet: `make` runs the setup (key generation, table loading)
/// only when the benchmark is selected.
struct Definition {
    let name: String
    let make: (Fixtures) -> Benchmark

    init(_ name: String, make: @escaping (Fixtures) -> Benchmark) {
        self.name = name
        self.make = make
    }
}

/// Runs `body` `iterations` times, sinking each result.
@inline(__always)
func repeatSinking<T>(_ iterations: Int, _ body: () -> T) {
    for _ in 0..<iterations { blackHole(body()) }
}

/// Runs a throwing operation that setup has already proven to succeed; a failure here means the
/// benchmark is measuring something else, so it stops the run.
@inline(__always)
func mustSucceed<T, E: Error>(_ body: () throws(E) -> T) -> T {
    do { return try body() } catch { fatalError("benchmark operation failed: \(error)") }
}
