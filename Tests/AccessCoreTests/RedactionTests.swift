import AccessCore
import Foundation
import Testing

/// One place decides what a journal may show; these are its rules.
@Suite struct RedactionTests {
    @Test func credentialHeadersAreHidden() {
        for name in ["Authorization", "cookie", "Set-Cookie", "X-Admin-Token"] {
            #expect(Redaction.headerValue(name: name, value: "Bearer abc") == "[redacted]")
        }
        #expect(Redaction.headerValue(name: "Content-Type", value: "application/json") == "application/json")
    }

    /// Issue 25, defect 6: X-Reauth-Token was shown in clear. Any header named like a credential is hidden,
    /// declared in the contract or not.
    @Test func headersNamedLikeCredentialsAreHidden() {
        for name in [
            "X-Reauth-Token", "x-reauth-token", "X-Api-Key", "Apikey", "X-CSRF-Token", "Proxy-Authorization",
            "X-Client-Secret", "X-Session-Cookie", "Set-Cookie2",
        ] {
            #expect(Redaction.headerValue(name: name, value: "s3cr3t") == "[redacted]", "\(name)")
        }
        for name in ["Content-Type", "X-Request-ID", "Accept", "User-Agent", "Host", "Content-Length", "Keep-Alive"] {
            #expect(Redaction.headerValue(name: name, value: "plain") == "plain", "\(name)")
        }
    }

    /// Walks the contract itself, so a credential added to it later is hidden or this fails: every
    /// security scheme by the header (or query parameter) it travels in, and every header parameter, which
    /// the contract has only for credentials (name one in `notSecret` to say otherwise).
    @Test func everyCredentialTheContractDeclaresIsHidden() throws {
        let contract = try ContractDocument.load()
        #expect(contract.schemes.map(\.name).contains("bearerAuth"), "the walk found no security schemes")
        for scheme in contract.schemes {
            switch scheme.carrier {
            case .header(let header):
                #expect(Redaction.headerValue(name: header, value: "s3cr3t") == "[redacted]", "\(scheme.name)")
            case .query(let parameter):
                #expect(Redaction.query("\(parameter)=s3cr3t") == "\(parameter)=[redacted]", "\(scheme.name)")
            }
        }
        let notSecret: Set<String> = []
        #expect(!contract.headerParameters.isEmpty, "the walk found no header parameters")
        for header in contract.headerParameters where !notSecret.contains(header.lowercased()) {
            #expect(Redaction.headerValue(name: header, value: "s3cr3t") == "[redacted]", "\(header)")
        }
    }

