#!/usr/bin/env python3
"""Prints a `swift test --filter` regex selecting every suite and test tagged with a Swift Testing tag.

    Scripts/tagged-tests.py concurrency   ->  StressSealingTests|DigestTests/concurrent|...

The tag on the test (`@Suite(..., .tags(.concurrency))`, `@Test(..., .tags(.concurrency))`) is the
one declaration of the set; .ci/run uses this to pick the ThreadSanitizer tests. Swift 6.3's
`swift test --filter tag:NAME` does not select by tag yet (swift-testing #1531, SwiftPM #10287 land
in a later toolchain); once it does, .ci/run can pass `--filter tag:NAME` directly.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tagged-tests.py TAG")
    tag = re.compile(r"\.tags\([^)]*\.%s\b" % re.escape(sys.argv[1]))
    selected = []
    for directory, _, files in sorted(os.walk(os.path.join(ROOT, "Tests"))):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            lines = open(os.path.join(directory, name), encoding="utf-8").read().split("\n")
            suite = None
            pending = None  # "suite" or "test" when a tagged attribute waits for its declaration
            attribute = None  # (kind, text so far) of an attribute that spans several lines
            for line in lines:
                stripped = line.strip()
                if stripped.startswith("@Suite") or stripped.startswith("@Test"):
                    attribute = ("suite" if stripped.startswith("@Suite") else "test", "")
                if attribute is not None:
                    attribute = (attribute[0], attribute[1] + " " + stripped)
                    if tag.search(attribute[1]):
                        pending = attribute[0]
                        attribute = None
                declared = re.match(r"(?:\w+\s+)*struct\s+(\w+)", stripped)
                if declared and not line.startswith(" "):
                    attribute = None
                    suite = declared.group(1)
                    if pending == "suite":
                        selected.append(suite)
                        pending = None
                    continue
                function = re.match(r"(?:\w+\s+)*func\s+(\w+)", stripped)
                if function:
                    attribute = None
                if function and pending == "test":
                    selected.append("%s/%s" % (suite, function.group(1)))
                    pending = None
    if not selected:
        sys.exit("no test is tagged .%s" % sys.argv[1])
    print("|".join(selected))


if __name__ == "__main__":
    main()
