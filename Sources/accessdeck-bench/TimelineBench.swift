import AccessAPI
import AccessBackend
import Foundation
import Logging

/// Issue 49 item 2: how long `GET /_admin/timeline` takes to answer for a person with 10,000 events (the goal is
/// under 50 ms). The events are made the way the backend makes them: 10,000 QA sign-ins of the scenario's user,
/// each a `session_started`. Prints; asserts nothing.
enum TimelineBench {
    static let events = 10_000
    static let rounds = 20

    static func run(logger: Logger) async throws {
        let backend = try await ReferenceBackend.start(.init(logger: logger))
        let client = AccountClient(configuration: .init(baseURL: backend.baseURL), sessionStore: nil)
        // Shut down on every way out: AsyncHTTPClient traps on a client that was never shut down, which hid
        // the error that ended a debug run.
        do {
            try await measure(client)
        } catch {
            await client.shutdown()
            await backend.shutdown()
            throw error
        }
        await client.shutdown()
        await backend.shutdown()
    }

    private static func measure(_ client: AccountClient) async throws {
        for _ in 0..<events { try await client.adminSignIn() }
        let clock = ContinuousClock()
        // Not all 10,000 in one answer: that is some 3 MB, past the app client's 1 MiB answer limit
        // (`ClientMiddlewares.errorBodyLimit`), which is what ended the first debug runs ("invalid response").
        for (label, limit) in [("newest 200 (the default)", 200), ("newest 1,000", 1_000)] {
            var samples: [Duration] = []
            for _ in 0..<rounds {
                let started = clock.now
                let timeline = try await client.adminTimeline(user: "usr_athlete", since: nil, kinds: nil, limit: limit)
                samples.append(clock.now - started)
                guard timeline.events.count == limit else {
                    throw Unexpected(description: "the timeline answered \(timeline.events.count) events, not \(limit)")
                }
            }
            samples.sort()
            print(
                "timeline of a user with \(events) events, \(label), x\(rounds): p50 \(milliseconds(samples[rounds / 2]))"
                    + "  max \(milliseconds(samples[rounds - 1]))  (goal < 50 ms)")
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }
}
