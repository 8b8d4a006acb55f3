import CSECore
import Dispatch
internal import CCSEShims
#if canImport(Glibc)
import Glibc
#endif

/// Processes JSON-lines input for `--lines` modes: exactly one output line per input line, in
/// input order, using every core for the work of a block of lines while the next block is read
/// and the previous one written. Memory is bounded by the block size, the line-length limit and
/// at most four blocks in flight.
struct BatchRunner: Sendable {
    /// The outcome of one input line.
    enum LineResult: Sendable {
        /// A JSON object (without newline) to print for this line.
        case output([UInt8])
        /// The line failed; an error object with its line number is printed instead.
        case failure(CSEError)
        /// The line was processed but its verdict is negative (for example invalid field
        /// values): this JSON object, which names the line, is printed and the line counts as
        /// failed.
        case rejected([UInt8])
    }

    /// The longest accepted input line in bytes; longer lines are reported, not buffered.
    var maxLineBytes = 1 << 20
    /// Lines processed together by the worker threads.
    var blockSize = 256
    /// Worker threads (defaults to the number of online CPUs).
    var workers = BatchRunner.onlineCPUCount

    /// Creates a runner with default limits.
    init() {}

    /// The number of CPUs this process may run on.
    static var onlineCPUCount: Int {
        Int(CCSEShims_available_cpu_count())
    }

    /// Runs `process` over every line of standard input and writes the results to standard output.
    /// - Parameter process: Turns one line (1-based number and bytes) into a result. Called
    ///   concurrently from several threads; it must be thread-safe.
    /// - Returns: The number of failed lines (``LineResult/failure(_:)`` and
    ///   ``LineResult/rejected(_:)``).
    func run(_ process: @escaping @Sendable (Int, [UInt8]) -> LineResult) -> Int {
        // Three stages overlap: while the workers process block k, this thread reads block
        // k + 1 and a serial writer queue prints block k − 1. At most two printed blocks wait for
        // the writer, so memory stays bounded when standard output is slow.
        var reader = LineReader(maxLineBytes: maxLineBytes)
        var lineNumber = 0
        let limit = maxLineBytes
        let blockSize = self.blockSize
        func readBlock() -> [(Int, LineReader.Line)] {
            var block: [(Int, LineReader.Line)] = []
            block.reserveCapacity(blockSize)
            while block.count < blockSize, let line = reader.next() {
                lineNumber += 1
                block.append((lineNumber, line))
            }
            return block
        }
        let output = OrderedOutput()
        let parallel = workers > 1
        var block = readBlock()
        while !block.isEmpty {
            let results = ResultSlots(count: block.count)
            let lines = block
            let work = { @Sendable (index: Int) in
                let (number, line) = lines[index]
                switch line {
                case .text(let bytes): results.store(index, process(number, bytes))
                case .tooLong:
                    results.store(index, .failure(CSEError(.cliLineTooLong, "input line is longer than the limit", context: ["limit": String(limit)])))
                }
            }
            let processAll = { @Sendable in
                if parallel && lines.count > 1 {
                    DispatchQueue.concurrentPerform(iterations: lines.count, execute: work)
                } else {
                    for index in 0..<lines.count { work(index) }
                }
            }
            let next: [(Int, LineReader.Line)]
            if lines.count < blockSize {
                // A short block is the last one: nothing to read meanwhile, so no hand-off.
                processAll()
                next = []
            } else {
                let processing = DispatchGroup()
                DispatchQueue.global().async(group: processing, execute: processAll)
                next = readBlock()
                processing.wait()
            }
            output.print(numbers: lines.map(\.0), results: results)
            block = next
        }
        return output.finish()
    }

    /// `{"line":N,"error":{"code":"…","message":"…"}}` — the message never contains input data.
    static func errorLine(number: Int, error: CSEError) -> [UInt8] {
        var detail = JSONObjectWriter()
        detail.string("code", error.code.rawValue)
        detail.string("message", error.description)
        var out = JSONObjectWriter()
        out.int("line", number)
        out.serialized("error", detail.finish())
        return out.finish()
    }
}

extension CSEError.Code {
    /// A `--lines` input line is longer than the limit.
    static let cliLineTooLong = Self("cli.lineTooLong")
    /// Standard input was empty where a value was expected.
    static let cliEmptyInput = Self("cli.emptyInput")
    /// Standard input was larger than the command accepts.
    static let cliInputTooLarge = Self("cli.inputTooLarge")
    /// A file could not be read or written.
    static let cliFile = Self("cli.file")
}

/// The writer stage of ``BatchRunner/run(_:)``: prints blocks on a serial queue in the order
/// they are handed over, counts failed lines and draws the progress line. `print` blocks while
/// two earlier blocks are still waiting, which bounds the memory a slow reader of standard
/// output can make the runner hold.
private final class OrderedOutput: @unchecked Sendable {
    // `failures` and `progress` are touched only on `queue`; `finish` drains it first.
    private let queue = DispatchQueue(label: "cse.batch.output")
    private let slots = DispatchSemaphore(value: 2)
    private let progress = Progress()
    private var failures = 0

    func print(numbers: [Int], results: ResultSlots) {
        slots.wait()
        queue.async { [self] in
            var output: [UInt8] = []
            for (index, number) in numbers.enumerated() {
                switch results.take(index) {
                case .output(let bytes): output.append(contentsOf: bytes)
                case .rejected(let bytes):
                    failures += 1
                    output.append(contentsOf: bytes)
                case .failure(let error):
                    failures += 1
                    output.append(contentsOf: BatchRunner.errorLine(number: number, error: error))
                }
                output.append(0x0A)
            }
            StandardStreams.write(output, to: 1)
            progress.advance(by: numbers.count)
            slots.signal()
        }
    }

    /// Waits for every block to be printed; returns the number of failed lines.
    func finish() -> Int {
        queue.sync {
            progress.finish()
            return failures
        }
    }
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
