internal import CSECore
internal import COpenSSL

/// Checks that the eight integers of a two-prime RSA private key belong together (RFC 8017 §3.2):
///
/// - n = p·q, with p, q > 1;
/// - e·d ≡ 1 (mod p − 1) and (mod q − 1), so d inverts e modulo λ(n);
/// - dP = d mod (p − 1), dQ = d mod (q − 1);
/// - qInv < p and q·qInv ≡ 1 (mod p).
///
/// These are the arithmetic checks of OpenSSL's `RSA_check_key` without its primality tests, which
/// cost tens of milliseconds per import; a key whose factors are not prime cannot satisfy them by
/// accident, and corruption of any component is caught. Temporaries are cleared when freed.
enum RSAKeyConsistency {
    static func check(_ key: RSAKeyStructures.PrivateComponents) throws(CSEError) {
        guard let ctx = BN_CTX_new() else { throw CSEError(.keyOperationFailed, "OpenSSL could not allocate a BN_CTX") }
        defer { BN_CTX_free(ctx) }
        let n = try BigNumber(bigEndian: key.modulus), e = try BigNumber(bigEndian: key.publicExponent)
        let d = try BigNumber(bigEndian: key.privateExponent)
        let p = try BigNumber(bigEndian: key.prime1), q = try BigNumber(bigEndian: key.prime2)
        let dp = try BigNumber(bigEndian: key.exponent1), dq = try BigNumber(bigEndian: key.exponent2)
        let qi = try BigNumber(bigEndian: key.coefficient)
        let r = try BigNumber(), pMinus1 = try BigNumber(), qMinus1 = try BigNumber(), ed = try BigNumber()

        func inconsistent(_ what: String) -> CSEError {
            ERR_clear_error()
            return CSEError(.keyMalformed, "the RSA private key components are inconsistent", context: ["check": what])
        }
        guard BN_is_zero(p.pointer) == 0, BN_is_one(p.pointer) == 0, BN_is_zero(q.pointer) == 0, BN_is_one(q.pointer) == 0 else {
            throw inconsistent("p, q > 1")
        }
        guard BN_mul(r.pointer, p.pointer, q.pointer, ctx) == 1, BN_cmp(r.pointer, n.pointer) == 0 else {
            throw inconsistent("n = p·q")
        }
        guard BN_copy(pMinus1.pointer, p.pointer) != nil, BN_sub_word(pMinus1.pointer, 1) == 1,
            BN_copy(qMinus1.pointer, q.pointer) != nil, BN_sub_word(qMinus1.pointer, 1) == 1,
            BN_mul(ed.pointer, e.pointer, d.pointer, ctx) == 1
        else { throw inconsistent("arithmetic") }
        guard BN_div(nil, r.pointer, ed.pointer, pMinus1.pointer, ctx) == 1, BN_is_one(r.pointer) == 1,
            BN_div(nil, r.pointer, ed.pointer, qMinus1.pointer, ctx) == 1, BN_is_one(r.pointer) == 1
        else { throw inconsistent("e·d ≡ 1") }
        guard BN_div(nil, r.pointer, d.pointer, pMinus1.pointer, ctx) == 1, BN_cmp(r.pointer, dp.pointer) == 0,
            BN_div(nil, r.pointer, d.pointer, qMinus1.pointer, ctx) == 1, BN_cmp(r.pointer, dq.pointer) == 0
        else { throw inconsistent("dP, dQ") }
        guard BN_cmp(qi.pointer, p.pointer) < 0, BN_mod_mul(r.pointer, qi.pointer, q.pointer, p.pointer, ctx) == 1,
            BN_is_one(r.pointer) == 1
        else { throw inconsistent("qInv") }
    }
}
