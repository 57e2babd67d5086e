import AccessAPI
import AccessCore
import Foundation
import Hummingbird

/// Request bodies are decoded by the generated server; this keeps their size limit and the
/// wording of decoding errors.
enum JSONBody {
    /// Anything larger is refused with 413.
    static let limit = RequestBounds.bodyBytes

    /// Whether the request says it has a body: a Content-Length or a Transfer-Encoding (RFC 9112 §6.3; a request
    /// with neither has none).
    static func isFramed(_ request: Request) -> Bool {
        request.headers.contains(.contentLength) || request.headers.contains(.transferEncoding)
    }

    /// A body over `limit` is refused as soon as that is known: from its Content-Length before any of it is
    /// read, or once the chunks read pass the limit. The 413 closes the connection, so the rest is never read
    /// (issue 45 item 8: a 200 MiB body was read to its end before the answer). The price: a client still sending
    /// may see its write fail, and some report that rather than the answer already on its way (AsyncHTTPClient
    /// does, for a body it is still writing when the answer comes).
    static func collect(_ request: Request, limit: Int = limit) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        var collected = ByteBuffer()
        for try await chunk in request.body {
            guard collected.readableBytes + chunk.readableBytes <= limit else { throw tooLarge(limit) }
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        return collected
    }

    private static func tooLarge(_ limit: Int) -> BackendError {
        var error = BackendError(
            .contentTooLarge, "payload_too_large", "The request body is larger than \(limit) bytes.",
            rule: .httpPayloadTooLarge)
        error.closesConnection = true
        return error
    }

