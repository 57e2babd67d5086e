import AccessCore
import Foundation
import NIOCore
import Synchronization

/// One request and its answer as the proxy forwarded them, redacted as the journal redacts (`Redaction`): what a
/// finding shows, `GET /_proxy/findings` serves and `--record` keeps.
public struct ProxyExchange: Codable, Sendable, Equatable {
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// 1 for the first exchange the proxy forwarded.
    public var number: Int
    public var method: String
    /// Path and query, the query's secrets redacted.
    public var target: String
    public var status: Int
    public var requestHeaders: [Header]
    public var responseHeaders: [Header]
    /// Redacted JSON; `Redaction.notJSON` for any other body; nil for none.
    public var requestBody: String?
    public var responseBody: String?

    enum CodingKeys: String, CodingKey {
        case number, method, target, status
        case requestHeaders = "request_headers"
        case responseHeaders = "response_headers"
        case requestBody = "request_body"
        case responseBody = "response_body"
    }

    static func redacted(target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark]) + "?" + Redaction.query(String(target[target.index(after: mark)...]))
    }

    static func redacted(_ fields: [(name: String, value: String)]) -> [Header] {
        fields.map { Header(name: $0.name, value: Redaction.headerValue(name: $0.name, value: $0.value)) }
    }

    static func redacted(body: BodyCopy.Kept) -> String? {
        guard !body.bytes.isEmpty else { return nil }
        guard body.isWhole else { return BodyCopy.tooLarge }
        return Redaction.json(body.bytes) ?? Redaction.notJSON
    }
}

/// A copy of a body as it streams through, up to `limit` bytes: the contract checks and the rules read it once
/// the exchange is over. A longer body is still forwarded whole; only its check is skipped.
final class BodyCopy: Sendable {
    /// What is checked of a body: the contract's largest answers (its own document) are far below it.
    static let limit = 4 * 1024 * 1024
    static let tooLarge = "[too large to check]"

    struct Kept: Sendable {
        var bytes: [UInt8] = []
        var isWhole = true
    }

    private let state = Mutex(Kept())
    private let onEnd: @Sendable (Kept) -> Void

    init(onEnd: @escaping @Sendable (Kept) -> Void = { _ in }) {
        self.onEnd = onEnd
    }

    func append(_ part: ByteBuffer) {
        state.withLock { kept in
            guard kept.isWhole else { return }
            guard kept.bytes.count + part.readableBytes <= Self.limit else {
                kept.isWhole = false
                kept.bytes = []
                return
            }
            kept.bytes.append(contentsOf: part.readableBytesView)
        }
    }

    func end() { onEnd(kept) }

    var kept: Kept { state.withLock { $0 } }
}

/// A body passed through as it comes, each part copied into `copy`; the end of it ends the copy.
struct CopiedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let copy: BodyCopy

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let copy: BodyCopy

        mutating func next() async throws -> ByteBuffer? {
            guard let part = try await base.next() else {
                copy.end()
                return nil
            }
            copy.append(part)
            return part
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), copy: copy)
    }
}
