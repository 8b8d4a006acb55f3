package import CSECore
import Dispatch
internal import CCSEShims
#if canImport(Glibc)
import Glibc
#endif

/// Processes JSON-lines input for `--lines` modes: exactly one output line per input line, in
/// input order, using every core for the work of a block of lines while the next block is read.
///
/// Memory is bounded in input *and* output bytes: a block holds at most ``blockSize`` lines and
/// stops growing once it holds ``maxBlockInputBytes`` (two blocks are in memory: the one being
/// processed and the one being read); finished lines are written to standard output in order, in
/// runs of up to 64 KiB (a run also goes at its block's end or 10 ms after the last write), and the
/// workers take no new line while more than
/// ``maxPendingOutputBytes`` of finished output waits for a slow standard output. So the output
/// held at any time is at most that budget plus one line per worker, however large each line's
/// output is. Every write is checked: the first failure stops the batch (``run(_:)`` throws it),
/// and a line is always written whole (SIGINT waits for it, see ``StandardStreams``).
package struct BatchRunner: Sendable {
    /// The outcome of one input line.
    package enum LineResult: Sendable {
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
    /// The most lines processed together by the worker threads.
    var blockSize = 256
    /// A block stops taking lines once it holds this many input bytes (so a block holds at most
    /// this plus one line). 256 KiB: 256 wallet tokens of 3.7 KB made 1.9 MB of queued input, the
    /// largest item of a wallet batch's peak RSS (Benchmarks/README.md, "One-shot memory"); a block
    /// of 70 such lines still keeps every worker busy for tens of milliseconds.
    var maxBlockInputBytes = 256 << 10
    /// Finished output that may wait for standard output before the workers stop taking lines.
    var maxPendingOutputBytes = 16 << 20
    /// Worker threads (defaults to the number of online CPUs).
    package var workers = BatchRunner.onlineCPUCount
    /// The descriptor lines are read from (standard input).
    package var input: Int32 = 0
    /// The descriptor results are written to (standard output).
    package var output: Int32 = 1

    /// Creates a runner with default limits.
    package init() {}

    /// The number of CPUs this process may run on: the CPUs in its affinity mask (what `taskset`
    /// and cpusets restrict), else the online CPUs, at least 1.
    package static var onlineCPUCount: Int {
        if let count = affinityCPUCount(), count > 0 { return count }
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return online > 0 ? online : 1
    }

    /// The number of CPUs in this process's affinity mask, or `nil` when it cannot be read.
    /// `sched_getaffinity` is a GNU extension the Glibc module does not export (its header declares
    /// it only under `_GNU_SOURCE`), so it is looked up in the already loaded C library.
    private static func affinityCPUCount() -> Int? {
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(nil, "sched_getaffinity") else { return nil }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        var set = cpu_set_t()
        guard getAffinity(0, MemoryLayout<cpu_set_t>.size, &set) == 0 else { return nil }
        return withUnsafeBytes(of: &set) { mask in mask.reduce(0) { $0 + $1.nonzeroBitCount } }
    }

    /// Runs `process` over every line of standard input and writes the results to standard output.
    /// - Parameter process: Turns one line (1-based number and bytes) into a result. Called
    ///   concurrently from several threads; it must be thread-safe.
    /// - Returns: The number of failed lines (``LineResult/failure(_:)`` and
    ///   ``LineResult/rejected(_:)``).
    /// - Throws: ``CSEError/Code/cliWrite`` or ``CSEError/Code/cliBrokenPipe`` at the first
    ///   failed write (no further line is processed); ``CSEError/Code/cliRead`` when reading
    ///   standard input fails, after every line read before the failure has been answered.
    package func run(_ process: @escaping @Sendable (Int, [UInt8]) -> LineResult) throws(CSEError) -> Int {
        // While the workers process block k (writing its lines in order as they finish), this
        // thread reads block k + 1.
        var reader = LineReader(fd: input, maxLineBytes: maxLineBytes)
        var lineNumber = 0
        var readError: CSEError?
        let (blockSize, maxBlockInputBytes) = (self.blockSize, self.maxBlockInputBytes)
        func readBlock() -> (lines: [(Int, LineReader.Line)], isLast: Bool) {
            var block: [(Int, LineReader.Line)] = []
            var bytes = 0
            while block.count < blockSize && bytes < maxBlockInputBytes {
                let line: LineReader.Line
                do throws(CSEError) {
                    guard let next = try reader.next() else { return (block, true) }
                    line = next
                } catch {
                    readError = error
                    return (block, true)
                }
                lineNumber += 1
                if case .text(let text) = line { bytes += text.count }
                block.append((lineNumber, line))
            }
            return (block, false)
        }
        let progress = Progress(input: input)
        let workers = max(1, self.workers)
        var failures = 0
        var (block, isLast) = readBlock()
        while !block.isEmpty {
            let pipeline = BlockPipeline(
                lines: block, maxLineBytes: maxLineBytes, outputBudget: maxPendingOutputBytes, output: output, process: process)
            let runAll = { @Sendable in
                let threads = min(workers, pipeline.count)
                if threads > 1 {
                    DispatchQueue.concurrentPerform(iterations: threads) { _ in pipeline.work() }
                } else {
                    pipeline.work()
                }
            }
            var next: [(Int, LineReader.Line)] = []
            var nextIsLast = true
            if isLast {
                // The last block: nothing to read meanwhile, so no hand-off.
                runAll()
            } else {
                let processing = DispatchGroup()
                DispatchQueue.global().async(group: processing, execute: runAll)
                (next, nextIsLast) = readBlock()
                processing.wait()
            }
            let outcome = pipeline.outcome
            if let writeError = outcome.writeError {
                progress.finish()
                throw writeError
            }
            failures += outcome.failures
            progress.advance(by: block.count)
            (block, isLast) = (next, nextIsLast)
        }
        progress.finish()
        if let readError { throw readError }
        return failures
    }

    /// `{"line":N,"error":{"code":"…","message":"…"}}` — the message never contains input data
    /// (and passes through ``SafeEcho/text(_:limit:)`` like every error `cse` prints).
    static func errorLine(number: Int, error: CSEError) -> [UInt8] {
        var detail = JSONObjectWriter()
        detail.string("code", error.code.rawValue)
        detail.string("message", SafeEcho.text(error.description, limit: SafeEcho.errorLineLimit))
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
    /// Reading standard input failed (an I/O error, a directory, a closed descriptor).
    static let cliRead = Self("cli.read")
    /// Writing standard output failed (a full disk, a closed descriptor, an I/O error).
    static let cliWrite = Self("cli.write")
    /// The reader of standard output has gone (`EPIPE`); `cse` exits 141 without a message.
    static let cliBrokenPipe = Self("cli.brokenPipe")
}

/// One block of ``BatchRunner/run(_:)``: worker threads take its lines in order, and the worker
/// that completes the run of finished lines from the first unwritten one writes that run, once it
/// holds 64 KiB, reaches the block's end, or 10 ms have passed since the last write. So output
/// streams within the block without a `write` per line (one per line cost about 1 µs of a
/// 15 µs `cse encrypt --lines` line, issue #37), and a slow line's result is not held back.
/// Workers take no new line while more than the output budget waits to be written, and none at
/// all after a failed write.
private final class BlockPipeline: @unchecked Sendable {
    // Every `var` below is guarded by `mutex`; `lines`, `process` and the limits are immutable.
    // Deadlock freedom: a worker waits (in `claim`) only while pending output exists; pending
    // output past `nextWrite` means line `nextWrite` was claimed and is being processed by a
    // worker that is not waiting, and whoever delivers it writes and wakes the others.
    private let lines: [(Int, LineReader.Line)]
    private let maxLineBytes: Int
    private let outputBudget: Int
    private let output: Int32
    private let process: @Sendable (Int, [UInt8]) -> BatchRunner.LineResult
    private var slots: [[UInt8]?]
    private var nextClaim = 0
    private var nextWrite = 0
    private var pendingBytes = 0
    /// `slots[nextWrite..<readyEnd]` are all finished; `readyBytes` is their size.
    private var readyEnd = 0
    private var readyBytes = 0
    /// When the last write ended (CLOCK_MONOTONIC_COARSE, nanoseconds).
    private var lastWrite = BlockPipeline.now()
    private var writing = false
    private var failures = 0
    private var writeError: CSEError?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Writes are coalesced up to this size; a longer line is written from its own buffer.
    static let coalescedWriteBytes = 64 << 10
    /// Finished lines wait at most this long for more to join their write (while lines keep
    /// finishing; the block's last line writes at once).
    static let coalescingNanoseconds: UInt64 = 10_000_000

    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Whether the finished run from `nextWrite` should be written now (the lock is held).
    private var runIsDue: Bool {
        readyEnd > nextWrite
            && (readyEnd == slots.count || readyBytes >= Self.coalescedWriteBytes
                || Self.now() &- lastWrite >= Self.coalescingNanoseconds)
    }

    init(
        lines: [(Int, LineReader.Line)], maxLineBytes: Int, outputBudget: Int, output: Int32,
        process: @escaping @Sendable (Int, [UInt8]) -> BatchRunner.LineResult
    ) {
        self.lines = lines
        self.maxLineBytes = maxLineBytes
        self.outputBudget = outputBudget
        self.output = output
        self.process = process
        slots = Array(repeating: nil, count: lines.count)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    var count: Int { lines.count }

    /// The failed lines and the first write error, once every worker has returned.
    var outcome: (failures: Int, writeError: CSEError?) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (failures, writeError)
    }

    /// One worker: takes lines until none is left or writing has failed.
    func work() {
        while let index = claim() {
            let (number, line) = lines[index]
            let result: BatchRunner.LineResult
            switch line {
            case .text(let bytes): result = process(number, bytes)
            case .tooLong:
                result = .failure(
                    CSEError(.cliLineTooLong, "input line is longer than the limit", context: ["limit": String(maxLineBytes)]))
            }
            var output: [UInt8]
            let failed: Bool
            switch result {
            case .output(let bytes): (output, failed) = (bytes, false)
            case .rejected(let bytes): (output, failed) = (bytes, true)
            case .failure(let error): (output, failed) = (BatchRunner.errorLine(number: number, error: error), true)
            }
            output.append(0x0A)
            deliver(index, output, failed: failed)
        }
    }

    private func claim() -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while writeError == nil && nextClaim < lines.count && pendingBytes > outputBudget {
            pthread_cond_wait(condition, mutex)
        }
        guard writeError == nil && nextClaim < lines.count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    private func deliver(_ index: Int, _ output: [UInt8], failed: Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if failed { failures += 1 }
        guard writeError == nil else { return }
        slots[index] = output
        pendingBytes += output.count
        extendReadyRun()
        guard !writing && runIsDue else { return }
        // This worker writes the finished run, releasing the lock while it writes; lines
        // finished meanwhile join the next round.
        writing = true
        while writeError == nil, runIsDue {
            var run: [[UInt8]] = []
            run.reserveCapacity(readyEnd - nextWrite)
            while nextWrite < readyEnd {
                run.append(slots[nextWrite]!)
                slots[nextWrite] = nil
                nextWrite += 1
            }
            readyBytes = 0
            pthread_mutex_unlock(mutex)
            let failure = Self.write(run, to: self.output)
            pthread_mutex_lock(mutex)
            lastWrite = Self.now()
            pendingBytes -= run.reduce(0) { $0 + $1.count }
            if let failure { writeError = failure }
            extendReadyRun()
            pthread_cond_broadcast(condition)
        }
        writing = false
    }

    /// Moves `readyEnd` past every finished line that follows the run (the lock is held).
    private func extendReadyRun() {
        while readyEnd < slots.count, let ready = slots[readyEnd] {
            readyBytes += ready.count
            readyEnd += 1
        }
    }

    /// Writes whole lines to `output`, small ones coalesced; returns the first failure.
    private static func write(_ run: [[UInt8]], to output: Int32) -> CSEError? {
        var buffer: [UInt8] = []
        do throws(CSEError) {
            for line in run {
                if buffer.count + line.count > coalescedWriteBytes && !buffer.isEmpty {
                    try StandardStreams.writeAll(buffer, to: output)
                    buffer.removeAll(keepingCapacity: true)
                }
                if line.count >= coalescedWriteBytes {
                    try StandardStreams.writeAll(line, to: output)
                } else {
                    buffer.append(contentsOf: line)
                }
            }
            try StandardStreams.writeAll(buffer, to: output)
        } catch {
            return error
        }
        return nil
    }
}

/// A progress line on stderr (`12,000 lines · 2,345 lines/s · ETA 0:12`), only when stderr is a
/// terminal. The ETA is shown when standard input is a regular file of known size.
private final class Progress {
    private let enabled = StandardStreams.stderrIsTerminal
    private let start = Progress.now()
    private var lines = 0
    private var lastDraw = 0.0
    private let input: Int32
    private let inputSize: Int64?

    init(input: Int32) {
        self.input = input
        var info = stat()
        if fstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            inputSize = Int64(info.st_size)
        } else {
            inputSize = nil
        }
    }

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
            let consumed = Int64(lseek(input, 0, SEEK_CUR))
            if consumed > 0, consumed <= inputSize, rate > 0 {
                let remaining = elapsed * Double(inputSize - consumed) / Double(consumed)
                text += " · ETA \(Int(remaining) / 60):" + (Int(remaining) % 60 < 10 ? "0" : "") + "\(Int(remaining) % 60)"
            }
        }
        StandardStreams.err(text + "   ")
    }
}
