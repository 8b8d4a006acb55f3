// `cse-bench --oaep-timing [N]`: the statistical timing test of issue #13 F08, not a benchmark.
//
// Two classes of JWE that both fail with the same `jwe.decryptionFailed`:
//   A  "bad OAEP": the encrypted key is random k bytes (RSA-OAEP decoding fails);
//   B  "bad tag":  a genuine encrypted key (OAEP decodes) and a flipped tag byte.
// N calls per class run in process, interleaved in a random order. After every measured call one
// probe call (always class B) is timed too, to see whether a class slows down the *next* call (a
// freed and rebuilt context, a refilled pool). For the measured calls and the probes, the report
// gives each class's mean, median and standard deviation, the difference of the means, Welch's t
// and Cohen's d, for thread CPU time and wall time, each cropped at the 50th, 90th and 99th
// percentile. |t| < 2 means no difference the test can tell from noise at this N.
import CSECore
import CSECrypto
import CSEJOSE
import Foundation

enum OAEPTiming {
    struct Summary {
        let mean: Double, median: Double, sd: Double, count: Int
        init(_ samples: [Double]) {
            let n = samples.count
            let average = samples.reduce(0, +) / Double(n)
            let variance = samples.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(n - 1)
            count = n
            mean = average
            sd = variance.squareRoot()
            median = samples.sorted()[n / 2]
        }
    }

    /// Welch's t and Cohen's d (pooled standard deviation) of `a` against `b`.
    static func compare(_ a: Summary, _ b: Summary) -> (t: Double, d: Double) {
        let t = (a.mean - b.mean) / (a.sd * a.sd / Double(a.count) + b.sd * b.sd / Double(b.count)).squareRoot()
        let pooled =
            (((Double(a.count) - 1) * a.sd * a.sd + (Double(b.count) - 1) * b.sd * b.sd)
            / Double(a.count + b.count - 2)).squareRoot()
        return (t, (a.mean - b.mean) / pooled)
    }

    /// Keeps the samples at or below the `percentile` of all samples (dudect's cropping: the
    /// tail is scheduler preemption and page faults), the same cut for both classes.
    static func trimmed(_ a: [Double], _ b: [Double], percentile: Double) -> ([Double], [Double]) {
        let all = (a + b).sorted()
        let cut = all[min(all.count - 1, Int(Double(all.count) * percentile))]
        return (a.filter { $0 <= cut }, b.filter { $0 <= cut })
    }

    /// This thread's CPU time in nanoseconds: time the thread was preempted does not count, so a
    /// loaded machine adds far less noise than to wall-clock time.
    static func threadNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func run(perClass: Int) throws {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let encryptor = try JWEEncryptor(publicKey: key.publicKey, keyID: "timing")
        let decryptor = try JWEDecryptor(privateKey: key)
        let good = try encryptor.encrypt(Array("4111111111111111".utf8))
        var parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // Class B: change the first tag character to another base64url letter.
        var tag = Array(parts[4].utf8)
        tag[0] = tag[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[4] = String(decoding: tag, as: UTF8.self)
        let badTag = parts.joined(separator: ".")
        // Class A: a random k-byte encrypted key (OAEP decoding fails with overwhelming probability).
        var random = [UInt8](repeating: 0, count: key.publicKey.byteCount)
        for i in random.indices { random[i] = UInt8.random(in: 0...255) }
        random[0] &= 0x7F  // below the modulus, so the failure is the padding, not the range
        parts[1] = Base64.encode(random, alphabet: .url, padding: false)
        let badOAEP = parts.joined(separator: ".")
        // Both fail identically.
        for jwe in [badTag, badOAEP] {
            do { _ = try decryptor.decrypt(jwe); fatalError("a tampered JWE decrypted") } catch {
                precondition(error.code == .jweDecryptionFailed)
            }
        }
        /// (wall µs, thread-CPU µs) of one call.
        func time(_ jwe: String) -> (Double, Double) {
            let wall = nowNanoseconds(), cpu = threadNanoseconds()
            blackHole(try? decryptor.decrypt(jwe))
            return (Double(nowNanoseconds() - wall) / 1_000, Double(threadNanoseconds() - cpu) / 1_000)
        }
        for _ in 0..<2_000 { _ = time(badTag); _ = time(badOAEP) }  // warm-up
        var order = [Bool](repeating: true, count: perClass) + [Bool](repeating: false, count: perClass)
        order.shuffle()
        var callA: [(Double, Double)] = [], callB: [(Double, Double)] = [], nextA: [(Double, Double)] = [], nextB: [(Double, Double)] = []
        for isA in order {
            let call = time(isA ? badOAEP : badTag)
            let next = time(badTag)
            if isA { callA.append(call); nextA.append(next) } else { callB.append(call); nextB.append(next) }
        }
        print("cse-bench --oaep-timing: \(perClass) calls per class, interleaved at random; RSA-2048, RSA-OAEP + A256CBC-HS512;")
        print("A = bad OAEP padding, B = good padding with a bad tag; times in µs; each line keeps the samples at or below")
        print("a percentile of both classes together (dudect-style cropping of preemption and page faults)")
        for (name, a, b) in [("measured call", callA, callB), ("next call (always B)", nextA, nextB)] {
            for (clock, pick) in [("thread CPU", { (x: (Double, Double)) in x.1 }), ("wall", { (x: (Double, Double)) in x.0 })] {
                for percentile in [0.5, 0.9, 0.99] {
                    let (ta, tb) = trimmed(a.map(pick), b.map(pick), percentile: percentile)
                    let sa = Summary(ta), sb = Summary(tb)
                    let (t, d) = compare(sa, sb)
                    print(
                        String(
                            format:
                                "%@, %@ ≤ p%.0f: A mean %.3f median %.3f sd %.3f (n %d) | B mean %.3f median %.3f sd %.3f (n %d) | A−B %+.3f µs, Welch t %.2f, Cohen's d %.3f",
                            name, clock, percentile * 100, sa.mean, sa.median, sa.sd, sa.count, sb.mean, sb.median, sb.sd, sb.count,
                            sa.mean - sb.mean, t, d))
                }
            }
        }
    }
}
