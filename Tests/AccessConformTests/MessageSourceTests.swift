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

    /// Issue 46: the contract leaves a link's shape to the backend; one that puts its token last in the path, not
    /// in a query parameter, gives that segment (sending the whole URL as the token was a 404 on every link).
    @Test func aLinkWhoseTokenIsItsLastPathSegmentGivesThatSegment() async throws {
        for link in ["https://other.example/verify-email/tok_456", "https://other.example/l/tok_456/"] {
            let source = InboxCommandSource(command: "f() { echo '\(link)'; }; f")
            #expect(try await source.latest(.link, to: "a@b.example") == "tok_456")
        }
        let bare = InboxCommandSource(command: "f() { echo tok_789; }; f")
        #expect(try await bare.latest(.link, to: "a@b.example") == "tok_789")
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
