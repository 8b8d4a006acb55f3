import CSECore
@_spi(CustomTransport) import CSEHTTP
import Foundation
import Testing
import TestSupport

@Suite("CurlTransport over real loopback sockets: requests arrive as sent")
struct TransportSmokeTests {
    @Test("a GET reaches the emulator with its path, query and headers, and the JSON echo comes back")
    func getEcho() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            let url = try HTTPURL(server.baseURL).appending(pathSegments: ["echo", "a b"]).settingQuery([(name: "q", value: "1 2")])
            let response = try await client.send(
                HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json", "X-Two": "a"]))
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let log = try server.requests()
            #expect(log.count == 1)
            #expect(log[0].method == "GET")
            #expect(log[0].path == "/echo/a%20b")
            #expect(log[0].query == "q=1%202")
            #expect(log[0].header("Accept") == "application/json")
            #expect(log[0].header("X-Two") == "a")
            #expect(log[0].header("Host") == "127.0.0.1:\(server.port)")
            #expect(log[0].body.isEmpty)
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(echo?["path"] as? String == "/echo/a%20b")
        }
    }

    @Test("a POST sends its body with Content-Length, no Expect and no default form Content-Type")
    func postBody() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            let body = Array(#"{"amount":100}"#.utf8)
            let response = try await client.send(
                HTTPRequest(
                    method: .post, url: try HTTPURL(server.baseURL + "/echo"), headers: ["Content-Type": "application/json"], body: body))
            #expect(response.status == 200)
            let log = try server.requests()
            #expect(log.map(\.method) == ["POST"])
            #expect(log[0].body == body)
            #expect(log[0].header("Content-Length") == String(body.count))
            #expect(log[0].header("Content-Type") == "application/json")
            #expect(log[0].header("Expect") == nil)
        }
    }

    @Test("PUT and DELETE use their method; a POST without Content-Type gets none")
    func methods() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            let url = try HTTPURL(server.baseURL + "/echo")
            _ = try await client.send(HTTPRequest(method: .put, url: url, body: Array("x".utf8)))
            _ = try await client.send(HTTPRequest(method: .put, url: url))
            _ = try await client.send(HTTPRequest(method: .delete, url: url))
            _ = try await client.send(HTTPRequest(method: .post, url: url, body: Array("y".utf8)))
            let log = try server.requests()
            #expect(log.map(\.method) == ["PUT", "PUT", "DELETE", "POST"])
            #expect(log[0].bodyText == "x")
            #expect(log[1].header("Content-Length") == "0")
            #expect(log[2].body.isEmpty)
            #expect(log[3].header("Content-Type") == nil)
        }
    }

    @Test("an empty header value is sent as an empty field")
    func emptyHeaderValue() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            _ = try await client.send(HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/echo"), headers: ["X-Empty": ""]))
            #expect(try server.requests()[0].header("X-Empty") == "")
        }
    }

    @Test("non-2xx statuses are returned, not thrown, with their body")
    func statusesReturned() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            for status in [301, 400, 401, 403, 404, 409, 422, 500] {
                let response = try await client.send(HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/status/\(status)")))
                #expect(response.status == status)
                #expect(String(decoding: response.body, as: UTF8.self) == #"{"status": \#(status)}"#)
            }
        }
    }
}

@Suite("CurlTransport: a body is never dropped silently")
struct TransportBodyTests {
    @Test("a GET or DELETE with a body sends it with its method")
    func bodyOnGet() async throws {
        try await withEmulator { (server) async throws in
            let client = try loopbackClient()
            let url = try HTTPURL(server.baseURL + "/echo")
            _ = try await client.send(HTTPRequest(method: .get, url: url, body: Array("g".utf8)))
            _ = try await client.send(HTTPRequest(method: .delete, url: url, body: Array("d".utf8)))
            let log = try server.requests()
            #expect(log.map(\.method) == ["GET", "DELETE"])
            #expect(log.map(\.bodyText) == ["g", "d"])
        }
    }
}
