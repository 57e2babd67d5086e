import AccessAPI
import AccessCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// How the contract's answers are written: one definition for the generated routes' runtime and for the
/// hot reads below, so both send the same bytes.
enum ContractEncoding {
    /// Compact JSON (the runtime's default pretty-prints), its keys sorted — the encoder's own order follows a
    /// per-process hash seed, so the same answer came out differently from run to run (issue 29) — and "/" as
    /// itself, not "\/". Dates as the client reads them (`ContractDates`): the runtime's default formatter
    /// goes through ICU under a lock, on every answer that holds a date.
    static let configuration = Configuration(
        dateTranscoder: ContractDates(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    /// The runtime's `Converter` encoder, as it builds it from `configuration`: the same output formatting and
    /// the dates through the same transcoder. Made once: JSONEncoder is safe to share between requests.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = []
        let options = configuration.jsonEncodingOptions
        if options.contains(.prettyPrinted) { formatting.formUnion(.prettyPrinted) }
        if options.contains(.sortedKeys) { formatting.formUnion(.sortedKeys) }
        if options.contains(.withoutEscapingSlashes) { formatting.formUnion(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        let transcoder = configuration.dateTranscoder
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try transcoder.encode(date))
        }
        return encoder
    }()

    /// What the generated serializer declares for every JSON answer.
    static let contentType = "application/json; charset=utf-8"
}

/// The token-guarded read every screen of the app makes, and /health, answered without the OpenAPI runtime's
/// generic layers and without the route tree (issue 34 item 2): the generated route wraps the request into the
/// runtime's types, runs the answer through a streamed `HTTPBody`, collects it again for `ExplicitNullMiddleware`
/// and streams it back to Hummingbird, some 53 K of the 384 K instructions a GET /me/auth-methods took (callgrind);
/// finding the route in the router's tree and going through its middleware chain cost some 15 K more. Here the same
/// `ContractHandler` method the generated route calls gives the value (or the refusal), and `AuthMethodsJSON`
/// writes it (/health's answer goes through the runtime's own encoder settings, `ContractEncoding`).
///
/// `WorldResponder` sends a request that is one of these `read`s through the same gateway and contract scope as
/// every other request, so the gate, the faults, the body read, the one-write answer and the journal entry are the
/// same as on the generated route. Only a GET with no Accept header or one that plainly allows JSON is taken; anything else
/// (HEAD, another Accept) goes to the router and the generated route, so its checks and refusals stay the
/// runtime's own.
struct HotReads: Sendable {
    let handler: ContractHandler

    static let authMethodsPath = "/me/auth-methods"
    /// What monitors and the app's start poll.
    static let healthPath = "/health"

    enum Read {
        case authMethods, health
    }

    /// Which read `request` is, when it is one taken here.
    static func read(_ request: Request) -> Read? {
        guard request.method == .get else { return nil }
        let read: Read
        switch request.uri.path {
        case authMethodsPath: read = .authMethods
        case healthPath: read = .health
        default: return nil
        }
        return acceptsJSON(request.headers) ? read : nil
    }

    /// The answer, in one buffer that `capture` keeps for the journal.
    func answer(_ read: Read, capture: JournalCapture) async throws -> Response {
        let body: ByteBuffer
        switch read {
        case .health:
            body = try HealthJSON.encode(handler.healthStatus())
            capture.setResponseBody(body)
        case .authMethods:
            let methods = try await handler.authMethods()
            if let written = AuthMethodsJSON.written(methods) {
                body = written
                capture.setResponseBody(body, holdsNoSecret: AuthMethodsJSON.holdsNoSecret)
            } else {
                body = try AuthMethodsJSON.encode(methods)
                capture.setResponseBody(body)
            }
        }
        return Response(
            status: .ok,
            headers: [.contentType: ContractEncoding.contentType, .contentLength: String(body.readableBytes)],
            body: .init(byteBuffer: body))
    }

