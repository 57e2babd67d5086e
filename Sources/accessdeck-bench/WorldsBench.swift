import AccessAPI
import AccessBackend
import Foundation
import Logging

/// Issue 33: how many worlds one `serve` holds. The memory one more open world costs (resident set size,
/// from /proc), and GET /me/auth-methods per second with 1, 10 and 100 worlds busy at once, each world with
/// its own signed-in client. Prints figures; asserts nothing.
enum WorldsBench {
    static let opened = 100
    static let busy = [1, 10, 100]
    /// Requests in flight at once, spread over the busy worlds.
    static let concurrency = 32
    static let duration: Duration = .seconds(3)

    static func run(logger: Logger) async throws {
        var configuration = ReferenceBackend.Configuration(logger: logger)
        configuration.worldLimits = .init(maxWorlds: 1000)
        let backend = try await ReferenceBackend.start(configuration)
        // The first world pays for what every world shares (code pages, SQLite's and the allocator's pools).
        let warmUp = AccountClient(configuration: .init(baseURL: backend.baseURL + "/w/warm-up"), sessionStore: nil)
        try await warmUp.adminSignIn()
        let before = residentBytes()
        var clients: [AccountClient] = []
        for index in 0..<opened {
            let client = AccountClient(
                configuration: .init(baseURL: backend.baseURL + "/w/bench-\(index)"), sessionStore: nil)
            try await client.adminSignIn()
            clients.append(client)
        }
        let after = residentBytes()
        print("worlds: \(opened) opened and signed in, resident memory +\(mb(after - before)) MB")
        print("  about \(String(format: "%.2f", Double(after - before) / Double(opened) / 1_048_576)) MB a world")
        for count in busy {
            let rate = try await requestsPerSecond(clients: Array(clients.prefix(count)))
            print("  \(count) world(s) busy, \(concurrency) requests in flight: \(Int(rate)) GET /me/auth-methods/s")
        }
        for client in clients { await client.shutdown() }
        await warmUp.shutdown()
        await backend.shutdown()
    }

    static func requestsPerSecond(clients: [AccountClient]) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + duration
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                let client = clients[worker % clients.count]
                group.addTask {
                    var done = 0
                    while clock.now < deadline {
                        _ = try await client.authMethods()
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - started
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// VmRSS of this process, from /proc/self/statm (pages).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func mb(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
