import HTTPTypes
import Testing

@testable import AccessBackend

/// Issue 34 item 2: `value(of:)` gives what the subscript gives, without joining a field that is there once.
@Suite struct HTTPFieldsValueTests {
    static let host = HTTPField.Name("Host")!

    @Test func theSubscriptsAnswerInEveryCase() {
        let accept = HTTPField.Name.accept
        let host = Self.host
        let cases: [HTTPFields] = [
            [:],
            [host: "localhost"],
            [.accept: "application/json"],
            [host: "localhost", .accept: "*/*", .authorization: "Bearer x"],
            HTTPFields([
                HTTPField(name: .accept, value: "text/html"), HTTPField(name: host, value: "h"),
                HTTPField(name: .accept, value: "application/json"),
            ]),
            HTTPFields([HTTPField(name: .accept, value: ""), HTTPField(name: .accept, value: "")]),
        ]
        for fields in cases {
            #expect(fields.value(of: accept) == fields[accept], "\(fields)")
            #expect(fields.value(of: .authorization) == fields[.authorization], "\(fields)")
        }
        #expect(cases[4].value(of: accept) == "text/html, application/json")
    }

    @Test func namesCompareWithoutCase() {
        let fields = HTTPFields([HTTPField(name: HTTPField.Name("X-Request-ID")!, value: "r1")])
        #expect(fields.value(of: HTTPField.Name("x-request-id")!) == "r1")
    }
}
