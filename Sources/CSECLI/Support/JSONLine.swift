import CSECore

/// The output of the commands that print one platform answer: one JSON document and a line break
/// on standard output.
enum JSONLine {
    static func write(_ value: JSONValue) {
        StandardStreams.write(value.serializedBytes + [0x0A], to: 1)
    }
}
