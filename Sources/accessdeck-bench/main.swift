import AccessAPI
import AccessBackend
import CursesDriver
import Foundation
import Logging

// Figures for `make bench`; asserts nothing. The client's own latency over loopback:
// 1,000 sequential GET /me/auth-methods against the embedded reference backend.

if CommandLine.arguments.dropFirst().first == "bare-server" {
    try await BareServer.run()
    exit(0)
}

// As the app does before its frame loop (key to frame below).
FrameMemory.keepFreedFrames()

let count = 1000
let backend = try await ReferenceBackend.start(
    .init(logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }))
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

KeyToFrame.run()
