#!/usr/bin/env python3
"""Writes the hostile regex products and requests of docs/SECURITY.md ("Regex work and memory
budgets") into a directory, for Benchmarks/regex-hostile.sh (and anyone) to feed to `cse validate`.

  python3 Scripts/regex-hostile.py OUTDIR

Files written (every product stays within the 1 MiB product-file limit):
- slow-product.json / slow-request.json: 15 fields whose pattern is
  (?:[ab]{999}|[ac]{999}|... 19 alternatives)z, and one request holding 15 values of 65,536 `a`
  (just under the 1 MiB stdin limit): the Pike VM's worst case, ~19,000 instructions x 64 KiB each.
- big-300.json, big-1000.json, big-max.json: 300, 1,000 and as many as fit in 1 MiB distinct
  regex fields of the same shape (each pattern differs in its last alternative), and
  big-request.json, a short value for field f0 only.
- fallback-max.json: as many distinct ICU-fallback patterns (a lookahead in front of the same
  shape) as fit in 1 MiB: refused with product.tooManyFallbackPatterns.
- edge-product.json / edge-request.json: the largest product the budgets accept, every pattern
  used: 10 distinct heavy patterns (the instruction budget), distinct anchored patterns that may
  each build two DFAs up to the byte budget, and 16 ICU-fallback fields; the request sets every
  field, so every pattern compiles.
- mix-product.json / mix-request.json: the worst request of an accepted product: 10 distinct
  heavy fields with 60 KB values and 16 catastrophic ICU-fallback fields with 1,024-unit values;
  mixicu-*.json the same with the ICU fields first.
"""
import json
import os
import sys

LIMIT = 1024 * 1024
LETTERS = "bcdefghijklmnopqrstuvwxy"


def heavy(index=0, prefix=""):
    """A pattern of about 19,000 instructions on the built-in engine, distinct per index."""
    alternatives = ["[a%s]{999}" % LETTERS[i] for i in range(18)]
    alternatives.append("[a%s]{%d}" % (LETTERS[18 + index % 6], 999 - (index // 6) % 900))
    return prefix + "(?:" + "|".join(alternatives) + ")z"


def field(i, pattern):
    return {
        "id": "f%d" % i,
        "type": "string",
        "dataRestrictions": {"isRequired": False, "validators": {"regularExpression": {"regularExpression": pattern}}},
        "displayHints": {"displayOrder": i, "formElement": {"type": "text"}},
    }


def product(fields):
    return {"id": "9999", "paymentMethod": "card", "fields": fields}


def dump(path, obj):
    text = json.dumps(obj, separators=(",", ":"))
    with open(path, "w") as f:
        f.write(text)
    return len(text)


def fill(make):
    """The largest list of fields make(i) whose product fits in LIMIT bytes."""
    fields, size = [], len(json.dumps(product([]), separators=(",", ":")))
    while True:
        f = make(len(fields))
        extra = len(json.dumps(f, separators=(",", ":"))) + 1
        if size + extra > LIMIT:
            return fields
        fields.append(f)
        size += extra


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    sizes = {}
    sizes["slow-product.json"] = dump(os.path.join(out, "slow-product.json"), product([field(i, heavy()) for i in range(15)]))
    sizes["slow-request.json"] = dump(os.path.join(out, "slow-request.json"), {"f%d" % i: "a" * 65536 for i in range(15)})
    for n in (300, 1000):
        sizes["big-%d.json" % n] = dump(os.path.join(out, "big-%d.json" % n), product([field(i, heavy(i)) for i in range(n)]))
    sizes["big-max.json"] = dump(os.path.join(out, "big-max.json"), product(fill(lambda i: field(i, heavy(i)))))
    sizes["big-request.json"] = dump(os.path.join(out, "big-request.json"), {"f0": "a" * 16})
    sizes["fallback-max.json"] = dump(
        os.path.join(out, "fallback-max.json"), product(fill(lambda i: field(i, heavy(i, "(?=a)")))))
    heavy_fields = [field(i, heavy(i)) for i in range(10)]
    anchored = [field(10 + i, "^[0-9]{%d}$" % (i + 1)) for i in range(95)]
    fallback = [field(105 + i, "(?=a)(?:a|b)*(?:a|b)*(?:%d|a)*(?=c)" % i) for i in range(16)]
    sizes["edge-product.json"] = dump(os.path.join(out, "edge-product.json"), product(heavy_fields + anchored + fallback))
    values = {f["id"]: "a" * 999 + "z" for f in heavy_fields}
    values.update({f["id"]: "1" * 12 for f in anchored})
    values.update({f["id"]: "a" * 16 for f in fallback})
    sizes["edge-request.json"] = dump(os.path.join(out, "edge-request.json"), values)
    mix_fallback = [field(10 + i, "(?:a|b)*(?:a|b)*(?:a|b|%d)*(?=c)" % i) for i in range(16)]
    sizes["mix-product.json"] = dump(os.path.join(out, "mix-product.json"), product(heavy_fields + mix_fallback))
    values = {f["id"]: "a" * 60000 for f in heavy_fields}
    values.update({f["id"]: "a" * 1024 for f in mix_fallback})
    sizes["mix-request.json"] = dump(os.path.join(out, "mix-request.json"), values)
    # The same request with the ICU fields first, so they, not the built-in ones, spend the budget.
    icu_first = [field(i, "(?:a|b)*(?:a|b)*(?:a|b|%d)*(?=c)" % i) for i in range(16)]
    heavy_last = [field(16 + i, heavy(i)) for i in range(10)]
    sizes["mixicu-product.json"] = dump(os.path.join(out, "mixicu-product.json"), product(icu_first + heavy_last))
    values = {f["id"]: "a" * 1024 for f in icu_first}
    values.update({f["id"]: "a" * 60000 for f in heavy_last})
    sizes["mixicu-request.json"] = dump(os.path.join(out, "mixicu-request.json"), values)
    for name, size in sizes.items():
        assert name.endswith("request.json") or size <= LIMIT, name
        print("%-20s %9d bytes" % (name, size))


if __name__ == "__main__":
    main()
