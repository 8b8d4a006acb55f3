// Fuzz target `http`: HTTPURL parsing and building, and header validation (CSEHTTP).
// Input: `url NUL segment NUL queryName NUL queryValue NUL headerName NUL headerValue`.
// Invariants: a parse either fails with http.invalidURL / http.insecureURL, or gives a URL whose
// absoluteString parses back to an equal URL, whose scheme is https or http to loopback, whose
// description hides the query; building (appending a segment, setting a query, replacing the
// origin) always gives a URL that parses back to itself, adds exactly one path segment, and
// percent-decodes back to the inputs; an empty, `.` or `..` segment is refused with
// http.invalidPathSegment (RFC 3986 §5.2.4 would remove it or climb, even percent-encoded). A header that validates cannot inject a line (no CR, LF or
// NUL) and splits back into its name and value; a header that does not gives http.invalidHeader
// without the value in the error.
import CSECore
@_spi(CustomTransport) import CSEHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let urlText = text(input.field())
    let segment = text(input.field())
    let queryName = text(input.field())
    let queryValue = text(input.field())
    let headerName = text(input.field())
    let headerValue = text(input.rest())

    checkHeader(name: headerName, value: headerValue)

    let url: HTTPURL
    do throws(CSEError) {
        url = try HTTPURL(urlText)
    } catch {
        require(error.code == .httpInvalidURL || error.code == .httpInsecureURL, "unexpected code \(error.code)")
        if let query = urlText.split(separator: "?", maxSplits: 1).dropFirst().first, query.utf8.count >= 8 {
            require(!error.description.contains(query), "the error quotes the query")
        }
        return 0
    }
    checkParsed(url)
    require(url.scheme == "https" || (url.scheme == "http" && url.isLoopback), "http to a non-loopback host was accepted")

    checkAppended(url, segment)

    let queried = url.settingQuery([(name: queryName, value: queryValue)])
    checkParsed(queried)
    let pair = queried.query!.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    require(pair.count == 2, "the query is not name=value")
    require(percentDecoded(String(pair[0])) == Array(queryName.utf8), "the query name does not decode back")
    require(percentDecoded(String(pair[1])) == Array(queryValue.utf8), "the query value does not decode back")
    require(queried.path == url.path && queried.host == url.host, "settingQuery changed the path or host")

    require(url.replacingOrigin(with: url) == url, "replacingOrigin with itself is not the identity")
    return 0
}

/// Appending one segment adds exactly one level that decodes back, or refuses an empty, `.` or
/// `..` segment with http.invalidPathSegment.
private func checkAppended(_ url: HTTPURL, _ segment: String) {
    let appended: HTTPURL
    do throws(CSEError) {
        appended = try url.appending(pathSegments: [segment])
        require(!HTTPURL.isUnsafePathSegment(segment), "an empty, . or .. segment was appended")
    } catch {
        require(error.code == .httpInvalidPathSegment, "unexpected code \(error.code)")
        require(HTTPURL.isUnsafePathSegment(segment), "a segment that is not empty, . or .. was refused")
        return
    }
    checkParsed(appended)
    let base = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
    require(appended.path.hasPrefix(base + "/"), "appending changed the existing path")
    let added = appended.path.dropFirst(base.utf8.count + 1)
    require(!added.contains("/"), "a segment added more than one level")
    require(added != "." && added != ".." && !added.isEmpty, "a dot or empty segment was added")
    require(percentDecoded(String(added)) == Array(segment.utf8), "the segment does not decode back")
}

/// `absoluteString` parses back to an equal URL; the description shows no query.
private func checkParsed(_ url: HTTPURL) {
    do throws(CSEError) {
        let again = try HTTPURL(url.absoluteString)
        require(again == url, "absoluteString does not parse back to the same URL")
        require(again.absoluteString == url.absoluteString, "absoluteString is not stable")
    } catch {
        require(false, "absoluteString does not parse: \(error.code)")
    }
    require(url.path.isEmpty || url.path.hasPrefix("/"), "the path does not start with /")
    if let query = url.query, !query.isEmpty {
        require(url.description.hasSuffix("?[redacted]"), "the description shows the query")
    }
    require(url.absoluteString.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "absoluteString has a byte outside printable ASCII")
}

private func checkHeader(name: String, value: String) {
    var headers = HTTPHeaders()
    headers.add(name: name, value: value)
    do throws(CSEError) {
        try headers.validate()
        require(!value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }), "a value with CR, LF or NUL validated")
        let line = Array((name + ": " + value).utf8)
        let colon = line.firstIndex(of: UInt8(ascii: ":"))!
        require(Array(line[..<colon]) == Array(name.utf8), "the name does not end at the first colon")
        require(headers[name] == value && headers[name.uppercased()] == value, "lookup does not find the field")
    } catch {
        require(error.code == .httpInvalidHeader, "unexpected code \(error.code)")
        if value.utf8.count >= 8, value.contains(where: \.isNumber) {
            require(!error.description.contains(value), "the error quotes the header value")
        }
    }
}

/// `%XX` decoded to bytes; other bytes as they are.
private func percentDecoded(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
        {
            out.append(value)
            index += 3
        } else {
            out.append(bytes[index])
            index += 1
        }
    }
    return out
}
