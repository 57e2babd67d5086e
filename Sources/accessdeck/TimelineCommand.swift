import AccessAPI
import AccessCore
import ArgumentParser
import Foundation
import Logging

/// `accessdeck timeline USER --backend URL`: one person's events from a reference backend's event log
/// (`GET /_admin/timeline`, issue 49), for support: by account id, phone number or email address.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print one person's events (codes, sends refused, sign-ins, sessions and why they ended, …).")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
        case csv
    }

    @Argument(help: "An account id (usr_…), a phone number (+447700900123) or an email address.")
    var user: String

    @Option(help: "The reference backend, e.g. http://127.0.0.1:8080 (`accessdeck serve`, or `accessdeck --port N`).")
    var backend: String

    @Option(help: "Only events at or after this time, ISO 8601 (2026-11-29T10:00:00Z).")
    var since: String?

    @Option(help: "Only these kinds, comma-separated (code_sent,send_refused,session_ended,…).")
    var kinds: String?

    @Option(help: "At most this many events, the newest (1 to 10000; default 200).")
    var limit: Int?

    @Option(help: "text (one event a line), json (the answer as the backend gave it) or csv.")
    var format: Format = .text

    func validate() throws {
        if let since, TOTPCode.date(since) == nil {
            throw ValidationError("--since takes an ISO 8601 time such as 2026-11-29T10:00:00Z, not '\(since)'")
        }
        if let limit, !(1...10_000).contains(limit) { throw ValidationError("--limit takes 1 to 10000") }
        if URL(string: backend)?.host == nil {
            throw ValidationError("--backend takes a URL such as http://127.0.0.1:8080")
        }
    }

    func run() async throws {
        let quiet = Logger(label: "accessdeck") { _ in SwiftLogNoOpLogHandler() }
        let client = AccountClient(configuration: .init(baseURL: backend), sessionStore: nil, logger: quiet)
        let timeline: Timeline
        do {
            timeline = try await client.adminTimeline(user: user, since: since, kinds: kinds, limit: limit)
        } catch {
            await client.shutdown()
            throw RuntimeError((error as? APIError)?.message ?? "\(error)")
        }
        await client.shutdown()
        switch format {
        case .text: print(Self.text(timeline), terminator: "")
        case .json: print(String(decoding: try APIJSON.makeContractEncoder().encode(timeline), as: UTF8.self))
        case .csv: print(Self.csv(timeline), terminator: "")
        }
    }

    /// One event a line: its time (UTC), its kind in words, its details, then rule, session, device and address.
    static func text(_ timeline: Timeline) -> String {
        guard !timeline.events.isEmpty else { return "No events.\n" }
        return timeline.events.map { event in
            var parts = [time(event.at), EventKind(rawValue: event.kind)?.words ?? event.kind]
            let detail = event.detail.additionalProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            if !detail.isEmpty { parts.append(detail.joined(separator: " ")) }
            if let subject = event.subject { parts.append("to/for \(subject)") }
            if let rule = event.rule { parts.append("rule \(rule)") }
            if let session = event.sessionId { parts.append("session \(session)") }
            if let device = event.deviceId { parts.append("device \(device)") }
            if let address = event.clientAddress { parts.append("from \(address)") }
            return parts.joined(separator: "  ") + "\n"
        }.joined()
    }

    static let csvColumns = [
        "id", "at", "kind", "user_id", "subject", "rule", "session_id", "device_id", "client_address", "detail",
    ]

    static func csv(_ timeline: Timeline) -> String {
        var lines = [csvColumns.joined(separator: ",")]
        for event in timeline.events {
            let detail = event.detail.additionalProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let fields: [String?] = [
                String(event.id), time(event.at), event.kind, event.userId, event.subject, event.rule, event.sessionId,
                event.deviceId, event.clientAddress, detail.joined(separator: ";"),
            ]
            lines.append(fields.map { csvField($0 ?? "") }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
    static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func time(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
