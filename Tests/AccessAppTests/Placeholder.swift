import Testing

@Test func placeholder_AccessAppTests() {}
