// TEST-ONLY RSA keys for the fuzz targets (generated with `openssl genpkey -algorithm RSA`).
// They are public: they protect nothing. 2051 bits gives a modulus whose top byte holds only
// three bits; 3072 bits is the other common size.
enum FuzzKeys {
    static let rsa2051PEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQJm0utN0G+kdAdg
        giqg6Q4s1lZYBTtBt5PXb6w/O7W2Vj/sscDyy4raHqW6VSNlXQt0TiL3FQf9W0T+
        JArfRhk7G2WyqYXfcgtQSEneXRE5k6Fdu33wTbXCa9MYbxuQDLA4bEatpDKGhZcE
        9jtneDwYazQaO0W50dgtJff+lJwQz5vVI9dMxMXBKPbQYfMVHKXhJv0xDGMzCkbD
        MKcXB6bUFHdJqg6I8+zbi7OuuFGT3b30N9aRhHpScON6lccHz8e1lSsneFfkvkpk
        lLObIBUYuyeftdwYmY6/7dRqeNh0fJNDng8z0iLmwzhF0CLuWGPBeg0kvw4x+Vut
        FO/SxS67AgMBAAECggEAS1qbLQdYl5RXpHQaW2xqU1krGKX+KZjMDZc0n5oRibkv
        zofJY+NJ2l/v5KgzVWS+VvvjUds0W9Cy4l8dLK5VFfx5ThjJkqWnTf3+J7sftanV
        bj02O0dFpAA+eCaDVKK+z7uIPMH80KX7k3JxEhvCFHrB1lvguNyc8oj5HdetpRVw
        m0DMUCUUb5gImiuAJjSF6YD8+ELyRZQpFmNchCTSjzVndkWehSSDXW9WEnOuv38a
        gFHwOpIc3m8yGXFZnHUDcyD+31Ev8LBA/oiMkRnxlR83RTme7dFtCRZYY2YpwYDS
        VRxgo4DAX8Wc0QUEi1+Ntk56GHaBVEuBlo7V7+WtGQKBgQGxxNGMPCwRU12rDcur
        3ExGgpdWEXrzOl6mekXH3nAonGK/+iRsMl5LUE1YY3dRL6S6nZ+UYVEzfQFSRCoJ
        AnoogtNyViYw/xWd3hrzDwGbLvzXfHk0WYQgRFaEMo4Dx17U0jARwhSgGB629qiw
        jM0VpPc/eZi6sOpd4w/TE1mXzQKBgQFq2rj0Gc4tQJiwWYaTqI3dP8QhK9+BOpOu
        JFYW9VJ4MWKG0tmW53Afq6UVIYge+2yiQXitjoR7KM8MA17CI2wVWdENTFd/g3qT
        ucVY70PBHHevQlNPjjQIVyvhtTpVdQPeqAjDtUi9JYuNbpWYziMFFpvXYWxSapAQ
        Eg585qfIpwKBgQFgHucAkSQw2Fz0a9mHZOkiYAacHsqRQjPtrtqQuniP7wuWzmfc
        0TKMrt5qvyvv4t41g5k0qZ9yTarR7nW1JKan1jPx4A9WvOv+YHu+DdN+9zDXeLsn
        jPdd/jvBSwzP8nuABjRxZfy6TXo5ipg74cDmLilsBLi/7LgEiTuiXFXhjQKBgFIy
        Zf918QyzO2OHhELixfA+x7Ez/ReLK3UhahcdT6dGmKkuDnhuySmDeowE4o8SKZO/
        /RRj2oMDxZNVGBwmZg+YHxFCH/gU0qmwRZJV8SVHy5z6C2FUN1lEVf51TVeagFvp
        +MJMyMOAQ9KwIFdTKv+2FWt++EjbNvNNA9crcQq1AoGBALTDdbkDFoGSMQ0Ltsfi
        ZbTRIOY3XM1/6e0gM072DzwYhJAGSb6JFHBCBulNAmNKpNnTbNVM0mO1YXIpoJi5
        hKism7lg1Y5fui0FiARue9mxm3sy0TylE7AK0HHZ0+OKzFXr8JdmVOxBDbs+gVSB
        Y2EbFE9bQ5eaVHkf2rwpQYp+
        -----END PRIVATE KEY-----
        """

    static let rsa3072PEM = """
        -----BEGIN PRIVATE KEY-----
        MIIG/QIBADANBgkqhkiG9w0BAQEFAASCBucwggbjAgEAAoIBgQC0z5F0tATCM0Zb
        DK7Jy/GHokUSQ3Ol1zVXQ1r0E6gp1ow6uxbAvGQLIODX/8Xa+XN1ozEGDlM/EP1V
        TJkZOxpMDmEzCc+Fut1uiLxI0UP4LL25nbjVT/mgEH6cvHiN+K1uqqj51xoQc/v7
        JyZx+nLWFmidN+TM0lhd2RWJjyOHGuCzwqd3GYhd0ZhUnQVBD4wO/KiXa48fsR2x
        eejj0EYFDy5ZUxbMJUdAt3uRAm1ee1Z47jwxMbJpITosYsyUTPmSL0ZpkdqmRAuh
        2dRNoKDQKeiL9O97XoTdV5lo6mqVJ7iiXog7CWkugP/LipZZY2OYgfoy6W89JTa/
        HDrshMhNA4z5m0+Pro2fELJgZ6e98bB35FeFxSMpkMt2J2iZSt7JayVuVqqGWit8
        FXhBz9A/f6bU3qUVoMLkujTwQDbs9ytuRq26+ej/SanIf6gPloORXZ0gQFK8XOYi
        aeGO8dvdBXYGLB0GTTS4b+Er+l044ay7QwVqDDmSupcGnowWNFsCAwEAAQKCAYAS
        6kQFOW/mAQczLzh50+QIlGk1Z+kJSGJEJr+1GPlWpyM0Ya4Xq52rrFzZO+Cu77ms
        bM4MHCOJTXWzHrhFc3Fk03xHopcbHllb3uITnBDIPaX7bQyRBDTREeis7OqPr5w1
        H5VdzarkXb3WoFndQp4Q13dKOzasVrT33GXsZhUJZT5sj8iFJR6m8e5Fq8eI7t9w
        Ee5xKMdoQVch4ecDLh6lGNl4bsDLynqRwqAio2Zdo/l/3Sxe2RwY82jqi8trGEI2
        iLo8doKmxc+EgVKR2C2ZqSHFmqgn5DKSETafPrOjgk1b0L33ntvo2nN/vG4ypKxu
        FAi0+pyZDFtu32umRpAFi0weyesPQEKTv5qK1xcOa7JFqIN1gilrgOnrrn3Is69k
        atwdchGROPUqr+93zTz5lLfDMt57OFJU8ELL+0mKAxtrK8Bgi9lDOpgMacJv+0Nd
        8By/+maPq3NnB8Ou+dSRgfFvrZznrE8SHI0Yvq6PPSZAGwZBDbeQ9QwN5ZBPtEEC
        gcEA3SGLR0xk4hj5quPtIo4RFKpZ50HA8cweEZQ8Uc+QA4WorckvyOgPfwhjsIUo
        eWTpJH4ZHWEJzO0QxRAezeC03CbufM8BhAuUrjaRJSYzrM5OMinXz2yBUzZ5uypk
        gsHj2y4uzRf5xZ7b/d7J/69qYiI0ZQeEWQDTiSpTf4USok9MAOXhn3S5J2XBBp4V
        cGnPNrNej6afZAEMJT0Mafq9H4ymqGe1D5qGQ5JnJ1fdu1APPJfwowrWoeCLu7od
        wuXHAoHBANFSaDITTwjbE/gfwgJYLuEvEwWeDnrFsFhROmwKUROmzzRH6U9MiEvC
        0+JEiRe/L19i6prvZQDDLtFQuG82NjzC3glEnltFG3E3/ZfL/KxeNISnVtyrtyIj
        wBV76m20lttVvKrfI1ZLWhxXwfvAoVp2yapKXqR5MXnvLlnNKEaZVOMad2kHXBZ6
        CoykYPhHKk1kPo+8Z/3Fx/ksbrtQAVdd0MygY5WR3pvcnCw5E7tDvnTDVqQ0vhlO
        DsRo1EoszQKBwQCuWhlv8PsGDj0kkavSeANdsOdL4FtaCt+WarOYqbhaHpOd2qgz
        l01IkvvPHV6JQJhWrpnswSsyCaUUS56OI2NWxdd6TtlaHKtxJRMSIGnUEaI0CSvg
        nyPk0WnvugAf3PJkSaibCxFj0NqR84x/bfbKQz/efKvMZUtkthu5ytmjYjSB7L8V
        s7mdJ6ynJBOxW6wG7CxdxTmdZvoFjnnwQcPGUWbCF2r6T5MXSiLNMYlhfEFXPFF+
        rDgI0Hw8WwXGOtcCgcBeGAEmoW9ht7leTEhV7XYFW7fdSpOPtNX0nW75qhmQD+gM
        xFaoguqxw76jc9N8jUCqTDjRtNNeaF7fUL3XoDL5VU+iMupMdOBFILoqRlQq154c
        E20EfVwxSIjMH4veDNPTfNL2rJ+h5vV20CwvEwR1OfilSBELNj97ZH0deQ+lzL9P
        51HOMLTAldOwLSQ59yOY7nsA+dx1QzcFV2ffY7N2poF5uo+JaKz8u0qoxm+MOoOe
        0UBdSCg8D86rk8P6I/ECgcBefpiZ510selibRPKiBcCQtexI31WBNa+ecGcNokZF
        V496qJcE7MGCHB6zwGwne5wDjoj359oKu5t0bJKvuodLvKWoD1nTza7ZIkHaSQvQ
        J3jbQkuwuIs0GANXoDdlbZ3IYooEKOwK5q91wlbwSkfHXAvIzQ7DqhK5JtsJFleb
        fHiQI3ZHtxwNecrbvSgy0V4RhZz1NSH6okPNOSDO/rHr7VOQKjV+5sjf+VN/lutx
        /Eeh/aYSntViNR326f8u5A8=
        -----END PRIVATE KEY-----
        """
}
