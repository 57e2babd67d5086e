import AccessAPI
import Foundation
import Hummingbird

/// Request bodies are decoded by the generated server; this keeps their size limit and the
/// wording of decoding errors.
enum JSONBody {
    /// No request in the contract comes near this; anything larger is refused with 413.
    static let limit = 64 * 1024

    /// Reads the whole body before deciding, so an oversized upload gets a clean 413 instead of a
    /// connection reset half-way through the client's write.
    static func collect(_ request: Request) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        var total = 0
        for try await chunk in request.body {
            total += chunk.readableBytes
            if total <= limit {
                var chunk = chunk
                collected.writeBuffer(&chunk)
            }
        }
        if total > limit {
            throw BackendError(
                .contentTooLarge, "payload_too_large", "The request body is larger than \(limit) bytes.",
                rule: "http.payload_too_large")
        }
        return collected
    }

    /// Admin bodies refuse an explicit `null` (422): the generated decoder reads it as "absent", so
    /// `{"subject": null}` would otherwise quietly mean "the linked subject".
    static func refuseNulls(in request: Request?) async throws {
        guard let request else { return }
        let buffer = try await request.body.collect(upTo: limit)
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any],
            let field = object.keys.sorted().first(where: { object[$0] is NSNull })
        else { return }
        throw BackendError(
            .unprocessableContent, "invalid_field", "\(field): must not be null (leave it out instead).",
            rule: "http.invalid_field")
    }

    /// Names the field and the problem without echoing any value (which might be a password).
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "body" : text
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "The request body is not valid JSON." }
            return "\(snake(path(context.codingPath))): invalid value."
        case .keyNotFound(let key, let context):
            return "\(snake(path(context.codingPath + [key]))): missing field."
        case .typeMismatch(let type, let context):
            return "\(snake(path(context.codingPath))): expected \(jsonName(type))."
        case .valueNotFound(let type, let context):
            return "\(snake(path(context.codingPath))): expected \(jsonName(type)), got null."
        @unknown default:
            return "The request body does not match the contract."
        }
    }

    private static func snake(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default: return String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

enum JSONReply {
    static func make<T: Encodable>(
        _ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], capture: JournalCapture? = nil
    ) throws -> Response {
        let body = ByteBuffer(bytes: try APIJSON.makeEncoder().encode(value))
        capture?.setResponseBody(body)
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    static func error(_ error: BackendError, capture: JournalCapture? = nil) -> Response {
        var headers = error.headers
        if let retryAfter = error.detail.retryAfter, error.status == .tooManyRequests {
            headers[.retryAfter] = String(retryAfter)
        }
        let body = APIErrorBody(error: error.detail)
        return (try? make(body, status: error.status, headers: headers, capture: capture))
            ?? Response(status: .internalServerError)
    }
}
