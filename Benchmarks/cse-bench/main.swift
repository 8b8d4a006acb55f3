// cse-bench: CSEKit's benchmarks. See Benchmarks/README.md.
//
//   swift run -c release cse-bench [--filter REGEX] [--quick] [--json FILE] [--check FILE] [--list]
//   swift run -c release cse-bench --oaep-timing [N]   (the JWE OAEP timing test, OAEPTiming.swift)
//   swift run -c release cse-bench --journal [N]       (the payment journal's cost, JournalLatency.swift)
//
// Exit status: 0 ok; with --check, 2 when a ratio regressed past its gate and 4 when ratios only
// improved past their baselines (package-benchmark's codes); 64 for usage errors; 1 for failures.
import CSECore
import CSECrypto
import CSEValidation
import Foundation

let usage = """
    Usage: cse-bench [--filter REGEX] [--quick] [--json FILE] [--check FILE] [--thresholds FILE]
                     [--rounds N] [--list]

      --filter REGEX     run benchmarks whose name contains a match (references of their ratio
                         targets are added automatically)
      --quick            CI smoke pass: shorter samples and fewer rounds (about a minute)
      --json FILE        write the JSON report to FILE
      --check FILE       compare the ratios with the targets and gates in FILE; exit 0 (ok),
                         2 (a ratio regressed past its gate) or 4 (improvements only)
      --thresholds FILE  show the targets in FILE without gating (default: Benchmarks/thresholds.json)
      --rounds N         interleaved sampling rounds (default 100, quick 60)
      --list             print the benchmark names and exit
      -h, --help         show this help
    """

struct Options {
    var filter: String?
    var quick = false
    var jsonPath: String?
    var checkPath: String?
    var thresholdsPath = "Benchmarks/thresholds.json"
    var rounds: Int?
    var list = false
}

func fail(_ message: String, status: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n\(status == 64 ? usage + "\n" : "")".utf8))
    exit(status)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 0
    func value(_ name: String) -> String {
        index += 1
        guard index < arguments.count else { fail("\(name) needs a value") }
        return arguments[index]
    }
    while index < arguments.count {
        var argument = arguments[index]
        var inline: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            inline = String(argument[argument.index(after: equals)...])
            argument = String(argument[..<equals])
        }
        func take(_ name: String) -> String { inline ?? value(name) }
        switch argument {
        case "--filter": options.filter = take(argument)
        case "--quick": options.quick = true
        case "--json": options.jsonPath = take(argument)
        case "--check": options.checkPath = take(argument)
        case "--thresholds": options.thresholdsPath = take(argument)
        case "--rounds":
            guard let rounds = Int(take(argument)), rounds > 0 else { fail("--rounds needs a positive integer") }
            options.rounds = rounds
        case "--list": options.list = true
        case "-h", "--help":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(argument)'")
        }
        index += 1
    }
    return options
}

/// CPU model, cores, crypto extensions, OpenSSL and Swift, for the report.
func machineDescription() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    func field(_ name: String) -> String? {
        cpuinfo.split(separator: "\n").first { $0.hasPrefix(name) }?.split(separator: ":", maxSplits: 1).last
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let flags = Set((field("flags") ?? "").split(separator: " ").map(String.init))
    let extensions = ["aes", "sha_ni", "avx2", "bmi2", "adx", "avx512ifma"].filter(flags.contains).joined(separator: " ")
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var swift = "Swift"
    #if swift(>=6.3)
    swift = "Swift 6.3+"
    #elseif swift(>=6.0)
    swift = "Swift 6.x"
    #endif
    return "\(field("model name") ?? "unknown CPU"), \(cores) cores (\(extensions)), \(OpenSSLInfo.version), \(swift), Linux, "
        + "default RSA engine \(RSAEngine.default)"
}

// The F08 timing test (see OAEPTiming.swift): `cse-bench --oaep-timing [N]`.
if CommandLine.arguments.dropFirst().first == "--oaep-timing" {
    let perClass = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 10_000 : 10_000
    do { try OAEPTiming.run(perClass: perClass) } catch { fail("\(error)", status: 1) }
    exit(0)
}

