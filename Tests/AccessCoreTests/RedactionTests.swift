import AccessCore
import Testing

/// One place decides what a journal may show; these are its rules.
@Suite struct RedactionTests {
    @Test func credentialHeadersAreHidden() {
        for name in ["Authorization", "cookie", "Set-Cookie", "X-Admin-Token"] {
            #expect(Redaction.headerValue(name: name, value: "Bearer abc") == "[redacted]")
        }
        #expect(Redaction.headerValue(name: "Content-Type", value: "application/json") == "application/json")
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

    @Test func queryParametersAreHiddenByName() {
        #expect(
            Redaction.query("code=123456&phone=%2B995&Token=abc") == "code=[redacted]&phone=%2B995&Token=[redacted]")
        #expect(Redaction.query("c%6Fde=123456") == "c%6Fde=[redacted]")
        #expect(Redaction.query("flag&limit=5") == "flag&limit=5")
    }
}