    @Test func secretMembersAreHiddenAtAnyDepth() {
        let text = #"{"email":"a@b.c","password":"hunter22","nested":{"list":[{"code":"123456"}],"token":7}}"#
        #expect(
            Redaction.json(text)
                == #"{"email":"a@b.c","password":"[redacted]","nested":{"list":[{"code":"[redacted]"}],"token":"[redacted]"}}"#
        )
    }

    @Test func aSecretMemberHoldingAnObjectIsHiddenWhole() {
        #expect(Redaction.json(#"{"link": {"url": "x", "n": [1, 2]}, "a": 1}"#) == #"{"link": "[redacted]", "a": 1}"#)
    }

    @Test func anErrorsCodeSaysWhatWentWrongAndStays() {
        let text = #"{"error":{"code":"rate_limited","message":"Too many attempts."}}"#
        #expect(Redaction.json(text) == text)
        // Only the error object's own member: a code beside it, or deeper, is still a secret.
        #expect(
            Redaction.json(#"{"error":{"detail":{"code":"123456"}},"code":"654321"}"#)
                == #"{"error":{"detail":{"code":"[redacted]"}},"code":"[redacted]"}"#)
    }

    @Test func namesCompareWithoutCase() {
        #expect(Redaction.json(#"{"Password":"x"}"#) == #"{"Password":"[redacted]"}"#)
    }

    @Test func textKeepsItsSpacingEscapesAndOtherValues() {
        let text = "{ \"note\" : \"say \\\"password\\\": no\", \"ok\": true, \"n\": -1.5e3, \"x\": null }"
        #expect(Redaction.json(text) == text)
    }

    @Test func textThatIsNotJSONIsNotKept() {
        #expect(Redaction.json("password=hunter22") == Redaction.notJSON)
        #expect(Redaction.json(#"{"password": "hunter22""#) == Redaction.notJSON)
        #expect(Redaction.json(#"{password: "hunter22"}"#) == Redaction.notJSON)
        #expect(
            Redaction.json(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) == Redaction.notJSON
        )
    }

    @Test func aCutBodyNeverShowsPartOfASecret() {
        let secret = String(repeating: "s", count: 200)
        let text =
            #"{"a":"\#(String(repeating: "x", count: 20))","password":"\#(secret)","b":"\#(String(repeating: "y", count: 100))"}"#
        let cut = Redaction.json(Array(text.utf8), maxBytes: 60)
        #expect(cut == #"{"a":"xxxxxxxxxxxxxxxxxxxx","password":"[redacted]","b":"yyy"#)
        #expect(cut?.contains("sss") == false)
    }

    @Test func aCutNeverSplitsACharacter() {
        let cut = Redaction.json(Array(#"["ééééé"]"#.utf8), maxBytes: 5)
        #expect(cut == #"["é"#)
    }

    @Test func everySecretIsHiddenAndEverythingBetweenKept() {
        // The redactor notes where secrets lie and copies the text around them at the end: the runs between
        // several secrets, a secret first or last, a secret inside a secret and an error's code inside a
        // nested `error` all come out as written but for the secrets.
        let text =
            #"{"token":1,"a":[true,false,null,-2.5E+3],"b":{"error":{"code":"gone"}},"link":{"url":"u"},"z":"q","code":"9"}"#
        #expect(
            Redaction.json(text)
                == #"{"token":"[redacted]","a":[true,false,null,-2.5E+3],"b":{"error":{"code":"gone"}},"link":"[redacted]","z":"q","code":"[redacted]"}"#
        )
        // Cut between two secrets and right after one: no part of either is shown.
        let cut = Redaction.json(Array(#"{"code":"111111","x":"abcdef","password":"hunter22"}"#.utf8), maxBytes: 34)
        #expect(cut == #"{"code":"[redacted]","x":"abcdef","#)
        #expect(Redaction.json(Array(#"{"code":"111111","x":1}"#.utf8), maxBytes: 20) == #"{"code":"[redacted]""#)
    }

    @Test func aNameThatLowercasesToASecretIsHidden() {
        // U+212A KELVIN SIGN lowercases to "k": a name compared by its bytes alone would miss it.
        #expect(Redaction.json("{\"to\u{212A}en\":\"abc\"}") == "{\"to\u{212A}en\":\"[redacted]\"}")
        #expect(Redaction.json(#"{"TOKEN":"abc","tokens":"kept"}"#) == #"{"TOKEN":"[redacted]","tokens":"kept"}"#)
    }

    /// Issue 29: a decoder reads `pass\u0077ord` as `password`, so the journal must too: names are decoded
    /// (every escape, surrogate pairs included) before they are judged, and kept as written.
    @Test func aNameWrittenWithEscapesIsJudgedDecoded() {
        #expect(Redaction.json(#"{"pass\u0077ord":"hunter2"}"#) == #"{"pass\u0077ord":"[redacted]"}"#)
        #expect(
            Redaction.json(#"{"\u0063\u006F\u0044\u0065":"123456"}"#) == #"{"\u0063\u006F\u0044\u0065":"[redacted]"}"#)
        #expect(Redaction.json(#"{"a":{"to\u006ben":1}}"#) == #"{"a":{"to\u006ben":"[redacted]"}}"#)
        // An escaped `error` is still the error object, whose own code stays.
        #expect(Redaction.json(#"{"\u0065rror":{"code":"gone"}}"#) == #"{"\u0065rror":{"code":"gone"}}"#)
        // Escapes that decode to another name leave the value alone; broken escapes are not JSON.
        #expect(Redaction.json(#"{"pass\nword":"x","\ud83d\ude00":"y"}"#) == #"{"pass\nword":"x","\ud83d\ude00":"y"}"#)
        #expect(Redaction.json(#"{"pass\u00zzord":"x"}"#) == Redaction.notJSON)
        #expect(Redaction.json(#"{"pass\qord":"x"}"#) == Redaction.notJSON)
    }

    @Test func scalarsThatAreNotJSONAreRefused() {
        #expect(Redaction.json(#"{"a":tru}"#) == Redaction.notJSON)
        #expect(Redaction.json(#"{"a":1.2.3}"#) == Redaction.notJSON)
        #expect(Redaction.json(#"{"a":1} x"#) == Redaction.notJSON)
    }

    @Test func queryParametersAreHiddenByName() {
        #expect(
            Redaction.query("code=123456&phone=%2B995&Token=abc") == "code=[redacted]&phone=%2B995&Token=[redacted]")
        #expect(Redaction.query("c%6Fde=123456") == "c%6Fde=[redacted]")
        #expect(Redaction.query("flag&limit=5") == "flag&limit=5")
    }
}

/// What Sources/AccessAPI/openapi.yaml declares about credentials, read as text: the document keeps one
/// regular layout (two-space indents, one key a line), which is all this needs of YAML.
struct ContractDocument {
    enum Carrier: Equatable {
        case header(String)
        case query(String)
    }

    struct Scheme {
        var name: String
        var fields: [String: String] = [:]

        /// Where the credential travels: HTTP schemes (bearer, basic) and OAuth in Authorization; an API
        /// key in the header, cookie or query parameter it names.
        var carrier: Carrier {
            guard fields["type"] == "apiKey" else { return .header("Authorization") }
            switch fields["in"] {
            case "cookie": return .header("Cookie")
            case "query": return .query(fields["name"] ?? "")
            default: return .header(fields["name"] ?? "")
            }
        }
    }

    var schemes: [Scheme] = []
    var headerParameters: [String] = []

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessAPI/openapi.yaml")

    static func load() throws -> ContractDocument {
        try ContractDocument(text: String(contentsOf: path, encoding: .utf8))
    }

    init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // components.securitySchemes: each scheme at indent 4, its fields at indent 6.
        if let start = lines.firstIndex(of: "  securitySchemes:") {
            for line in lines[(start + 1)...] {
                let indent = line.prefix { $0 == " " }.count
                let content = line.trimmingCharacters(in: .whitespaces)
                if content.isEmpty || content.hasPrefix("#") { continue }
                if indent <= 2 { break }
                let (key, value) = Self.pair(content)
                if indent == 4 {
                    schemes.append(Scheme(name: key))
                } else if indent == 6, !schemes.isEmpty {
                    schemes[schemes.count - 1].fields[key] = value
                }
            }
        }
        // Every parameter mapping (inline or in components) with `in: header`, whichever key comes first.
        var mapping: [String: String] = [:]
        var mappingIndent = -1
        func close() {
            if mapping["in"] == "header", let name = mapping["name"] { headerParameters.append(name) }
            mapping = [:]
        }
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            var content = line.trimmingCharacters(in: .whitespaces)
            // A list item starts a mapping whose further keys sit two columns right of its dash.
            if content.hasPrefix("- ") {
                close()
                content = String(content.dropFirst(2))
                mappingIndent = indent + 2
            } else if indent != mappingIndent {
                close()
                mappingIndent = indent
            }
            let (key, value) = Self.pair(content)
            if key == "name" || key == "in" { mapping[key] = value }
        }
        close()
    }

    /// `key: "value"` → (key, value), quotes dropped.
    private static func pair(_ content: String) -> (String, String) {
        guard let colon = content.firstIndex(of: ":") else { return (content, "") }
        let key = content[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        let value = content[content.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        return (key, value)
    }
}