    /// Admin bodies refuse an explicit `null` (422), at any depth: the generated decoder reads it as "absent",
    /// so `{"subject": null}` would otherwise quietly mean "the linked subject", and `device.voip_token: null`
    /// pass where the schema takes a string.
    static func refuseNulls(in request: Request?) async throws {
        guard let request else { return }
        let buffer = try await request.body.collect(upTo: limit)
        guard let body = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)),
            let field = firstNull(in: body, at: "")
        else { return }
        throw BackendError(
            .unprocessableContent, "invalid_field", "\(field): must not be null (leave it out instead).",
            rule: .httpInvalidField)
    }

    /// The path of the first member whose value is `null` (`device.voip_token`, `endpoints[1].code`), members
    /// in name order; nil when there is none.
    static func firstNull(in value: Any, at path: String) -> String? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let member = path.isEmpty ? key : "\(path).\(key)"
                if object[key] is NSNull { return member }
                if let found = firstNull(in: object[key]!, at: member) { return found }
            }
        } else if let array = value as? [Any] {
            for (index, item) in array.enumerated() {
                if item is NSNull { return "\(path)[\(index)]" }
                if let found = firstNull(in: item, at: "\(path)[\(index)]") { return found }
            }
        }
        return nil
    }

    /// A member named twice in one object is refused (400): the decoder would quietly keep one of the two,
    /// and which one a proxy or another server keeps is anybody's guess. With `refusingNulls`, so is a member
    /// of the contract whose value is `null` (400): no request body of the contract takes one, and the generated
    /// decoder reads it as "absent", so `device.voip_token: null` passed where the schema takes a string
    /// (schemathesis, whenever its case found the phone out of its cooldown). A member the schema does not name
    /// is the body's own business (public bodies take any), null or not. The admin bodies name their nulls in a
    /// 422 of their own (`refuseNulls`).
    static func refuseDuplicateKeys(in body: ByteBuffer, refusingNulls: Bool = false) throws {
        guard body.readableBytes > 0 else { return }
        let found = firstDuplicateKeyAndNulls(in: Data(body.readableBytesView))
        if let key = found.duplicate { throw BackendError.badRequest("\(key): appears more than once.") }
        if refusingNulls, let member = found.nulls.first(where: isContractMember) {
            throw BackendError.badRequest("\(member): must not be null (leave it out instead).")
        }
    }

    /// The path of the first member that repeats a name in its object (`a.b`, `a[1].b`); nil when there is
    /// none or the text is not JSON (the decoder says so in its own words).
    static func firstDuplicateKey(in data: Data) -> String? { firstDuplicateKeyAndNulls(in: data).duplicate }

    /// The first repeated member, and the members and elements that are `null`, in the order of the text.
    static func firstDuplicateKeyAndNulls(in data: Data) -> (duplicate: String?, nulls: [String]) {
        var scanner = KeyScanner(bytes: Array(data))
        guard scanner.value(at: ""), scanner.atEnd, scanner.duplicate != nil || !scanner.nulls.isEmpty else {
            return (nil, [])
        }
        // The scan only follows the structure; a bad literal elsewhere is the decoder's to report.
        guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
            return (nil, [])
        }
        return (scanner.duplicate, scanner.nulls)
    }

    /// Whether `path` (`device.voip_token`, `endpoints[1].code`) names a member some request body of the
    /// contract defines, its indices aside.
    static func isContractMember(_ path: String) -> Bool {
        contractMemberPatterns.contains(path.replacing(/\[[0-9]+\]/, with: "[]"))
    }

    private static let contractMemberPatterns: Set<String> = Set(
        ContractBodies.members.values.flatMap { objects in
            objects.flatMap { parent, names in names.map { parent.isEmpty ? $0 : "\(parent).\($0)" } }
        })

    /// A body the generated decoder refused: a member the body's schema does not take (an admin body's,
    /// `additionalProperties: false`) is 422 naming the members it takes; a value outside an enum is 400
    /// naming the values it takes; anything else is `describe`'s 400.
    static func refusal(for error: DecodingError, operationID: String) -> BackendError {
        guard case .dataCorrupted(let context) = error, let last = context.codingPath.last else {
            return .badRequest(describe(error))
        }
        let path = memberPath(context.codingPath)
        let parent = memberPattern(context.codingPath.dropLast())
        if context.debugDescription.hasPrefix("Additional properties are disabled"),
            let members = ContractBodies.members[operationID]?[parent]
        {
            // The member as it was sent (`latencyMs`), under its parent's path.
            let parentPath = memberPath(Array(context.codingPath.dropLast()))
            let sent = parentPath.isEmpty ? last.stringValue : "\(parentPath).\(last.stringValue)"
            return BackendError(
                .unprocessableContent, "invalid_field",
                "\(sent): not a member of \(parent.isEmpty ? "this body" : parent); it takes \(members.joined(separator: ", ")).",
                rule: .httpInvalidField)
        }
        if last.intValue == nil, let values = ContractBodies.enums[operationID]?[memberPattern(context.codingPath[...])]
        {
            return .badRequest("\(path): expected one of \(values.joined(separator: ", ")).")
        }
        return .badRequest(describe(error))
    }

    /// `endpoints[0].kind` as the body spells it (JSON's names, snake_case).
    private static func memberPath(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + snake(key.stringValue)
            }
        }
        return text
    }

    /// The same path with every index as `[]`, as `ContractBodies` keys it.
    private static func memberPattern(_ keys: ArraySlice<any CodingKey>) -> String {
        var text = ""
        for key in keys {
            if key.intValue != nil {
                text += "[]"
            } else {
                text += (text.isEmpty ? "" : ".") + snake(key.stringValue)
            }
        }
        return text
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

    static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default: return String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Walks a JSON text's objects and arrays, noting the first repeated member name.
private struct KeyScanner {
    /// Far deeper than any body of the contract; a deeper text is left to the decoder, and the walk's
    /// recursion stays small.
    static let maxDepth = 64

    let bytes: [UInt8]
    var index = 0
    var depth = 0
    var duplicate: String?
    /// The members and elements (not the body itself) whose value is `null`, the first few.
    var nulls: [String] = []
    static let maxNulls = 16

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }
    private static let nullLiteral = Array("null".utf8)

    mutating func value(at path: String) -> Bool {
        skipSpace()
        switch next {
        case UInt8(ascii: "{"): return nested { $0.object(at: path) }
        case UInt8(ascii: "["): return nested { $0.array(at: path) }
        case UInt8(ascii: "\""): return string() != nil
        case nil: return false
        case UInt8(ascii: "n") where nulls.count < Self.maxNulls && !path.isEmpty:
            let start = index
            guard scalar() else { return false }
            if bytes[start..<index].elementsEqual(Self.nullLiteral) { nulls.append(path) }
            return true
        default: return scalar()
        }
    }

    private mutating func nested(_ walk: (inout KeyScanner) -> Bool) -> Bool {
        guard depth < Self.maxDepth else { return false }
        depth += 1
        defer { depth -= 1 }
        index += 1
        return walk(&self)
    }

    private mutating func object(at path: String) -> Bool {
        var names: Set<String> = []
        skipSpace()
        if next == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipSpace()
            guard next == UInt8(ascii: "\""), let name = string() else { return false }
            let member = path.isEmpty ? name : "\(path).\(name)"
            if !names.insert(name).inserted, duplicate == nil { duplicate = member }
            skipSpace()
            guard next == UInt8(ascii: ":") else { return false }
            index += 1
            guard value(at: member), let separator = separator(closing: "}") else { return false }
            if separator { return true }
        }
    }

    private mutating func array(at path: String) -> Bool {
        skipSpace()
        if next == UInt8(ascii: "]") {
            index += 1
            return true
        }
        var position = 0
        while true {
            guard value(at: "\(path)[\(position)]"), let separator = separator(closing: "]") else { return false }
            if separator { return true }
            position += 1
        }
    }

    /// After a member or element: true at the closing bracket, false at a comma, nil at anything else.
    private mutating func separator(closing: Unicode.Scalar) -> Bool? {
        skipSpace()
        switch next {
        case UInt8(ascii: ","):
            index += 1
            return false
        case UInt8(ascii: closing):
            index += 1
            return true
        default:
            return nil
        }
    }

    /// A string, unescaped: `"a"` and `"\u0061"` name the same member.
    private mutating func string() -> String? {
        let start = index
        index += 1
        var escaped = false
        while let byte = next {
            index += 1
            switch byte {
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
            case UInt8(ascii: "\""):
                let token = bytes[start..<index]
                guard escaped else { return String(decoding: token.dropFirst().dropLast(), as: UTF8.self) }
                return try? JSONDecoder().decode(String.self, from: Data(token))
            default:
                continue
            }
        }
        return nil
    }

    /// A number, true, false or null, up to the next delimiter.
    private mutating func scalar() -> Bool {
        let start = index
        while let byte = next, !Self.delimiters.contains(byte) { index += 1 }
        return index > start
    }

    private static let delimiters: Set<UInt8> = Set(" \t\n\r,]}:".utf8)

    private mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}

