import AccessConform
import Foundation
import Testing

/// Issue 32: `--inbox CMD` runs the command with the destination and takes its last non-empty line.
@Suite struct MessageSourceTests {
    @Test func theInboxCommandGetsTheDestinationAndItsLastLineIsTheCode() async throws {
        let source = InboxCommandSource(command: #"f() { echo "looking for $1"; echo "code-for-$1"; echo; }; f"#)
        #expect(try await source.latest(.code, to: "+995591234567") == "code-for-+995591234567")
    }

    @Test func aLinkFromTheInboxGivesItsToken() async throws {
        let source = InboxCommandSource(command: #"f() { echo "https://321.fit/reauth?token=tok_123"; }; f"#)
        #expect(try await source.latest(.link, to: "a@b.example") == "tok_123")
    }

    /// The destination is an argument, never part of the command's text: a quote in it runs nothing.
    @Test func theDestinationIsNotShellText() async throws {
        let source = InboxCommandSource(command: #"f() { printf '%s\n' "$1"; }; f"#)
        #expect(try await source.latest(.code, to: "x'; echo owned; '") == "x'; echo owned; '")
    }

    @Test func anInboxThatFailsOrPrintsNothingIsNoCode() async throws {
        for command in ["false", "true"] {
            await #expect(throws: (any Error).self) {
                try await InboxCommandSource(command: command).latest(.code, to: "+995591234567")
            }
        }
    }
}
