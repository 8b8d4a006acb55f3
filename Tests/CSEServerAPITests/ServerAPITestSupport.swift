import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import Synchronization

/// An in-memory `HTTPTransport`: records every request and answers from a script.
final class RecordingTransport: HTTPTransport {
    private let state = Mutex<(requests: [HTTPRequest], responses: [Result<HTTPResponse, CSEError>])>(([], []))

    init(_ responses: [Result<HTTPResponse, CSEError>]) { state.withLock { $0.responses = responses } }

    convenience init(status: Int, json: String) {
        self.init([.success(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(json.utf8)))])
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
        let next: Result<HTTPResponse, CSEError> = state.withLock { state in
            state.requests.append(request)
            return state.responses.isEmpty
                ? .failure(CSEError(.init("test.noResponse"), "no scripted response")) : state.responses.removeFirst()
        }
        return try next.get()
    }
}


func client(_ transport: RecordingTransport) throws -> HTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.maxRetries = 0
    return try HTTPClient(configuration: configuration, transport: transport)
}

func headerPairs(_ headers: HTTPHeaders) -> [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
