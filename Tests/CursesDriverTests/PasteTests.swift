import CursesDriver
import Testing

@Suite struct PasteTests {
    @Test func sanitizerKeepsPrintableText() {
        #expect(PasteSanitizer.sanitize("482915") == "482915")
        #expect(PasteSanitizer.sanitize("anna@example.com") == "anna@example.com")
        #expect(PasteSanitizer.sanitize("+995 555 12 34 56") == "+995 555 12 34 56")
        #expect(PasteSanitizer.sanitize("日本 🇬🇪 é") == "日本 🇬🇪 é")
    }

    @Test func sanitizerDropsNewlinesTabsAndControls() {
        #expect(PasteSanitizer.sanitize("48\n29\r\n15") == "482915")
        #expect(PasteSanitizer.sanitize("a\tb") == "ab")
        #expect(PasteSanitizer.sanitize("\u{1B}[31mred\u{7}") == "[31mred")
        #expect(PasteSanitizer.sanitize("x\u{7F}\u{85}\u{9B}y") == "xy")
        #expect(PasteSanitizer.sanitize("one\u{2028}two\u{2029}") == "onetwo")
        #expect(PasteSanitizer.sanitize("abc\u{202E}txt.exe\u{2066}") == "abctxt.exe")
        #expect(PasteSanitizer.sanitize("\n\n") == "")
    }

    func feed(_ assembler: inout PasteAssembler, _ text: String) -> [PasteAssembler.Outcome] {
        text.unicodeScalars.map { assembler.feed(.character($0.value)) }
    }

    @Test func collectsEverythingBetweenMarkersIntoOnePaste() {
        var assembler = PasteAssembler()
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.pasteStart)) == .consumed)
        #expect(assembler.isCollecting)
        #expect(feed(&assembler, "48\n29\t15").allSatisfy { $0 == .consumed })
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.pasteEnd)) == .paste("482915"))
        #expect(!assembler.isCollecting)
    }

    @Test func keysInsideAPasteAreSwallowed() {
        var assembler = PasteAssembler()
        _ = assembler.feed(.keyCode(KeyDecoder.Code.pasteStart))
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.up)) == .consumed)
        _ = feed(&assembler, "ok")
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.pasteEnd)) == .paste("ok"))
    }

    @Test func inputOutsideAPastePassesThrough() {
        var assembler = PasteAssembler()
        #expect(assembler.feed(.character(0x71)) == .passThrough)
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.down)) == .passThrough)
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.pasteEnd)) == .consumed)
    }

    @Test func emptyPaste() {
        var assembler = PasteAssembler()
        _ = assembler.feed(.keyCode(KeyDecoder.Code.pasteStart))
        #expect(assembler.feed(.keyCode(KeyDecoder.Code.pasteEnd)) == .paste(""))
    }
}
