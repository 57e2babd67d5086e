import AccessAPI
import AccessBackend
import CursesDriver
import Foundation
import Logging
import Synchronization

// Figures for `make bench`; asserts nothing. The client's own latency over loopback:
// 1,000 sequential GET /me/auth-methods against the embedded reference backend.
//
// The main thread blocks on each async part (`blocking`) rather than being an async main: an async main
// parks the main thread in libdispatch's `dispatch_main`, under which valgrind (callgrind, for instruction
// counts that do not depend on the machine's load) stops with an internal error.

/// Runs `body` on the concurrency pool and waits for it.
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    Task.detached {
        do { try await body() } catch { failure.withLock { $0 = error } }
        done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
}

let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }

switch CommandLine.arguments.dropFirst().first {
case "bare-server":
    try blocking { try await BareServer.run() }
    exit(0)
case "start":
    // What the app waits for before its first useful screen, alone, for a profiler: the embedded backend's
    // start and the QA sign-in, then shutdown. Under callgrind everything runs some 50 times slower: with the
    // loopback's 3 s the sign-in timed out, and the profile measured a failed start and its crash report.
    try blocking {
        let backend = try await ReferenceBackend.start(.init(logger: quiet))
        var configuration = AccountClient.Configuration(baseURL: backend.baseURL)
        configuration.setTimeout(seconds: 600)
        configuration.connectTimeout = .seconds(600)
        let client = AccountClient(configuration: configuration, sessionStore: nil)
        try await client.adminSignIn()
        await client.shutdown()
        await backend.shutdown()
    }
    exit(0)
case "serve":
    // The embedded backend alone on a free port, its address on stdout, until SIGTERM: for a profiler. With
    // `accessdeck serve`'s logger: Hummingbird gives every request's logger its id, which costs what the handler
    // makes it cost.
    try blocking {
        let backend = try await ReferenceBackend.start(.init(logger: ServerLogHandler.serverLogger()))
        print("listening on \(backend.baseURL)")
        fflush(nil)
        try await backend.waitUntilStopped()
    }
    exit(0)
case "proxy":
    // Issue 52: the latency `accessdeck proxy` adds, against the upstream alone in the same run.
    try blocking { try await ProxyBench.run(logger: quiet) }
    exit(0)
case "timeline":
    try blocking { try await TimelineBench.run(logger: quiet) }
    exit(0)
case "worlds":
    // Issue 33: memory per world and requests/s with 1, 10 and 100 worlds busy.
    try blocking { try await WorldsBench.run(logger: quiet) }
    exit(0)
default:
    break
}

// As the app does before its frame loop (key to frame below).
FrameMemory.keepFreedFrames()

let count = 1000
try blocking {
    let backend = try await ReferenceBackend.start(.init(logger: quiet))
    let client = AccountClient(configuration: .init(baseURL: backend.baseURL), sessionStore: nil)
    try await client.adminSignIn()
    for _ in 0..<50 { _ = try await client.authMethods() }  // warm the connection pool

    var samples: [Duration] = []
    samples.reserveCapacity(count)
    let clock = ContinuousClock()
    for _ in 0..<count {
        let started = clock.now
        _ = try await client.authMethods()
        samples.append(clock.now - started)
    }
    samples.sort()
    func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
    print("client GET /me/auth-methods x\(count) over loopback:")
    print(
        "  p50 \(milliseconds(samples[count / 2]))  p99 \(milliseconds(samples[count * 99 / 100]))  max \(milliseconds(samples[count - 1]))"
    )
    await client.shutdown()
    await backend.shutdown()
}

try blocking { try await TimelineBench.run(logger: quiet) }

KeyToFrame.run()
