import Foundation
import Hummingbird

/// The floor under `make bench`'s HTTP figures: Hummingbird on this machine with one route answering
/// /health's JSON and nothing else (no gateway, journal, contract layer or database). What it serves is
/// the most any route of ours could, so the figures can be read against it. Started by
/// scripts/bench-backend.sh as `accessdeck-bench bare-server`; prints its address, stops on SIGTERM.
enum BareServer {
    static func run() async throws {
        let router = Router()
        router.get("/health") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
        try await app.runService()
    }
}
