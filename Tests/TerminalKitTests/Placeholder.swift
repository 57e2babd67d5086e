import Testing

@Test func placeholder_TerminalKitTests() {}
