#!/usr/bin/env python3
"""Re-express the shared registry data (../shared/vectors) as CSEKit's own Vectors/ tables.

Run once when the upstream data changes:

    python3 Scripts/import-tables.py [path/to/shared/vectors]

It writes Vectors/iban/iban-registry.json, Vectors/cards/card-brands.json and
Vectors/iso4217/iso4217.json, keeping only the standard facts the library embeds (see
Vectors/PROVENANCE.md). Scripts/gen-tables.py then turns those files into Swift source.
Python 3 standard library only.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(ROOT), "shared", "vectors")

# Stable brand ids (Braintree credit-card-type spellings where it has them) and the brands a
# domestic scheme's BINs can be co-badged with.
BRAND_IDS = {
    "Visa": "visa", "Mastercard": "mastercard", "American Express": "american-express",
    "Diners Club": "diners-club", "Troy": "troy", "Discover": "discover", "JCB": "jcb",
    "UnionPay": "unionpay", "Maestro": "maestro", "Elo": "elo", "Mir": "mir", "Hiper": "hiper",
    "Hipercard": "hipercard", "Naranja": "naranja", "Verve": "verve", "RuPay": "rupay",
    "mada": "mada", "Meeza": "meeza",
}
CO_BADGES = {"mada": ["visa", "mastercard"]}


def write(path, obj):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    # One table row per line keeps diffs readable.
    lines = ["{"]
    keys = list(obj)
    for i, key in enumerate(keys):
        value = obj[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list):
            lines.append(" %s: [" % json.dumps(key))
            for j, row in enumerate(value):
                row_comma = "," if j < len(value) - 1 else ""
                lines.append("  " + json.dumps(row, ensure_ascii=False) + row_comma)
            lines.append(" ]" + comma)
        else:
            lines.append(" %s: %s%s" % (json.dumps(key), json.dumps(value, ensure_ascii=False), comma))
    lines.append("}")
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", path)


def iban():
    src = json.load(open(os.path.join(SHARED, "iban", "iban-registry.json"), encoding="utf-8"))
    countries = []
    for c in src["countries"]:
        spec = c["bban_spec"]
        assert re.fullmatch(r"(\d+![nac])+", spec), spec
        countries.append({
            "code": c["country_code"],
            "name": c["name"],
            "length": c["iban_length"],
            "bban": spec,
            "sepa": c["sepa"],
            "swiftRegistry": c["in_swift_registry"],
            "example": c["example"],
        })
    territories = [{"code": t["code"], "ibanPrefix": t["iban_prefix"]} for t in src["territories"]]
    write("Vectors/iban/iban-registry.json", {
        "description": "IBAN formats per country (ISO 13616). bban uses SWIFT IBAN Registry notation: "
                       "N!n = exactly N digits, N!a = exactly N upper-case letters, N!c = exactly N "
                       "alphanumerics. swiftRegistry=false marks experimental national formats that are "
                       "not in the SWIFT registry. Territories use their parent's IBAN prefix.",
        "source": "SWIFT IBAN Registry release 101 via python-stdnum 2.2; lengths and SEPA flags via "
                  "schwifty 2026.10.1; examples via barend/java-iban (see Vectors/PROVENANCE.md)",
        "countries": countries,
        "territories": territories,
    })


def cards():
    src = json.load(open(os.path.join(SHARED, "cards", "card-brands.json"), encoding="utf-8"))
    brands = []
    for key, b in src["brands"].items():
        ranges = []
        for entry in b["iin"]:
            if "prefix" in entry:
                ranges.append([entry["prefix"], entry["prefix"]])
            else:
                lo, hi = entry["range"]
                assert len(lo) == len(hi) and int(lo) <= int(hi), entry
                ranges.append([lo, hi])
        brand_id = BRAND_IDS[b["name"]]
        brands.append({
            "id": brand_id,
            "name": b["name"],
            "iin": ranges,
            "panLengths": b["lengths"],
            "gaps": b.get("gaps", [4, 8, 12]),
            "securityCode": {"name": b["securityCode"]["name"], "length": b["securityCode"]["size"]},
            "luhn": b["luhn"],
            "coBadges": CO_BADGES.get(brand_id, []),
        })
    write("Vectors/cards/card-brands.json", {
        "description": "Card brands: IIN ranges (each [first, last], equal-length digit strings, "
                       "inclusive; a prefix is [p, p]), allowed PAN lengths, display gaps, security "
                       "code name and length, and whether PANs carry a Luhn check digit. coBadges "
                       "lists the brands a domestic scheme's BINs may also belong to.",
        "source": "braintree/credit-card-type v10.3.0; RuPay: juspay/card-validator; mada and Meeza: "
                  "Checkout.com and Amazon Payment Services BIN lists (see Vectors/PROVENANCE.md)",
        "brands": brands,
    })


def iso4217():
    src = json.load(open(os.path.join(SHARED, "iso4217", "iso4217.json"), encoding="utf-8"))
    rows = [{"code": c["code"], "numeric": int(c["numeric"]), "minorUnits": c["minor_units"],
             "name": c["name"]} for c in src["currencies"]]
    write("Vectors/iso4217/iso4217.json", {
        "description": "ISO 4217 List One: alphabetic code, numeric code, minor units (null where ISO "
                       "gives N.A.) and currency name.",
        "published": src["published"],
        "source": "ISO 4217 maintenance agency list_one.xml published " + src["published"] +
                  " via PyPI iso4217 (see Vectors/PROVENANCE.md)",
        "currencies": rows,
    })


if __name__ == "__main__":
    iban()
    cards()
    iso4217()
