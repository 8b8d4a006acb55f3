package import CSECore
package import CSECrypto
package import CSEPayments


/// The bundled **TEST-ONLY** demo RSA-2048 key pair, so the CLI demo and the tests can seal and
/// open payloads without a Client API call.
///
/// - Warning: The private key is public: it ships in this source file. Anything sealed with
///   the demo public key can be read by anyone. ``PaymentRequestSealer`` refuses the demo key
///   unless the caller passes `allowDemoKey: true`
///   (``CSEError/Code/paymentsDemoKeyRefused``). Never use it with real customer data.
package enum DemoKeys {
    /// The demo key's `kid`; the name says what it is.
    package static let testOnlyKeyID = "csekit-demo-key-TEST-ONLY"

    /// The TEST-ONLY public key, PEM SubjectPublicKeyInfo.
    package static let testOnlyPublicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAiwEaSkLWLZnk2RYO4gdE
        BdJXM0NWJo+011khB4Qt6HIdKsNk/stbh4uAf0xfFTl05gDjo1o9eLhb8AQIWPGI
        EXi2uDUPFUSjG4978aMxTY+o9lTFlw/mq8AXRiBTo3idC/aVjCG3ecoEYEJFCE53
        gtNKqJftbFK0nF2q/ucyPxJxAIqw1b8X/fsu94b5B7S81MAAKCJvmIuyA5Bs6jG+
        TCx/2VbkDRLr2CvmTz+7qBOLpb2dGrGAtJwojkdU8ptTP9+9SEA3JZFaG6LheQCj
        aCCiYahP1PymLdobu9ov4TSLlY9LmUfJ+JSv7vEjwnr35X6CePMkInt+2xbiGPu/
        IwIDAQAB
        -----END PUBLIC KEY-----
        """

    /// The TEST-ONLY private key, PEM PKCS #8. Public knowledge: never protect anything with it.
    package static let testOnlyPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEuwIBADANBgkqhkiG9w0BAQEFAASCBKUwggShAgEAAoIBAQCLARpKQtYtmeTZ
        Fg7iB0QF0lczQ1Ymj7TXWSEHhC3och0qw2T+y1uHi4B/TF8VOXTmAOOjWj14uFvw
        BAhY8YgReLa4NQ8VRKMbj3vxozFNj6j2VMWXD+arwBdGIFOjeJ0L9pWMIbd5ygRg
        QkUITneC00qol+1sUrScXar+5zI/EnEAirDVvxf9+y73hvkHtLzUwAAoIm+Yi7ID
        kGzqMb5MLH/ZVuQNEuvYK+ZPP7uoE4ulvZ0asYC0nCiOR1Tym1M/371IQDclkVob
        ouF5AKNoIKJhqE/U/KYt2hu72i/hNIuVj0uZR8n4lK/u8SPCevflfoJ48yQie37b
        FuIY+78jAgMBAAECgf9eli5NjS1j2lR4lyOJd2g4jejIX6M/zVanmWUThRFRtFTx
        XgRbXNJSAzTTaorigAM+5cJnMmcIWASd57osy8eYG/KgMxRDl9dlgz1tYwUpjss3
        OhGghjFwrXjCcnAQ/86qiIbUOoOe9aU32xOExqzyjAen5IaqlZy3MJ9eB/RcKPxc
        Q/OqPgLT0L43HqFM7uq+KXQC6ezzzGu022PAaPoozq0quqXTNaEh9yYXpg/JhSMB
        DWuaChLBzf/7TSjenW5/lLfZ2FogKZRnoTtAs65baGbJDv8eIdT2QaOciC/an937
        B2zus0bZaf2Lbo119J+MF50mQzkXRJkR/VLyQUkCgYEAwENX4AVSY40ocoHdSqjW
        JpwgvL+Nbepq2NTp0gMyHhLnuifL950EG86tQyFvhmcWRTdkzFchCn8HN3cmBtah
        NJb3RssW1MzShmQFwFR/B13TivX6Wgo9N83GPx5U1vrKpfzbzNvJbR2/GZhfNRWk
        k76wZKnWF/Xfz3oI2hdSmSUCgYEAuRXitLNV9izj06I+7Ftld9YLbhDAAsI53uf/
        OeXSwvNW8TsWN79UrzQes42iIYJD7TE6gZ8H+Zg5AnOQfcQiPMQ5Q+N/fzF8ipSf
        uK5zThDuN8LiTbUaUzJkGVsjedbRw8nwCFlgqe9GZG7uqqUJaLQCMlJhkflVTxDV
        m6Vm+KcCgYBkz+r38FJvGMkooaejSjxgKmWQEvDZvZ0g7SNdl4dj9Y3EMrHkuFQ7
        MHfxR0rvMoae7JjR/K26jzj9gGBUHZ6RsMcgO8VQ98U76p6JZsTk2/HcX3ZSWCQZ
        arCU0Ba0UvSHbLrkBCruKDbX+OmTMDIHtmlPny4/ihE8/UQ+9xO8cQKBgFDAJK30
        BFAoW6ntAoj6gzWadFgsBKnvdXI0Q91N0PtvUYJj5hiiaF8cXTy3UYJPJDWrIbyF
        1uPlrxHLu8GzPcDHV7iv2+NxgsWvfFQGAJaRum0noLaIihi8RoHtinfQ6qoCQ7BQ
        1mSt2UdeQtC+unEtADxWRu16G+coEBodOuTHAoGBAIFyutmAT0v1SWr48r+gF3nl
        vuy/vEIGIdiqvXRBpJAVY+dqUw82VtgWQiOiPqOD1un+qRqp6jligHt52wctMzx/
        9OdM1+byCH7e7UDM33q8Mb1atEkfzha4B8T+B9x9JAWBXYSiOXAvdYdCISju25Bn
        lyOEvpL9DspbkanfHA1C
        -----END PRIVATE KEY-----
        """

    /// The TEST-ONLY public key.
    package static let testOnlyPublicKey: RSAPublicKey = {
        do { return try RSAPublicKey(pemRepresentation: testOnlyPublicKeyPEM) } catch {
            fatalError("the embedded demo public key does not parse: \(error)")
        }
    }()

    /// The TEST-ONLY private key.
    /// - Throws: The key-import errors of `RSAPrivateKey(pemRepresentation:)` (not expected for
    ///   the embedded key).
    package static func testOnlyPrivateKey() throws(CSEError) -> RSAPrivateKey {
        try RSAPrivateKey(pemRepresentation: testOnlyPrivateKeyPEM)
    }

    /// The TEST-ONLY public key as a Client API response, `keyId` ``testOnlyKeyID``.
    package static var testOnlyPublicKeyResponse: PublicKeyResponse {
        PublicKeyResponse(keyID: testOnlyKeyID, key: testOnlyPublicKey)
    }
}
