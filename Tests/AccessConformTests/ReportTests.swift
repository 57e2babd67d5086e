import AccessBackend
import AccessBackendTesting
import AccessCore
import Foundation
import Synchronization
import Testing

@testable import AccessConform

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 32: the printed report and the JUnit XML, and that neither shows a token, a password or a code.
@Suite struct ReportTests {
    /// Counts the testcases, failures and skips of a JUnit document by parsing it.
    final class JUnitCounter: NSObject, XMLParserDelegate {
        var testcases = 0
        var failures = 0
        var skipped = 0
        var suiteAttributes: [String: String] = [:]

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            switch name {
            case "testsuite": suiteAttributes = attributes
            case "testcase": testcases += 1
            case "failure": failures += 1
            case "skipped": skipped += 1
            default: break
            }
        }
    }

    @Test func junitIsWellFormedWithOneTestcasePerRuleAndTheRightCounts() async throws {
        let run = try await conform(
            Selection(only: ["link", "session.invalid", "disconnect"]), policy: .breaking(.linkExpired))
        let counter = JUnitCounter()
        let parser = XMLParser(data: Data(ConformReport.junit(run).utf8))
        parser.delegate = counter
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(counter.testcases == run.results.count)
        // link.expired broken on each of its roads (and where another link rule's check meets it): one failure each.
        let broken = run.brokenCount
        #expect(broken >= Rule.linkExpired.operations.count)
        #expect(counter.failures == broken)
        let notKept = run.results.filter { $0.verdict != .kept }.count
        #expect(counter.skipped == notKept - broken)
        #expect(counter.suiteAttributes["tests"] == "\(run.results.count)")
        #expect(counter.suiteAttributes["failures"] == "\(broken)")
        #expect(counter.suiteAttributes["skipped"] == "\(notKept - broken)")
    }

    @Test func theReportAndTheXMLShowNoCodeOrLinkTheChecksUsed() async throws {
        let recorder = Mutex<RecordingSource?>(nil)
        // Broken rules print their exchanges: the refresh tokens and the link's token are in those requests.
        let run = try await conform(
            Selection(only: ["signin", "link", "session"]), policy: .breaking(.sessionRefreshReused, .linkExpired),
            messages: { http in
                let source = RecordingSource(OutboxSource(http: http))
                recorder.withLock { $0 = source }
                return source
            })
        let secrets = try #require(recorder.withLock { $0 }).seen.withLock { $0 }
        #expect(secrets.count > 5)
        let text = ConformReport.text(run)
        let xml = ConformReport.junit(run)
        #expect(text.contains("BROKEN"))
        #expect(text.contains("[redacted]"))
        for secret in secrets {
            #expect(!text.contains(secret))
            #expect(!xml.contains(secret))
        }
        // Tokens the backend issued look like these; none is printed.
        for prefix in ["rt_", "at_", "ra_", "sess_"] {
            #expect(!text.contains("\"\(prefix)"), "\(prefix)")
        }
    }

    @Test func anExchangeIsShownWithItsSecretsRedacted() {
        let exchange = Exchange(
            method: "POST", path: "/auth/refresh?token=abc123secret",
            requestBody: Data(
                #"{"refresh_token":"rt_secret_value","password":"hunter2-hunter2","code":"482913"}"#.utf8),
            status: 401,
            body: Data(#"{"error":{"code":"refresh_invalid","message":"no"},"access_token":"at_leak"}"#.utf8))
        let shown = exchange.redacted
        for secret in ["abc123secret", "rt_secret_value", "hunter2-hunter2", "482913", "at_leak"] {
            #expect(!shown.contains(secret), "\(secret) in \(shown)")
        }
        #expect(exchange.summary == "401 refresh_invalid")
        // A code echoed as an error code is never shown either.
        let echo = Exchange(
            method: "POST", path: "/x", requestBody: nil, status: 401,
            body: Data(#"{"error":{"code":"482913","message":"no"}}"#.utf8))
        #expect(echo.summary == "401")
    }

    /// Issue 45 item 8: a backend's body with a C1 control (U+009B is a CSI) or a bidi override or isolate is
    /// printed escaped, in the text and in the XML, as the app's screen never draws them either.
    @Test func controlsAndBidiOverridesFromABackendArePrintedEscaped() async throws {
        // Raw in the body (JSON lets every character but C0, the quote and the backslash stand as it is).
        let body = "{\"note\": \"\u{9B}2J\u{85}\u{202E}gnp.exe\u{2066}x\u{2069}\u{202A}\"}"
        let run = try await conform(Selection(only: ["http.not_found"])) { backend in
            let faults = try JSONSerialization.data(withJSONObject: [
                "endpoints": [["path": "/conform-no-such-endpoint", "kind": "body", "body": body]]
            ])
            #expect(try await backend.send(.POST, "/_admin/faults", raw: faults).status == 200)
        }
        guard case .broken = run.verdict(.httpNotFound) else {
            Issue.record("\(String(describing: run.verdict(.httpNotFound)))")
            return
        }
        let text = ConformReport.text(run)
        let xml = ConformReport.junit(run)
        for printed in [text, xml] {
            let unsafe = printed.unicodeScalars.filter {
                (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            }
            #expect(unsafe.isEmpty, "\(unsafe.map { String($0.value, radix: 16) })")
            #expect(printed.contains(#"\u009b2J\u0085\u202egnp.exe\u2066x\u2069\u202a"#), "\(printed)")
        }
    }

    /// Every rule id is printed whole, the longest too (two_factor.recovery_codes_regenerated, 37 characters),
    /// with the titles in one column.
    @Test func theLongestRuleIdIsNotCut() {
        let longest = Rule.allCases.max { $0.rawValue.count < $1.rawValue.count }!
        let run = ConformRun([
            RuleResult(longest, title: "a title", verdict: .kept), RuleResult(.otpExpired, title: "b", verdict: .kept),
        ])
        let lines = ConformReport.text(run).split(separator: "\n")
        #expect(lines[0] == "kept         \(longest.rawValue) a title")
        let padding = String(repeating: " ", count: longest.rawValue.count - "otp.expired".count)
        #expect(lines[1] == "kept         otp.expired\(padding) b")
    }
}
