// Wallet benchmark fixtures: tokens and keys of CSEKit's OWN test PKIs (never Apple's or Google's),
// minted once by the test minters and pasted here so the benchmark needs neither Python nor
// ../shared:
//   echo '[{"name":"ec"},{"name":"rsa","version":"RSA_v1"}]' | Tests/Interop/apple_pay_minter.py
//   Tests/Interop/google_pay_minter.py 1700000000000      (the first case, "ECv2: a valid token decrypts")
// swift-format-ignore-file

enum WalletFixtures {

    static let appleRoot = #"""
        -----BEGIN CERTIFICATE-----
        MIIBTDCB86ADAgECAhRXO5rkIZlqpX+O8qMeo5BxFPA18jAKBggqhkjOPQQDAjAU
        MRIwEAYDVQQDDAlUZXN0IFJvb3QwHhcNMjAwMTAxMDAwMDAwWhcNNDAwMTAxMDAw
        MDAwWjAUMRIwEAYDVQQDDAlUZXN0IFJvb3QwWTATBgcqhkjOPQIBBggqhkjOPQMB
        BwNCAASgjFaE+FpzNre/wDJvJvyucgtbzgNxneP4vTkgocl9UzotmooIHhWftRt4
        HOBj4+TeZ3pLMRjnZsIJvkuPXF8loyMwITAPBgNVHRMBAf8EBTADAQH/MA4GA1Ud
        DwEB/wQEAwIBBjAKBggqhkjOPQQDAgNIADBFAiEAorQx+FzJnkkz1NpGCjZaXKWQ
        jCNOxBePkK8FAFz24vQCIGFf/QdKjAn9Rk1yQLSvYTlCJYknopiZkgNg/O9sGf3S
        -----END CERTIFICATE-----
        """#

    static let appleMainCertificate = #"""
        -----BEGIN CERTIFICATE-----
        MIIBozCCAUqgAwIBAgIUMNjr0xL/8ZPyUscqRiAxpE/JlM8wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJVGVzdCBSb290MB4XDTIwMDEwMTAwMDAwMFoXDTQwMDEwMTAw
        MDAwMFowLTErMCkGA1UEAwwibWVyY2hhbnQgbWVyY2hhbnQuY29tLmV4YW1wbGUu
        dGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDSa4/uXvYE7h/97VH9OTiJP
        TJvr6XZRsta09CiGhJBIV6hKZM0WziIe2duxMumKDpdNEy7ZEBBIHv2cFHsr8bmj
        YTBfMAwGA1UdEwEB/wQCMAAwTwYJKoZIhvdjZAYgBEIMQDZDRjVDQTMyRDVBMTVC
        RUMyRTk0QzU4MkI1QzQxOTM1NzBFREVEQTM1OTc2NThFMDhGOUMyQjdBOEREMjIz
        RjEwCgYIKoZIzj0EAwIDRwAwRAIgdCNDqd9x2AV0qYFsGofRg66gs52p1G6CPbut
        GE4My9sCIHvfXJcdwHdkGt/jk+DNA7hspvPrQIZD2JXqnLnyIYSS
        -----END CERTIFICATE-----
        """#

    static let appleMainKey = #"""
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgpxTJB1sOFjE4tD4J
        iSaknucsqAX3CKC0XIj482avooChRANCAAQ0muP7l72BO4f/e1R/Tk4iT0yb6+l2
        UbLWtPQohoSQSFeoSmTNFs4iHtnbsTLpig6XTRMu2RAQSB79nBR7K/G5
        -----END PRIVATE KEY-----
        """#

    static let appleRsaCertificate = #"""
        -----BEGIN CERTIFICATE-----
        MIICcDCCAhWgAwIBAgIUWATk08/mdAjJ4e2Riy0PMzHF0dAwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJVGVzdCBSb290MB4XDTIwMDEwMTAwMDAwMFoXDTQwMDEwMTAw
        MDAwMFowLTErMCkGA1UEAwwibWVyY2hhbnQgbWVyY2hhbnQuY29tLmV4YW1wbGUu
        dGVzdDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBALC03RclSqr/+hbK
        K+ZY6wbaos8a6ILVSafIQrH8w10fJtVcU+v6XUo7/ewmPe5vCTutPQvQpJZK3mSi
        myqYCW469m1zUeT+qXsRW66AOtgVHcWRjfSYh45FhhfLZniqzDMjuAd2MYCA1m5n
        fjwBCTYCc5KosQHxZeSszY18d99AB1sK3OwAWCw4th8b/3DW8hvNc6z+tgOvFU3p
        xI3Grguua3JN3xNBlxRwDmFthrWpAn/WnJ5NbNSH5q1yEYBwL3ZM+/NjOreb2V7q
        TObMfgwVwvGxhVmoiqIQ4x4LthZHFGtgt+NAEcrBIdc3UQjKNUkUlwY0jtcbJO3Z
        goUm8ykCAwEAAaNhMF8wDAYDVR0TAQH/BAIwADBPBgkqhkiG92NkBiAEQgxANkNG
        NUNBMzJENUExNUJFQzJFOTRDNTgyQjVDNDE5MzU3MEVERURBMzU5NzY1OEUwOEY5
        QzJCN0E4REQyMjNGMTAKBggqhkjOPQQDAgNJADBGAiEAwRPP7nkiv3bIredNhxOP
        0X8V53toQfoV9Kuyr3o5OaECIQC6TfVfgdMEKowWqRDhjnySnuiY34xl0dgOzlMP
        dI3KBA==
        -----END CERTIFICATE-----
        """#

    static let appleRsaKey = #"""
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCwtN0XJUqq//oW
        yivmWOsG2qLPGuiC1UmnyEKx/MNdHybVXFPr+l1KO/3sJj3ubwk7rT0L0KSWSt5k
        opsqmAluOvZtc1Hk/ql7EVuugDrYFR3FkY30mIeORYYXy2Z4qswzI7gHdjGAgNZu
        Z348AQk2AnOSqLEB8WXkrM2NfHffQAdbCtzsAFgsOLYfG/9w1vIbzXOs/rYDrxVN
        6cSNxq4LrmtyTd8TQZcUcA5hbYa1qQJ/1pyeTWzUh+atchGAcC92TPvzYzq3m9le
        6kzmzH4MFcLxsYVZqIqiEOMeC7YWRxRrYLfjQBHKwSHXN1EIyjVJFJcGNI7XGyTt
        2YKFJvMpAgMBAAECggEAFTnfO5zcJ5xQreoidIIGgVqZUf1ueUDQ9IQ8FrtBEG+M
        hPaZPMW57Q/gbucia1YP1Yj4G0eNwwvtQ54Qu4DAfpWQl7x8KuC4T7MvFdALbCdl
        Mx/1MwYbdRM+30mB3p7NoUWky9NTxkGJAIFoCsx+ZGwjoTX9mo56ad9OtbSCMGEt
        KAtDyz7cS58bUYEMNNXk9lReAk8ArxZtpWxGb5dpl7VCaeE1i9GU7X67iPOMlLp+
        vwe0OzB/XzJ7YG4J/exWWCQv20jfRqmCZOI56+nV+EkcHv7DM6864eGEe9wXvGCM
        oTFdhodJgFqID8df1ksg5LDQgF/RjvJGA0kCjOKNHQKBgQDU9zB4Sd2VXRfzrLuU
        rEx1NFOK8JC1WH9PlK/k09ilVwQr9vlVCnXSnpXshAhA6eO9qpDQdbGF84RQfjt7
        bitNviue53z6GBkC5vS+5qbVBZ4IFlU/fAuuJboJh8qbhhyk9OtQoAyMrfhiMv2T
        Fq7sPuQlvhebCRiOZY7MA6ShfwKBgQDUafmCFvoNJH+x9iRwmm++Arzw/BcwJ333
        p+KbxuCWPC/oYXJS074YlZoDyMPXlIpDmhslVDyPSy6qm/QzikkqX2mF6E+S7Aj/
        j0xohfs3Sq3UBeuyXesgdSD0RdDyvqMMRwkJp51xrYOcU6Eh2AnRCjhs0gmHp4Nd
        R+dRlNJvVwKBgQDCxyJJoiVLis1xTLZzj/KN78HI/aUcd0hZXMBTJX6sGh3yp/v6
        z4pbjDfLDicOV9y3h9zTDBHFVafahtmYVna8sAXtXANuKcQWZ23Je+NySaTz+JkX
        azizmkXAmbWw8MQaCvd90iQoNqVKCyDo+oIaCJtZ+bZVUchn1HL6HQrhuQKBgQCn
        8784MEi4mZJqOTBo5IPUHsAcX4dKKP++ET3pZB/ySlarDFnjyc62C5wCv/yx+Z41
        g6VRJ8DWoGCev78f/YiKe3SpT52TkxQuVbTZtI6FEoRNb/0ERKSEPni3DHkBZuDu
        9T/dJW4lE0hMFAgFBZgFdGpXCOBGJZqF6DOr2ttk8wKBgFiJbjXNZdHSWsi5E8O9
        lCgmBHqKIUelCUX7JH1UUyaimSCOb5U5oWQWSZiwL4mEUovvAAHDWh5hZJOLbYnN
        rlkfDaIhEi1xEsg8ko/sFa1hDoeItiRfsrBAhJPLxoE1xew+tcuppo2KY6Yl3a5v
        oA5aRmY7oJlRctQLkHua/iPs
        -----END PRIVATE KEY-----
        """#

    static let appleECToken = #"""
        {"version":"EC_v1","data":"DdcIzZ3PF7pJHBOYxRUj3mEc6A0ZrZP7+2smOyX2Oxg+XCrMSoEWFtM6IWrv2WQUZWh2RdO4sgmDaMCttc/DjDx/QzwrfjL6mHeF3RHFFu8pnEd2wZblFVieGyEdHQ70TsRg9HRshqO7JGG7N3ePDDEEB2MwyZv5hFh4NikiVECSfquUYTMZAFmR94cc8tCykvS6WeZLTa2gpohJ3E/NQPQ/zJWofOqwQ3TIdAtAoaf7Et6CH77NYGrzVuFrt/hRQQq7mv10MwJHeCkAWauHs2d/Lt55VcOfAJmTd2QXjKj+nWBSHHujKvF3waJq2p4X7IhwzFQH+mciwbu9gCG931iGiySqNZ4u8B1+rg0M2e9D2iAihHQZj1p6Tde9hHXduL0jcoOdoWNOW5qPHToAP4uwgwrjTXep2NcgyVgCI2Y=","signature":"MIIEPgYJKoZIhvcNAQcCoIIELzCCBCsCAQExDzANBglghkgBZQMEAgEFADALBgkqhkiG9w0BBwGgggLnMIIBazCCARKgAwIBAgIUHTrcrP3LbOxOgjbdCLihQMmp92YwCgYIKoZIzj0EAwIwKjEoMCYGA1UEAwwfVGVzdCBBcHBsaWNhdGlvbiBJbnRlZ3JhdGlvbiBDQTAeFw0yMDAxMDEwMDAwMDBaFw00MDAxMDEwMDAwMDBaMB8xHTAbBgNVBAMMFHRlc3Qtc21wLWJyb2tlci1zaWduMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEjiFqXyb7jdiyMn86Oq5Zy7k78WaCHyIMgbL+RunWc7aCjH6h3/eKZV+s7GGS7cIc+fwK0z5eQPRtgpgoDXQvqaMhMB8wDAYDVR0TAQH/BAIwADAPBgkqhkiG92NkBh0EAgUAMAoGCCqGSM49BAMCA0cAMEQCIBjVUwlqhb+HI+S26XipNWNc74VJ8leXXfPgZZAFoxTXAiArejhLKNeh0jjAweYLFbPeJ7kJieGMRGfQgtpc6lWLfTCCAXQwggEboAMCAQICFGhvOQgze1tM8zL7Qza5UMd8gNy3MAoGCCqGSM49BAMCMBQxEjAQBgNVBAMMCVRlc3QgUm9vdDAeFw0yMDAxMDEwMDAwMDBaFw00MDAxMDEwMDAwMDBaMCoxKDAmBgNVBAMMH1Rlc3QgQXBwbGljYXRpb24gSW50ZWdyYXRpb24gQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASY3gN4zWa7unRxVZDYlu2lLwzwjQBwVKATj/muetd4bcXFIJL9+XavZRYHYYQFNtogW46DwRYxD4etICaR8jqFozUwMzAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAQBgoqhkiG92NkBgIOBAIFADAKBggqhkjOPQQDAgNHADBEAiBI8njyu9sRsaWINJmZCrukswrnojc4cw9qCsYk+DI8mwIgOIi37pwHI554TNm/T5XsPKJrt7xm2qr8gM2ZzpS2fekxggEbMIIBFwIBATBCMCoxKDAmBgNVBAMMH1Rlc3QgQXBwbGljYXRpb24gSW50ZWdyYXRpb24gQ0ECFB063Kz9y2zsToI23Qi4oUDJqfdmMA0GCWCGSAFlAwQCAQUAoGkwGAYJKoZIhvcNAQkDMQsGCSqGSIb3DQEHATAcBgkqhkiG9w0BCQUxDxcNMjUwNjAxMTIwMDAwWjAvBgkqhkiG9w0BCQQxIgQgeCiRG574ShYs6E6+l2DwKJrjQCI6nkA/D5rI+1zuM3IwCgYIKoZIzj0EAwIESDBGAiEA9GK4tjWnHX2vW7+4OIAun8Et4CUwMbVQqHNKcqKtObICIQCO3YUQEWgnyufE3CQaR2eUg/OSp3Tczkaly26c8ONnbw==","header":{"ephemeralPublicKey":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE01YclS5MnJ6KLdgl2hsYKOCBbNwIQQOVdIGDxH+7Q12qC4HK3cRD0QtYM0e/wXF/kq0ALBfmYLW1mPn+JWx60Q==","publicKeyHash":"OdHdO0TMaQnKwbJ9sLkHhExGgG28SQUi7Kq8ylnrAOM=","transactionId":"4a7bcdb9c0637a46ed4e9cf62fdba816b1d15bebdc822612389c8a5b3120c604"}}
        """#

    static let appleECTokenSigningTime: Int64 = 1748779200

    static let appleRSAToken = #"""
        {"version":"RSA_v1","data":"ebCe7fSnQexjhBBec8R/4bWfyJlfAvH4kd3Ro/YtO6AFxD0LnwqeIBrDRAgJC2mCcTBoZGqTITLEqpC9SsrJezXsnh1Djsy+LQgBGM4HQd1/RUETEKLvG2sbeBJ2uhhfjWFKO4zyrBBGOixIqTuRbc5De0hNrPF9tG+HehQaOL+sjtRIzbf5FBONYcZzKSPGag4CgRXvxE8Q8UgAtUsqPyDZ+HXh9LwlvFBTCiYss98LUmW76fGjMvYnRQ+uP9+TXeQWLMN871fsKZqMETdZdYqvvwiD/ME2kgtPYFCYo1gkFfEp/i/nunRu9sULTpZJVMIiVqhXi9DkWpNLW9HS5P/TUv0+BadMvnKmFcaPrEDEXuJkTQsKC1PZOtC0PQ5xfQ23qF+PDzRxV6s7EAUAzKfSEgMNxdUr4R9uLK5sJZg=","signature":"MIIEPwYJKoZIhvcNAQcCoIIEMDCCBCwCAQExDzANBglghkgBZQMEAgEFADALBgkqhkiG9w0BBwGgggLqMIIBbDCCARKgAwIBAgIUFDhadhP/ZqyBobImj5vZfLEzn/4wCgYIKoZIzj0EAwIwKjEoMCYGA1UEAwwfVGVzdCBBcHBsaWNhdGlvbiBJbnRlZ3JhdGlvbiBDQTAeFw0yMDAxMDEwMDAwMDBaFw00MDAxMDEwMDAwMDBaMB8xHTAbBgNVBAMMFHRlc3Qtc21wLWJyb2tlci1zaWduMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEjiFqXyb7jdiyMn86Oq5Zy7k78WaCHyIMgbL+RunWc7aCjH6h3/eKZV+s7GGS7cIc+fwK0z5eQPRtgpgoDXQvqaMhMB8wDAYDVR0TAQH/BAIwADAPBgkqhkiG92NkBh0EAgUAMAoGCCqGSM49BAMCA0gAMEUCIBGD2P3mAhwfUZgZdmN+4+Iq+HejMZOJyunDS/cTZnunAiEA7yPy7DlBH6ez+kGJr7Gn4SDoKoi7kswB1mRldaGO0OYwggF2MIIBG6ADAgECAhRfPa0Ix4NEFEV60Gac4UK9p2hb0TAKBggqhkjOPQQDAjAUMRIwEAYDVQQDDAlUZXN0IFJvb3QwHhcNMjAwMTAxMDAwMDAwWhcNNDAwMTAxMDAwMDAwWjAqMSgwJgYDVQQDDB9UZXN0IEFwcGxpY2F0aW9uIEludGVncmF0aW9uIENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEmN4DeM1mu7p0cVWQ2JbtpS8M8I0AcFSgE4/5rnrXeG3FxSCS/fl2r2UWB2GEBTbaIFuOg8EWMQ+HrSAmkfI6haM1MDMwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwEAYKKoZIhvdjZAYCDgQCBQAwCgYIKoZIzj0EAwIDSQAwRgIhAMSis90Mf0TqokVl3TFBsbr+g1sFTZbvCj4YktRQUds+AiEA3SLAYj4Jzgpw0mXkj3srbILUJ95NoRowXm7NfazB8JQxggEZMIIBFQIBATBCMCoxKDAmBgNVBAMMH1Rlc3QgQXBwbGljYXRpb24gSW50ZWdyYXRpb24gQ0ECFBQ4WnYT/2asgaGyJo+b2XyxM5/+MA0GCWCGSAFlAwQCAQUAoGkwGAYJKoZIhvcNAQkDMQsGCSqGSIb3DQEHATAcBgkqhkiG9w0BCQUxDxcNMjUwNjAxMTIwMDAwWjAvBgkqhkiG9w0BCQQxIgQgxFgmneiSatKWAm5Vfd7eaIu0aAN/CnspGq+6UE/jro4wCgYIKoZIzj0EAwIERjBEAiAEIpRttEgvv2o15BTZ2DVjeHKI4IMzs6+Fpg3BAIP4ngIgSxmnOkHu5glYcjK2IaNPNd5d3KkrGbY2AeSJ2WbiwKU=","header":{"wrappedKey":"NqQnyxTsOPsv2ApJAQepX30fXYc75pUy02KTJZ7CFJ9jSn57f4qHl91B5OQsGrsyvb1m0LI38ejPYEEwhOhCmuF5zox9608QLgTkTOEU4KELvppGhQvxT5TYYGWrB+l/xpivSvlO4aPrcKU5WhLqz+dpxvCq7/a4ryfruD9QtHg/C4mf7Y8ZGJ+tsMj1EwkIsEUVvajsM35kqZ0VFoFBu0NZnhifSiVSGybbfjFk7TF/YFreMYONJWISgstGYkd8xhSZh6nx5LbWA0w+l3L33M7eraWGFTqGatY4OnI3AZfChylC/o3vL5TJIb//OZduhodXjAfm9A2+N93oQLN/Mw==","publicKeyHash":"mIjTV0YqD/4lT8ySScUMSTzwlPS2ZFQh9JnB+BG/cs0=","transactionId":"f2981e8df30e8230c30f1bfd872345dceea37a91ae25d23d23da555728065867"}}
        """#

    static let appleRSATokenSigningTime: Int64 = 1748779200

    static let googleToken = #"""
        {"protocolVersion": "ECv2", "signedMessage": "{\"encryptedMessage\":\"wz8j4NDkKeU/rtIoPPUoJe22p+u/KLNHArFTi5SY0DBHWfdRlkp0bEHoIyInoroPEAt4HBVpAjnT3RthmNfAx4XZARoFLKr0biWalyZeU7NPPPBX6bygyxxhTrRJI/hQrWPS1b3p9XHEenEW9u3c/T49Jrp/HRvZthxhGVMtS2rjkh9H1+hJ9Uu2RZNU65gCCsCkny23dgBHH4GriE4tcGqPCMr5wuoI/ves66sW4Bfq7gu9o2Q+XUusvlw7Luojapz9i/0G/SArXtTy1bVgVCjDXPPtE94xTx5HqXe5uohC5GN7DSs7YvaWMYT3zteV8SRHFBQjJgwLIaLE5sC6xGl9rWdMpHXNOBtafhCK2FS7KUkl9QfeAtSOpRVNzpHB3bhTGFCZpxvf1l1dnlcpqgUX/0DnqCGtFZPNpK9PNVZmQsdyVmG7HMEl8NPf9A==\",\"ephemeralPublicKey\":\"BEKvspRp5ps3loDIHoq07+12DPe/w9E7Hf2agxwh6KCfkYvrbugPomIf0gDTV6s7UK4CZ2mcwFvmdGLRgkTbMLk=\",\"tag\":\"xGyWMl/oY6qsxfmP+LWcZtf3MBZMVcU1q1PaCiKdcXk=\"}", "intermediateSigningKey": {"signedKey": "{\"keyValue\":\"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDF/f+LdqaAkw5GLEDPuMVysjGb+cayOP+ClRHBX7ux2IB1yUUtq363AmfE7dAQ81s/CMNNkDm+/u87p+y0Kq5Q==\",\"keyExpiration\":\"1700604800000\"}", "signatures": ["MEUCIFcQdYF7vOcmf3cMtPccCnYlHMZhTsHu5idIWzWB9asMAiEAp5rYuGXeAEklumEEQ+xnmVNkcrph/LhV5gpZI6udy8E="]}, "signature": "MEQCICl/v+jVXOG6W/fKA4Dg1ghazdKQdwEKe4ZQ1/3+N6C6AiA4aRWrQtPvNtrAWqwpT5rpzBThu3BaC/CJeZvQ2JHLJg=="}
        """#

    static let googleRootKeys = #"""
        {"keys": [{"keyValue": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEyvOAIlCuAJK8wh/KRDZEM1mJtg3cBFZ8rfz9PKzu9Sdtm7MoEThZmNUGnL0x0XkLnxxuzT8+kayr3BhrCN5Z7w==", "protocolVersion": "ECv2", "keyExpiration": "1731536000000"}]}
        """#

    static let googleKey = #"""
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3lbZRF8cfZ8tAhhP
        2ls8GidRu8lihSbCvuc81gwOtrqhRANCAAQRtUr5W9RXymd4mS6DFSGlOn8EIsy5
        VhHBykuLPvtc8EfcQ8hJVWMrzbUXKYbG1BFwuQ136AOcCWmxFU2NBgdi
        -----END PRIVATE KEY-----
        """#

    static let googleRecipient = "merchant:12345678901234567890"

    static let googleClock: Int64 = 1700000000000

}