    /// No Accept header, or one of the values the runtime's `validateAcceptIfPresent` passes at a glance.
    static func acceptsJSON(_ headers: HTTPFields) -> Bool {
        guard let accept = headers.value(of: .accept) else { return true }
        return accept == "application/json" || accept == "*/*"
    }
}

/// GET /health's answer: the runtime's encoder's bytes (`ContractEncoding`), made once for each status there is.
/// Encoding the same one-member document for every request was about 50 K instructions, more than the rest of the request.
enum HealthJSON {
    static func encode(_ health: HealthStatus) throws -> ByteBuffer {
        // Exhaustive: a status added to the document does not compile here until it has its bytes.
        switch health.status {
        case .ok: try ok.get()
        }
    }

    private static let ok = Result { ByteBuffer(bytes: try ContractEncoding.encoder.encode(HealthStatus(status: .ok))) }
}

/// GET /me/auth-methods's answer as the generated route writes it: the runtime's encoder (`ContractEncoding`),
/// then `AuthMethods.withExplicitNulls`. Written out by hand because Foundation's JSONEncoder took some 54 K
/// instructions for these members, a sixth of the whole request (callgrind, issue 34 item 2).
/// `HotReadTests` holds it to the encoder's bytes for every shape the members can take.
enum AuthMethodsJSON {
    static func encode(_ methods: AuthMethods) throws -> ByteBuffer {
        if let written = written(methods) { return written }
        return ByteBuffer(bytes: AuthMethods.withExplicitNulls(try ContractEncoding.encoder.encode(methods)))
    }

    /// Whether `Redaction` leaves what `written` writes as it is: no member it writes is one whose value the
    /// journal hides. Asked of the redactor itself, over every member holding a string, so a member added here
    /// with a secret's name turns it false. The journal then keeps `written`'s bytes without scanning them again:
    /// the scan was 7 K of the 200 K instructions a GET /me/auth-methods took (callgrind, issue 34 item 2).
    /// `written` writes strings, booleans and nulls, never a nested object or array, which is all the redactor
    /// could find beside a member's name.
    static let holdsNoSecret: Bool = {
        let names = [
            Members.appleLinked, Members.email, Members.googleLinked, Members.hasPassword, Members.passkeys,
            Members.passwordChangedAt, Members.phone, Members.role, Members.twoFactorEnabled, Members.userId,
        ]
        let sample = "{" + names.map { String(decoding: $0, as: UTF8.self) + "\"value\"" }.joined(separator: ",") + "}"
        return Redaction.json(sample) == sample
    }()

    /// nil when a string would need escaping (the encoder's escaping is not copied here) or the role is empty.
    /// Straight-line on purpose: a table of (key, value) tuples cost a runtime metadata lookup per request.
    static func written(_ methods: AuthMethods) -> ByteBuffer? {
        guard let role = methods.role.value1?.rawValue ?? methods.role.value2 else { return nil }
        var changedAt: String?
        if let date = methods.passwordChangedAt {
            guard let text = try? ContractEncoding.configuration.dateTranscoder.encode(date) else { return nil }
            changedAt = text
        }
        // Written straight into the answer's buffer, sized beforehand for the longest these values can make (each
        // member at most once, its value no longer than its text, `false` or its quotes): an array grown as it was
        // written and then copied into a buffer was a quarter of this writer (issue 34 item 2).
        let capacity =
            Members.longestWithoutStrings + (methods.email?.utf8.count ?? 0) + (changedAt?.utf8.count ?? 0)
            + (methods.phone?.utf8.count ?? 0) + role.utf8.count + methods.userId.utf8.count
        var buffer = ByteBufferAllocator().buffer(capacity: capacity)
        var plain = true
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { out in
            var object = Writer(out)
            // `withExplicitNulls` puts the nullable members the encoder left out first, in its own order.
            for key in Members.explicitNullOrder {
                switch key {
                case .phone where methods.phone == nil: object.null(Members.phone)
                case .email where methods.email == nil: object.null(Members.email)
                default: break
                }
            }
            // Then the members the encoder writes, keys sorted.
            object.bool(Members.appleLinked, methods.appleLinked)
            object.string(Members.email, methods.email)
            object.bool(Members.googleLinked, methods.googleLinked)
            object.bool(Members.hasPassword, methods.hasPassword)
            object.integer(Members.passkeys, methods.passkeys)
            object.string(Members.passwordChangedAt, changedAt)
            object.string(Members.phone, methods.phone)
            object.string(Members.role, role)
            object.bool(Members.twoFactorEnabled, methods.twoFactorEnabled)
            object.string(Members.userId, methods.userId)
            object.finish()
            plain = object.plain
            return object.count
        }
        return plain ? buffer : nil
    }