// The payment journal's cost (see JournalLatency.swift): `cse-bench --journal [N]`.
if CommandLine.arguments.dropFirst().first == "--journal" {
    let calls = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 2_000 : 2_000
    // Run under dispatchMain, as cse runs its network commands (a semaphore wait here hung).
    Task {
        do { try await JournalLatency.run(calls: calls) } catch { fail("\(error)", status: 1) }
        exit(0)
    }
    dispatchMain()
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let definitions =
    CryptoSuite.definitions + PayloadSuite.definitions + EncodingSuite.definitions
    + ValidationSuite.definitions + CardRequestSuite.definitions + PaymentsSuite.definitions + ClientAPISuite.definitions
    + WalletSuite.definitions + FloorSuite.definitions

if options.list {
    for definition in definitions { print(definition.name) }
    exit(0)
}

var thresholds = Thresholds.empty
let thresholdsPath = options.checkPath ?? options.thresholdsPath
if options.checkPath != nil || FileManager.default.fileExists(atPath: thresholdsPath) {
    do { thresholds = try Thresholds.load(path: thresholdsPath) } catch { fail("cannot read \(thresholdsPath): \(error)", status: 1) }
}

// Selection: the filter's matches plus the references their targets need.
var selected = Set(definitions.map(\.name))
if let filter = options.filter {
    let pattern: RegexPattern
    do { pattern = try RegexPattern(filter) } catch { fail("--filter: \(error)") }
    selected = Set(definitions.map(\.name).filter { (try? pattern.firstMatch(in: $0)) != nil })
    guard !selected.isEmpty else { fail("--filter '\(filter)' matches no benchmark", status: 1) }
    for target in thresholds.targets where selected.contains(target.name) { selected.insert(target.reference) }
}

var configuration = options.quick ? RunConfiguration.quick : RunConfiguration.full
if let rounds = options.rounds { configuration.rounds = rounds }
let mode = options.quick ? "quick" : "full"
let configurationText = "\(mode): \(configuration.sampleNanoseconds / 1_000_000) ms samples, \(configuration.rounds) interleaved rounds"

func progress(_ text: String) { FileHandle.standardError.write(Data("cse-bench: \(text)\n".utf8)) }

let started = nowNanoseconds()
let fixtures = Fixtures()
var benchmarks: [Benchmark] = []
for definition in definitions where selected.contains(definition.name) {
    progress("setting up \(definition.name)")
    benchmarks.append(definition.make(fixtures))
}
let measurements = Runner.measure(benchmarks, configuration: configuration, progress: progress)
let outcome = CheckOutcome(thresholds: thresholds, measurements: measurements)
let machine = machineDescription()

print("cse-bench \(configurationText); \(machine)")
print(Report.table(measurements, outcome: outcome, guidance: thresholds.guidance))
progress(String(format: "done in %.1f s", Double(nowNanoseconds() - started) / 1e9))

if let path = options.jsonPath {
    let bytes = Report.json(
        measurements, outcome: outcome, guidance: thresholds.guidance, machine: machine,
        configuration: configurationText)
    do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch { fail("cannot write \(path): \(error)", status: 1) }
}

if options.checkPath != nil {
    for result in outcome.regressions {
        print(
            String(
                format: "REGRESSION: %@ is %.3f against %@ (target %@, gate %.3f)", result.target.name, result.ratio,
                result.target.reference, result.target.summary, result.target.gateRatio))
    }
    for result in outcome.improvements {
        print(
            String(
                format: "improvement: %@ is %.3f against %@ (baseline %.3f)", result.target.name, result.ratio,
                result.target.reference, result.target.baseline ?? 0))
    }
    let missed = outcome.results.filter { !$0.met && !$0.regressed }
    for result in missed {
        print(String(format: "target missed (not gated): %@ is %.3f, target %@", result.target.name, result.ratio, result.target.summary))
    }
    print(
        "check: exit \(outcome.exitCode) (\(outcome.results.count) ratios, \(outcome.regressions.count) regressions, \(outcome.improvements.count) improvements)"
    )
    exit(outcome.exitCode)
}
