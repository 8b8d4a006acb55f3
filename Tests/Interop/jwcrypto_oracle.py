#!/usr/bin/python3
"""An independent JOSE implementation (Debian python3-jwcrypto) used as an oracle by the tests.

Batch protocol, one item per line so one interpreter start serves many cases:
  decrypt --key PRIVATE.pem      stdin: compact JWEs        stdout: hex of each plaintext, or ERROR <reason>
  encrypt --key PUBLIC.pem --alg A --enc E [--kid K]
                                 stdin: hex plaintexts      stdout: one compact JWE per line
  header                         stdin: compact JWEs        stdout: the protected header JSON, sorted keys
"""
import json
import sys

from jwcrypto import jwe, jwk
from jwcrypto.common import json_encode


def load_key(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data.lstrip().startswith(b"{"):
        return jwk.JWK.from_json(data.decode())
    return jwk.JWK.from_pem(data)


def main(argv):
    mode = argv[1]
    args = dict(zip(argv[2::2], argv[3::2]))
    out = sys.stdout
    if mode == "decrypt":
        key = load_key(args["--key"])
        for line in sys.stdin:
            token = line.strip()
            try:
                obj = jwe.JWE()
                obj.deserialize(token, key=key)
                out.write(obj.payload.hex() + "\n")
            except Exception as error:  # the oracle reports, the Swift test judges
                out.write("ERROR " + type(error).__name__ + "\n")
    elif mode == "encrypt":
        key = load_key(args["--key"])
        header = {"alg": args["--alg"], "enc": args["--enc"]}
        if "--kid" in args:
            header["kid"] = args["--kid"]
        for line in sys.stdin:
            payload = bytes.fromhex(line.strip())
            obj = jwe.JWE(payload, json_encode(header))
            obj.add_recipient(key)
            out.write(obj.serialize(compact=True) + "\n")
    elif mode == "header":
        from jwcrypto.common import base64url_decode
        for line in sys.stdin:
            protected = line.strip().split(".")[0]
            out.write(json.dumps(json.loads(base64url_decode(protected)), sort_keys=True) + "\n")
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
