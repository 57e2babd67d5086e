import Testing

@testable import AccessBackend

/// Which Content-Type values count as JSON (the gateway's 415 rule and the journal's body capture): the
/// media type alone, compared without regard to case or the spaces around it, parameters ignored.
@Suite struct ContentTypeTests {
    @Test(arguments: [
        "application/json", "Application/JSON", "application/json; charset=utf-8", " application/json ",
        "\tapplication/json;charset=UTF-8", "APPLICATION/JSON;",
    ])
    func jsonMediaTypes(_ value: String) {
        #expect(GatewayMiddleware.isJSON(value))
    }

    @Test(arguments: [
        "", "text/plain", "application/jsonp", "application/json-patch+json", "application/problem+json",
        "application /json", "application/jsoN\u{301}", "multipart/form-data; boundary=application/json",
        "application/x-www-form-urlencoded", "application\u{0}json",
    ])
    func otherMediaTypes(_ value: String) {
        #expect(!GatewayMiddleware.isJSON(value))
    }
}