    /// Each member's `"key":`, from the generated coding keys, made once.
    private enum Members {
        static let appleLinked = member(.appleLinked)
        static let email = member(.email)
        static let googleLinked = member(.googleLinked)
        static let hasPassword = member(.hasPassword)
        static let passkeys = member(.passkeys)
        static let passwordChangedAt = member(.passwordChangedAt)
        static let phone = member(.phone)
        static let role = member(.role)
        static let twoFactorEnabled = member(.twoFactorEnabled)
        static let userId = member(.userId)
        /// `AuthMethods.explicitNullKeys` as coding keys: reading them from their strings was a string switch a
        /// request.
        static let explicitNullOrder = AuthMethods.explicitNullKeys.compactMap(AuthMethods.CodingKeys.init(rawValue:))

        /// The most the object takes besides its strings' own bytes: braces, every member's key and comma, and
        /// for each value the longest of `false`, `null` and a string's quotes — or of an integer's digits.
        static let longestWithoutStrings =
            2
            + [appleLinked, email, googleLinked, hasPassword, passwordChangedAt, phone, role, twoFactorEnabled, userId]
            .reduce(0) { $0 + $1.count + 1 + 5 }
            + passkeys.count + 1 + String(Int.min).utf8.count

        private static func member(_ key: AuthMethods.CodingKeys) -> [UInt8] { Array("\"\(key.rawValue)\":".utf8) }
    }

    /// One JSON object into a buffer long enough for it, its members in the order they are written; a nil value is
    /// left out, as the encoder does.
    private struct Writer {
        private let out: UnsafeMutableRawBufferPointer
        private(set) var count = 1
        /// False once a string needed escaping, or something did not fit.
        private(set) var plain = true

        init(_ out: UnsafeMutableRawBufferPointer) {
            self.out = out
            out[0] = UInt8(ascii: "{")
        }

        mutating func null(_ member: [UInt8]) {
            key(member)
            write(Self.null)
        }

        mutating func bool(_ member: [UInt8], _ value: Bool?) {
            guard let value else { return }
            key(member)
            write(value ? Self.true : Self.false)
        }

        mutating func integer(_ member: [UInt8], _ value: Int?) {
            guard let value else { return }
            key(member)
            write(Array(String(value).utf8))
        }

        mutating func string(_ member: [UInt8], _ value: String?) {
            guard var value else { return }
            key(member)
            write(UInt8(ascii: "\""))
            value.withUTF8 { utf8 in
                for byte in utf8 where !Self.isPlain(byte) { plain = false }
                write(UnsafeRawBufferPointer(utf8))
            }
            write(UInt8(ascii: "\""))
        }

        mutating func finish() { write(UInt8(ascii: "}")) }

        private mutating func key(_ member: [UInt8]) {
            if count > 1 { write(UInt8(ascii: ",")) }
            write(member)
        }

        private mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }

        /// Never past the buffer: should the sizing above ever fall short, the encoder answers instead.
        private mutating func write(_ bytes: UnsafeRawBufferPointer) {
            guard count + bytes.count <= out.count else {
                plain = false
                return
            }
            UnsafeMutableRawBufferPointer(rebasing: out[count..<(count + bytes.count)]).copyMemory(from: bytes)
            count += bytes.count
        }

        private mutating func write(_ byte: UInt8) {
            guard count < out.count else {
                plain = false
                return
            }
            out[count] = byte
            count += 1
        }

        private static let null = Array("null".utf8)
        private static let `true` = Array("true".utf8)
        private static let `false` = Array("false".utf8)

        /// Printable ASCII but the quote and the backslash: bytes every JSON encoder writes as they are.
        private static func isPlain(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
    }
}
