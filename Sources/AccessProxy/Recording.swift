import Foundation
import Synchronization

/// One finished exchange as `--record DIR` keeps it (issue 52 item 5): a line of `DIR/exchanges.jsonl`. The
/// exchange is redacted as the journal redacts; what the rules read of it is its `Observation`, whose tokens, ids
/// and destinations are digests, so a replay judges the rules as the live run did and the file holds no secret.
public struct RecordedExchange: Codable, Sendable, Equatable {
    public var exchange: ProxyExchange
    /// The request's path, without the query: what the contract check matches an operation by.
    public var path: String
    public var observation: Observation
}

/// Appends each finished exchange to the recording, in the order the proxy finished them.
final class Recorder: Sendable {
    static let fileName = "exchanges.jsonl"

    private let file: Mutex<FileHandle>

    /// A recording already in `directory` is replaced.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(Self.fileName).path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw AccessProxy.ConfigurationError(description: "--record: cannot write \(path)")
        }
        file = Mutex(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
    }

    func append(_ recorded: RecordedExchange) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let line = try? encoder.encode(recorded) else { return }
        file.withLock { $0.write(line + Data("\n".utf8)) }
    }

    func close() {
        file.withLock { try? $0.close() }
    }
}

/// `accessdeck proxy --replay DIR`: a recording checked again offline, as the live proxy checked it.
public enum Replay {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func findings(directory: URL) throws -> ProxyFindings {
        let url = directory.appendingPathComponent(Recorder.fileName)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw Failure(description: "--replay: no recording at \(url.path)")
        }
        var breaks: [ContractBreak] = []
        var watch = WorldRuleWatch()
        var count = 0
        let decoder = JSONDecoder()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let recorded = try? decoder.decode(RecordedExchange.self, from: Data(line.utf8)) else {
                throw Failure(description: "--replay: line \(index + 1) of \(url.path) is not a recorded exchange")
            }
            let exchange = recorded.exchange
            breaks += ContractCheck.breaks(
                exchange, path: recorded.path, responseHeaders: exchange.responseHeaders.map { ($0.name, $0.value) },
                responseBody: body(exchange.responseBody))
            watch.see(recorded.observation)
            count += 1
        }
        return ProxyFindings(exchanges: count, contractBreaks: breaks, rules: watch.verdicts)
    }

    /// The answer's body as the check reads it: the redacted text (a secret's value is a string either way), none
    /// as empty, and one too large to check as not checked, as live.
    static func body(_ kept: String?) -> [UInt8]? {
        guard let kept else { return [] }
        return kept == BodyCopy.tooLarge ? nil : Array(kept.utf8)
    }
}
