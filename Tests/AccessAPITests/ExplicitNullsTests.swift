import AccessAPI
import Foundation
import Testing

/// The explicit `null`s put back into AuthMethods objects (swift-openapi-generator issue 934), on the
/// bytes as the server's encoder writes them.
@Suite struct ExplicitNullsTests {
    static let methods =
        #""user_id":"usr_1","role":"athlete","has_password":false,"apple_linked":true,"google_linked":false"#

    func object(_ json: String) throws -> [String: Any] {
        let data = AuthMethods.withExplicitNulls(Data(json.utf8))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aTopLevelObjectGetsBothNulls() throws {
        let fixed = try object("{\(Self.methods)}")
        #expect(fixed["phone"] is NSNull)
        #expect(fixed["email"] is NSNull)
        #expect(fixed["user_id"] as? String == "usr_1")
        #expect(fixed.count == 7)
    }

    @Test func keysAlreadyThereAreKept() throws {
        let fixed = try object(#"{"phone":"+995511100000",\#(Self.methods)}"#)
        #expect(fixed["phone"] as? String == "+995511100000")
        #expect(fixed["email"] is NSNull)
    }

    @Test func aNestedObjectInsideAnArrayGetsThem() throws {
        let fixed = try object(#"{"purpose":"add_phone","list":[1,{"x":[]}],"auth_methods":{\#(Self.methods)}}"#)
        let nested = try #require(fixed["auth_methods"] as? [String: Any])
        #expect(nested["phone"] is NSNull)
        #expect(nested["email"] is NSNull)
        #expect(fixed["phone"] == nil)
    }

    @Test func keysInsideStringsAndOtherObjectsAreNotMistakenForKeys() throws {
        // "phone" appears as a value, inside an escaped string and as a key of a child: none of them count.
        let json =
            #"{"note":"\"phone\":1, {\"email\"}","child":{"phone":"x","email":"y"},"kind":"phone",\#(Self.methods)}"#
        let fixed = try object(json)
        #expect(fixed["phone"] is NSNull)
        #expect(fixed["email"] is NSNull)
        #expect(fixed["note"] as? String == #""phone":1, {"email"}"#)
    }

    @Test func onlyTheWholeKeyCountsAndEveryIdentifyingKeyIsNeeded() throws {
        // Keys that merely start like a watched one are other keys: "phone_number" is not "phone".
        let fixed = try object(#"{"phone_number":"1","emails":[],\#(Self.methods)}"#)
        #expect(fixed["phone"] is NSNull)
        #expect(fixed["email"] is NSNull)
        // Three of the four identifying keys: not an AuthMethods object, left as it is.
        let partial = #"{"user_id":"usr_1","has_password":false,"apple_linked":true}"#
        #expect(AuthMethods.withExplicitNulls(Data(partial.utf8)) == Data(partial.utf8))
        // Both already there: nothing to add, the bytes come back as they were.
        let whole = #"{"phone":null,"email":"a@b.c",\#(Self.methods)}"#
        #expect(AuthMethods.withExplicitNulls(Data(whole.utf8)) == Data(whole.utf8))
    }

    @Test func otherObjectsAndBrokenJSONAreLeftAlone() {
        for json in [#"{"status":"ok"}"#, "{\(Self.methods)", #"{"a":"unterminated}"#, "[}", ""] {
            #expect(AuthMethods.withExplicitNulls(Data(json.utf8)) == Data(json.utf8))
        }
    }
}
