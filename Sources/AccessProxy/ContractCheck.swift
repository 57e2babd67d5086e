import AccessAPI
import AccessCore
import Foundation

/// What the contract says one status of one operation answers (`ContractResponses`, generated from openapi.yaml).
struct ContractAnswer: Sendable {
    /// nil: no body.
    let contentType: String?
    /// Decodes a JSON body as its schema's generated type; nil when the body is not JSON.
    let decode: (@Sendable (Data) throws -> Void)?
    /// Response headers the contract marks required.
    let headers: [String]

    init<Body: Decodable & Sendable>(contentType: String?, body: Body.Type, headers: [String]) {
        self.contentType = contentType
        self.decode = { data in _ = try APIJSON.makeContractDecoder().decode(Body.self, from: data) }
        self.headers = headers
    }

    init(contentType: String?, headers: [String]) {
        self.contentType = contentType
        self.decode = nil
        self.headers = headers
    }
}

/// A way an answer does not match openapi.yaml, with the exchange that shows it (issue 52 item 2). Prism's
/// validation proxy checks the same: the operation, the status, the body against its schema, the required headers.
public struct ContractBreak: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// No operation of the contract has this method and path.
        case unknownOperation = "unknown_operation"
        /// The operation does not list the status.
        case unlistedStatus = "unlisted_status"
        /// The body is not of the content type the contract gives the status (an HTML page for JSON).
        case wrongContentType = "wrong_content_type"
        /// The JSON body does not decode as the status's schema: a member missing, of the wrong type, a value
        /// the schema does not allow.
        case bodyMismatch = "body_mismatch"
        /// A response header the contract marks required is not there.
        case missingHeader = "missing_header"
        /// The contract gives the status no body, and one came.
        case unexpectedBody = "unexpected_body"
    }

    public var kind: Kind
    /// The operationId; nil for an unknown operation.
    public var operation: String?
    /// What is wrong, in words: never a value from the exchange (those are in `exchange`, redacted).
    public var message: String
    public var exchange: ProxyExchange

    /// One line for a terminal: `contract break #12 GET /health → 201: health does not list status 201.`
    public var line: String {
        "contract break #\(exchange.number) \(exchange.method) \(exchange.target) → \(exchange.status): \(message)"
    }
}

enum ContractCheck {
    /// The operation a request is for: its method and path as the contract writes them (a `{name}` matches any one
    /// segment). With `--world-style` the path comes without its world's prefix (`WorldStyle.split`).
    static func operation(method: String, path: String) -> ContractOperation? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return ContractOperation.allCases.first { operation in
            let route = operation.route
            guard route.method == method else { return false }
            let template = route.path.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count else { return false }
            return zip(template, segments).allSatisfy { wanted, given in
                (wanted.hasPrefix("{") && wanted.hasSuffix("}") && !given.isEmpty) || wanted == given
            }
        }
    }

    /// Every break of the contract in one exchange. `responseBody`: the answer's body as it came (nil: longer than
    /// `BodyCopy.limit`, not checked); `responseHeaders` as received.
    static func breaks(
        _ exchange: ProxyExchange, path: String, responseHeaders: [(name: String, value: String)],
        responseBody: [UInt8]?
    ) -> [ContractBreak] {
        func found(_ kind: ContractBreak.Kind, _ operation: String?, _ message: String) -> ContractBreak {
            ContractBreak(kind: kind, operation: operation, message: message, exchange: exchange)
        }
        guard let operation = operation(method: exchange.method, path: path) else {
            return [found(.unknownOperation, nil, "No operation of the contract is \(exchange.method) \(path).")]
        }
        let name = operation.rawValue
        guard let answer = ContractResponses.listed[name]?[exchange.status] else {
            return [found(.unlistedStatus, name, "\(name) does not list status \(exchange.status).")]
        }
        var breaks: [ContractBreak] = []
        func header(_ wanted: String) -> String? {
            responseHeaders.first { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }?.value
        }
        for required in answer.headers where header(required) == nil {
            breaks.append(found(.missingHeader, name, "\(name) \(exchange.status) needs the \(required) header."))
        }
        guard let responseBody else { return breaks }
        guard let expected = answer.contentType else {
            if !responseBody.isEmpty {
                breaks.append(found(.unexpectedBody, name, "\(name) \(exchange.status) has no body in the contract."))
            }
            return breaks
        }
        let media = header("Content-Type")?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard media == expected else {
            breaks.append(
                found(
                    .wrongContentType, name,
                    "\(name) \(exchange.status) answers \(expected), not \(media ?? "a body without a Content-Type")."))
            return breaks
        }
        if let decode = answer.decode {
            do {
                try decode(Data(responseBody))
            } catch let error as DecodingError {
                if let problem = describe(error) {
                    breaks.append(found(.bodyMismatch, name, "\(name) \(exchange.status): \(problem)."))
                }
            } catch {
                breaks.append(found(.bodyMismatch, name, "\(name) \(exchange.status): the body does not decode."))
            }
        }
        return breaks
    }

    /// The decoding error in words, naming the member and never its value (it could be a secret); nil for an
    /// error code the contract does not list, which it allows (ErrorCode is extensible: a client goes by the
    /// status).
    static func describe(_ error: DecodingError) -> String? {
        func named(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }
                .description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "member \(named(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "member \(named(context.codingPath)) is not of type \(type)"
        case .valueNotFound(let type, let context):
            return "member \(named(context.codingPath)) is null where the schema wants \(type)"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not JSON" }
            if context.codingPath.map(\.stringValue) == ["error", "code"] { return nil }
            return "member \(named(context.codingPath)) has a value its schema does not allow"
        @unknown default:
            return "the body does not decode as its schema"
        }
    }
}
