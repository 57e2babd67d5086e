import Testing

@Test func placeholder_CursesDriverTests() {}
