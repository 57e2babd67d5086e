import Testing

@Test func placeholder_AccessBackendTests() {}
