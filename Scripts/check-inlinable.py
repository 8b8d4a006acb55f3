#!/usr/bin/env python3
"""Fails when an @inlinable member sits in a `package` type that is not @usableFromInline.

Swift 6.3 does not serialize the bodies of @inlinable members of a `package` type unless the type
itself is `@usableFromInline`: the attribute is accepted without a diagnostic, but callers in other
modules call the function (and a generic one unspecialized) instead of inlining it. That is how
JSONWriter.maximumQuotedLength and Base16.encode lost their cross-module optimisation in issue
#12 (payload-json and seal-card got slower) although both were marked @inlinable.

Usage: Scripts/check-inlinable.py [SOURCES_DIR]   (default: Sources)
"""
import pathlib
import re
import sys

DECL = re.compile(r"^package\s+(?:final\s+)?(?:enum|struct|class|actor)\s+(\w+)")
EXT = re.compile(r"^extension\s+(\w+)")


def top_level_blocks(lines):
    """(start index, header line, body lines) of each declaration that starts at column 0."""
    start = None
    for index, line in enumerate(lines):
        if start is None and re.match(r"^(package|public|internal|extension|final|@)", line) and line.rstrip().endswith("{"):
            start = index
        elif start is not None and line.startswith("}"):
            yield start, lines[start], lines[start + 1 : index]
            start = None


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources")
    files = {path: path.read_text().split("\n") for path in sorted(root.rglob("*.swift"))}
    # Package types without @usableFromInline on the line(s) before their declaration.
    plain = set()
    for lines in files.values():
        for index, line in enumerate(lines):
            match = DECL.match(line)
            if match and not any("@usableFromInline" in lines[i] for i in range(max(0, index - 2), index)):
                plain.add(match.group(1))
    problems = []
    for path, lines in files.items():
        for start, header, body in top_level_blocks(lines):
            name = (DECL.match(header) or EXT.match(header) or [None, None])[1]
            if name in plain and any("@inlinable" in line for line in body):
                problems.append(f"{path}:{start + 1}: '{name}' is a package type with @inlinable members; "
                                "mark it @usableFromInline or the members are never inlined across modules")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
