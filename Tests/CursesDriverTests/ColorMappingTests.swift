import CursesDriver
import TerminalKit
import Testing

@Suite struct ColorMappingTests {
    @Test func defaultIsMinusOne() {
        #expect(ColorMapping.cursesColor(.terminalDefault, availableColors: 256) == -1)
        #expect(ColorMapping.cursesColor(.terminalDefault, availableColors: 8) == -1)
    }

    @Test func paletteIsKeptOn256Colours() {
        #expect(ColorMapping.cursesColor(.palette(75), availableColors: 256) == 75)
    }

    @Test func nearestOfEightBelow256() {
        #expect(ColorMapping.cursesColor(.palette(196), availableColors: 8) == 1)  // pure red
        #expect(ColorMapping.cursesColor(.palette(46), availableColors: 8) == 2)  // pure green
        #expect(ColorMapping.cursesColor(.palette(21), availableColors: 8) == 4)  // pure blue
        #expect(ColorMapping.cursesColor(.palette(16), availableColors: 8) == 0)  // cube black
        #expect(ColorMapping.cursesColor(.palette(231), availableColors: 8) == 7)  // cube white
        #expect(ColorMapping.cursesColor(.palette(236), availableColors: 8) == 0)  // dark grey
        #expect(ColorMapping.cursesColor(.palette(252), availableColors: 8) == 7)  // light grey
        #expect(ColorMapping.cursesColor(.palette(12), availableColors: 8) == 4)  // bright blue
        #expect(ColorMapping.cursesColor(.palette(12), availableColors: 16) == 12)
    }

    @Test func everyThemeColourMapsIntoEightColours() {
        for theme in [Theme.dark, Theme.light] {
            for role in ColorRole.allCases {
                let color = ColorMapping.cursesColor(theme.color(for: role), availableColors: 8)
                #expect((-1...7).contains(color))
            }
        }
    }

    /// Issue 50: the nearest of the eight to 233, 236, 237 and 245 is black, so borders and the selection bar
    /// vanished; the themes name a basic colour for each role instead.
    @Test func belowTwoHundredFiftySixColoursEachRoleTakesItsThemesBasicColour() {
        for theme in [Theme.dark, Theme.light] {
            func basic(_ role: ColorRole) -> Int16 {
                ColorMapping.cursesColor(theme.color(for: role, availableColors: 8), availableColors: 8)
            }
            #expect(basic(.border) != basic(.background))
            #expect(basic(.border) != basic(.surface))
            #expect(basic(.selection) != basic(.background))
            #expect(basic(.text) != basic(.selection))
            #expect(basic(.text) != basic(.background))
            #expect(basic(.onAccent) != basic(.accent))
        }
        #expect(Theme.dark.color(for: .border, availableColors: 256) == Theme.dark.color(for: .border))
        #expect(Theme.mono.color(for: .border, availableColors: 8) == .terminalDefault)
    }

    @Test func pairsAreCachedPerCombination() {
        var table = ColorPairTable(maximumPairs: 256)
        let a = ColorPairTable.Combination(foreground: 75, background: -1)
        let b = ColorPairTable.Combination(foreground: 203, background: 236)
        #expect(table.pair(for: a) == (1, true))
        #expect(table.pair(for: b) == (2, true))
        #expect(table.pair(for: a) == (1, false))
    }

    @Test func defaultOnDefaultIsPairZero() {
        var table = ColorPairTable(maximumPairs: 256)
        #expect(table.pair(for: .init(foreground: -1, background: -1)) == (0, false))
    }

    @Test func exhaustedTableFallsBackToPairZero() {
        var table = ColorPairTable(maximumPairs: 3)
        #expect(table.pair(for: .init(foreground: 1, background: -1)).pair == 1)
        #expect(table.pair(for: .init(foreground: 2, background: -1)).pair == 2)
        #expect(table.pair(for: .init(foreground: 3, background: -1)) == (0, false))
    }
}
