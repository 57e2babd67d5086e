import Foundation
import Testing

/// Issue 17 item 1: a link waited for has a way in without the outbox, as against a real backend:
/// pasted on "Check your email", or handed over with `accessdeck open-link URL`.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct LinkEndToEndTests {
    /// The newest message's link in the backend's outbox, as the person would copy it from the mail.
    func newestLink(_ admin: ReferenceAdmin) throws -> String {
        let messages = try JSONSerialization.jsonObject(with: Data(try admin.get("/outbox").utf8)) as? [[String: Any]]
        guard let link = messages?.compactMap({ $0["link"] as? String }).last else {
            throw Tmux.Failure(description: "no link in the outbox")
        }
        return link
    }

    func emailALink(_ tmux: Tmux) throws {
        try tmux.sendKeys("Enter")  // Phone number → change
        try tmux.waitFor("Verify it's you")
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")  // Email a link
        try tmux.waitFor("Paste the link from the email here to open it.")
    }

    @Test func aPastedLinkOpensItAndTextThatIsNoLinkSaysSo() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try emailALink(tmux)
        try tmux.pasteBracketed("see you at ten")
        try tmux.waitFor("That doesn't look like the link from the email.")
        try tmux.pasteBracketed(try newestLink(admin))
        try tmux.waitFor("Current: +995 511 100 000")
    }

    @Test func openLinkHandsTheLinkToTheRunningApp() throws {
        let admin = try ReferenceAdmin()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "links-\(UUID().uuidString.prefix(8))")
        let socket = folder.appendingPathComponent("links.sock").path
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try Tmux.openHub(
            scenario: "default", admin: admin, environment: ["ACCESSDECK_LINK_SOCKET": socket])
        try emailALink(tmux)
        let handed = try CommandLineTests().run(
            ["open-link", try newestLink(admin)], environment: ["ACCESSDECK_LINK_SOCKET": socket])
        #expect(handed.status == 0)
        #expect(handed.output == "Handed the link to the running AccessDeck.\n")
        try tmux.waitFor("Current: +995 511 100 000")
        // Only this user may hand links to the app.
        let attributes = try FileManager.default.attributesOfItem(atPath: socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}

/// Issue 17 item 8: with `--backend`, nothing is asked of the backend before the first frame. A
/// host that takes the connection and never answers would hold a probe for its whole time-out and
/// retries (half a minute); the app is on screen meanwhile, and quits at once.
@Suite(.enabled(if: Tmux.isAvailable)) struct SilentBackendEndToEndTests {
    @Test func theFirstFrameDoesNotWaitForTheBackend() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let app = try Tmux(
            width: 80, height: 24,
            command: [try AccessDeckBinary.requireBuilt(), "--backend", "http://127.0.0.1:\(port)"],
            environment: ["XDG_STATE_HOME": state.path])
        // No stored session: Welcome, drawn without asking the backend anything.
        try app.waitFor("Get started", timeout: .seconds(15))
        try app.sendKeys("q")
        #expect(try app.waitForExit(timeout: .seconds(15)) == 0)
    }
}
