import Testing

@Test func placeholder_AccessCoreTests() {}