/// The wording of a path or query parameter's decoding error. The runtime's error names no parameter (its
/// coding path is empty), so the request says which, without quoting anything but a parameter's name:
/// - a value that is not what the error expected (a number, a boolean): the items whose value is not;
/// - a value outside an enum: the path's parameters (named by the route, and decoded first);
/// - otherwise a required parameter is missing, and no name can be read off the request.
/// The contract's operations have one path or query parameter each that can fail this way.
enum RequestParameters {
    static func describe(
        _ error: DecodingError, path: [String: Substring], query: [(name: String, value: String)]
    ) -> String {
        let pathItems = path.keys.sorted().map { (name: $0, value: String(path[$0]!)) }
        // Only names a contract could declare: anything else a client sent is not repeated back.
        let queryItems = query.filter { $0.name.utf8.allSatisfy(isNameByte) && !$0.name.isEmpty }
        switch error {
        case .typeMismatch(let type, _), .valueNotFound(let type, _):
            if let accepts = accepts(type) {
                let names = unique((pathItems + queryItems).filter { !accepts($0.value) }.map(\.name))
                if !names.isEmpty { return "\(names.joined(separator: " or ")): expected \(JSONBody.jsonName(type))." }
            }
            return "A required path or query parameter is missing or empty."
        default:
            guard !pathItems.isEmpty else { return "A query parameter has an invalid value." }
            return "\(pathItems.map(\.name).joined(separator: " or ")): invalid value."
        }
    }

    private static func accepts(_ type: Any.Type) -> ((String) -> Bool)? {
        switch type {
        case is Int.Type: return { Int($0) != nil }
        case is Double.Type: return { Double($0) != nil }
        case is Bool.Type: return { $0 == "true" || $0 == "false" }
        default: return nil
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func unique(_ names: [String]) -> [String] {
        names.reduce(into: []) { kept, name in if !kept.contains(name) { kept.append(name) } }
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
        if let code = error.injectedCode {
            let injected = InjectedErrorBody(
                error: .init(code: code, message: error.detail.message, retryAfter: error.detail.retryAfter))
            return (try? make(injected, status: error.status, headers: headers, capture: capture))
                ?? Response(status: .internalServerError)
        }
        return (try? make(body, status: error.status, headers: headers, capture: capture))
            ?? Response(status: .internalServerError)
    }
}

/// An injected fault's error body, whose `code` is the fault's own string (an injected status carries no
/// other member than these).
private struct InjectedErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        var retryAfter: Int?
    }

    var error: Detail
}
