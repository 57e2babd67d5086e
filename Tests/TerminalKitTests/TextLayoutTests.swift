import Testing

@testable import TerminalKit

@Suite struct TextLayoutTests {
    @Test func wrapsAtSpacesByDisplayWidth() {
        let lines = TextLayout.wrap("You'll no longer be able to sign in with Google.", width: 20)
        #expect(lines == ["You'll no longer be", "able to sign in with", "Google."])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 20 })
    }

    @Test func wrapCountsWideCharactersAsTwo() {
        #expect(TextLayout.wrap("日本 日本 日本", width: 9) == ["日本 日本", "日本"])
        #expect(TextLayout.wrap("🇬🇪🇬🇪🇬🇪", width: 4) == ["🇬🇪🇬🇪", "🇬🇪"])
    }

    @Test func wrapCutsLongWordsAndKeepsParagraphs() {
        #expect(TextLayout.wrap("abcdefgh", width: 3) == ["abc", "def", "gh"])
        #expect(TextLayout.wrap("a\n\nb", width: 5) == ["a", "", "b"])
        #expect(TextLayout.wrap("anything", width: 0) == [])
    }

    @Test func truncatesByDisplayWidthWithEllipsis() {
        #expect(TextLayout.truncate("Georgia", width: 10) == "Georgia")
        #expect(TextLayout.truncate("United Kingdom", width: 8) == "United…")
        #expect(TextLayout.truncate("日本語テキスト", width: 6) == "日本…")
        #expect(DisplayWidth.of(TextLayout.truncate("日本語テキスト", width: 6)) <= 6)
        #expect(TextLayout.truncate("abc", width: 1) == "…")
        #expect(TextLayout.truncate("abc", width: 0) == "")
    }

    @Test func padsAndRightAlignsByDisplayWidth() {
        #expect(TextLayout.pad("🇬🇪", width: 4) == "🇬🇪  ")
        #expect(TextLayout.rightAlign("+995", width: 6) == "  +995")
        #expect(TextLayout.rightAlign("日", width: 3) == " 日")
    }

    @Test func formatsCountdowns() {
        #expect(TextLayout.countdown(seconds: 27) == "0:27")
        #expect(TextLayout.countdown(seconds: 65) == "1:05")
        #expect(TextLayout.countdown(seconds: -3) == "0:00")
        #expect(TextLayout.countdown(seconds: 3599) == "59:59")
        #expect(TextLayout.countdown(seconds: 5 * 3600 + 61) == "5:01:01")
    }
}
