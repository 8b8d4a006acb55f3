public import CSECore
import Dispatch
internal import CCSEShims
#if canImport(Glibc)
import Glibc
#endif

/// Processes JSON-lines input for `--lines` modes: exactly one output line per input line, in
/// input order, using every core for the work of a block of lines while reading and writing
/// stay sequential. Memory is bounded by the block size and the line-length limit.
public struct BatchRunner: Sendable {
    /// The outcome of one input line.
    public enum LineResult: Sendable {
        /// A JSON object (without newline) to print for this line.
        case output([UInt8])
        /// The line failed; an error object with its line number is printed instead.
        case failure(CSEError)
    }

    /// The longest accepted input line in bytes; longer lines are reported, not buffered.
    public var maxLineBytes = 1 << 20
    /// Lines processed together by the worker threads.
    public var blockSize = 256
    /// Worker threads (defaults to the number of online CPUs).
    public var workers = BatchRunner.onlineCPUCount

    /// Creates a runner with default limits.
    public init() {}

    /// The number of CPUs this process may run on.
    public static var onlineCPUCount: Int {
        Int(CCSEShims_available_cpu_count())
    }

    /// Runs `process` over every line of standard input and writes the results to standard output.
    /// - Parameter process: Turns one line (1-based number and bytes) into a result. Called
    ///   concurrently from several threads; it must be thread-safe.
    /// - Returns: The number of failed lines.
    public func run(_ process: @escaping @Sendable (Int, [UInt8]) -> LineResult) -> Int {
        var reader = LineReader(maxLineBytes: maxLineBytes)
        let progress = Progress()
        var lineNumber = 0
        var failures = 0
        var output: [UInt8] = []
        while true {
            var block: [(Int, LineReader.Line)] = []
            block.reserveCapacity(blockSize)
            while block.count < blockSize, let line = reader.next() {
                lineNumber += 1
                block.append((lineNumber, line))
            }
            if block.isEmpty { break }
            let results = ResultSlots(count: block.count)
            let lines = block
            let limit = maxLineBytes
            let work = { @Sendable (index: Int) in
                let (number, line) = lines[index]
                switch line {
                case .text(let bytes): results.store(index, process(number, bytes))
                case .tooLong:
                    results.store(index, .failure(CSEError(.cliLineTooLong, "input line is longer than the limit", context: ["limit": String(limit)])))
                }
            }
            if workers > 1 && block.count > 1 {
                DispatchQueue.concurrentPerform(iterations: block.count, execute: work)
            } else {
                for index in 0..<block.count { work(index) }
            }
            output.removeAll(keepingCapacity: true)
            for (index, (number, _)) in block.enumerated() {
                switch results.take(index) {
                case .output(let bytes): output.append(contentsOf: bytes)
                case .failure(let error):
                    failures += 1
                    output.append(contentsOf: Self.errorLine(number: number, error: error))
                }
                output.append(0x0A)
            }
            StandardStreams.write(output, to: 1)
            progress.advance(by: block.count)
        }
        progress.finish()
        return failures
    }

    /// `{"line":N,"error":{"code":"…","message":"…"}}` — the message never contains input data.
    public static func errorLine(number: Int, error: CSEError) -> [UInt8] {
        var out: [UInt8] = Array(#"{"line":"#.utf8)
        out.append(contentsOf: String(number).utf8)
        out.append(contentsOf: #","error":{"code":"#.utf8)
        JSONWriter.appendString(error.code.rawValue, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.appendString(error.description, to: &out)
        out.append(contentsOf: "}}".utf8)
        return out
    }
}

extension CSEError.Code {
    /// A `--lines` input line is longer than the limit.
    public static let cliLineTooLong = Self("cli.lineTooLong")
    /// Standard input was empty where a value was expected.
    public static let cliEmptyInput = Self("cli.emptyInput")
    /// Standard input was larger than the command accepts.
    public static let cliInputTooLarge = Self("cli.inputTooLarge")
    /// A file could not be read or written.
    public static let cliFile = Self("cli.file")
}

/// Per-block result storage written by worker threads at distinct indices.
private final class ResultSlots: @unchecked Sendable {
    // Each index is written by exactly one worker before `concurrentPerform` returns, and read
    // only afterwards by the writer thread, so no lock is needed.
    private var slots: UnsafeMutablePointer<BatchRunner.LineResult?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    func store(_ index: Int, _ result: BatchRunner.LineResult) { slots[index] = result }
    func take(_ index: Int) -> BatchRunner.LineResult { slots[index] ?? .failure(CSEError(.init("cli.internal"), "missing result")) }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}

/// A progress line on stderr (`12,000 lines · 2,345 lines/s · ETA 0:12`), only when stderr is a
/// terminal. The ETA is shown when standard input is a regular file of known size.
private final class Progress {
    private let enabled = StandardStreams.stderrIsTerminal
    private let start = Progress.now()
    private var lines = 0
    private var lastDraw = 0.0
    private let inputSize: Int64? = {
        var info = stat()
        guard fstat(0, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        return Int64(info.st_size)
    }()

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func advance(by count: Int) {
        lines += count
        guard enabled else { return }
        let t = Progress.now()
        guard t - lastDraw > 0.2 else { return }
        lastDraw = t
        draw(elapsed: t - start)
    }

    func finish() {
        guard enabled, lines > 0 else { return }
        draw(elapsed: Progress.now() - start)
        StandardStreams.err("\n")
    }

    private func draw(elapsed: Double) {
        let rate = elapsed > 0 ? Double(lines) / elapsed : 0
        var text = "\r\(lines) lines · \(Int(rate)) lines/s"
        if let inputSize {
            let consumed = Int64(lseek(0, 0, SEEK_CUR))
            if consumed > 0, consumed <= inputSize, rate > 0 {
                let remaining = elapsed * Double(inputSize - consumed) / Double(consumed)
                text += " · ETA \(Int(remaining) / 60):" + (Int(remaining) % 60 < 10 ? "0" : "") + "\(Int(remaining) % 60)"
            }
        }
        StandardStreams.err(text + "   ")
    }
}
