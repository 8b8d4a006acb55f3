internal import CSECore
internal import CGMP

/// RSAEP with GMP: the key's modulus and exponent are `mpz_t`s created once, the first
/// time the GMP engine encrypts with the key; each call
/// uses two per-thread scratch integers for the base and the result, whose limbs are zeroed after
/// every operation.
final class GMPPublicOperation: RSAPublicOperation, @unchecked Sendable {
    private let modulus: GMPInteger
    private let exponent: GMPInteger

    init(modulus modulusBytes: [UInt8], exponent exponentBytes: [UInt8]) {
        modulus = GMPInteger(bigEndian: modulusBytes)
        exponent = GMPInteger(bigEndian: exponentBytes)
    }

    func apply(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CSEError) {
        let scratch = gmpScratch.current
        let base = scratch.base
        let result = scratch.result
        defer {
            GMPInteger.wipe(base)
            GMPInteger.wipe(result)
        }
        if let address = input.baseAddress {
            __gmpz_import(base, input.count, 1, 1, 1, 0, address)
        } else {
            GMPInteger.wipe(base)
        }
        guard __gmpz_cmp(base, modulus.pointer) < 0 else {
            throw CSEError(.rsaOperationFailed, "the RSA input is not smaller than the modulus")
        }
        __gmpz_powm(result, base, exponent.pointer, modulus.pointer)
        // mpz_sizeinbase(x, 256) is 1 for zero, so compute the byte length from the bit length.
        let byteLength = result.pointee._mp_size == 0 ? 0 : (__gmpz_sizeinbase(result, 2) + 7) / 8
        guard let out = output.baseAddress, byteLength <= output.count else {
            throw CSEError(.rsaOperationFailed, "GMP RSA result does not fit the modulus length")
        }
        let padding = output.count - byteLength
        output.baseAddress?.initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        var written = 0
        if byteLength > 0 {
            __gmpz_export(out + padding, &written, 1, 1, 1, 0, result)
        }
        guard written == byteLength else {
            throw CSEError(.rsaOperationFailed, "GMP exported an unexpected length")
        }
    }
}

/// Two `mpz_t` per thread, at stable heap addresses.
private final class GMPScratch {
    let base: UnsafeMutablePointer<__mpz_struct>
    let result: UnsafeMutablePointer<__mpz_struct>

    init() {
        base = .allocate(capacity: 1)
        result = .allocate(capacity: 1)
        __gmpz_init(base)
        __gmpz_init(result)
    }

    deinit {
        GMPInteger.wipe(base)
        GMPInteger.wipe(result)
        __gmpz_clear(base)
        __gmpz_clear(result)
        base.deallocate()
        result.deallocate()
    }
}

private let gmpScratch = PerThread { GMPScratch() }
