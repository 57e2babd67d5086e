import AccessCore
import Testing

/// Issue 33: one rule for a world's name, and how a base URL names a world.
@Suite struct WorldNamesTests {
    @Test func theNameRuleOnBothSidesOfEachLimit() {
        #expect(WorldNames.isValid("a"))
        #expect(WorldNames.isValid("qa-7"))
        #expect(WorldNames.isValid("0team"))
        #expect(WorldNames.isValid(String(repeating: "a", count: WorldNames.maxLength)))
        #expect(!WorldNames.isValid(String(repeating: "a", count: WorldNames.maxLength + 1)))
        #expect(!WorldNames.isValid(""))
        #expect(!WorldNames.isValid("-qa"))
        #expect(!WorldNames.isValid("Qa"))
        #expect(!WorldNames.isValid("q_a"))
        #expect(!WorldNames.isValid("q.a"))
        #expect(!WorldNames.isValid("qä"))
    }

    @Test func aBaseURLNamesItsWorld() {
        #expect(WorldNames.baseURL("http://127.0.0.1:8080/", world: "alice") == "http://127.0.0.1:8080/w/alice")
        #expect(WorldNames.baseURL("https://h/api", world: "bob") == "https://h/api/w/bob")
        #expect(WorldNames.world(in: "http://127.0.0.1:8080/w/alice") == "alice")
        #expect(WorldNames.world(in: "http://127.0.0.1:8080/w/alice/") == "alice")
        #expect(WorldNames.world(in: "http://127.0.0.1:8080") == nil)
        #expect(WorldNames.world(in: "http://127.0.0.1:8080/api/v1") == nil)
        #expect(WorldNames.world(in: "http://127.0.0.1:8080/w/Alice") == nil)
    }
}
