import Foundation
import Testing

@testable import TerminalKit

@Suite struct AsciicastTests {
    func grid(_ text: String, _ size: Size = Size(cols: 10, rows: 2)) -> CellGrid {
        var grid = CellGrid(size: size)
        grid.put(text, at: Point(x: 0, y: 0), style: .plain)
        return grid
    }

    @Test func theHeaderIsOneLineOfJSONWithTheV2Fields() throws {
        let line = AsciicastRecorder.header(
            size: Size(cols: 80, rows: 24), startedAt: Date(timeIntervalSince1970: 1_800_000_000),
            title: "hub \"x\"")
        #expect(!line.contains("\n"))
        let header = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 80)
        #expect(header["height"] as? Int == 24)
        #expect(header["timestamp"] as? Int == 1_800_000_000)
        #expect(header["title"] as? String == "hub \"x\"")
    }

    @Test func anUnchangedScreenWritesNothingAndTimesNeverGoBack() throws {
        var recorder = AsciicastRecorder(theme: .dark)
        let first = recorder.record(grid("one"), at: 1)
        #expect(first.count == 1)
        #expect(recorder.record(grid("one"), at: 2).isEmpty)
        let second = recorder.record(grid("two"), at: 0.5)
        let event = try #require(JSONSerialization.jsonObject(with: Data(second[0].utf8)) as? [Any])
        #expect(event[0] as? Double == 1)
        #expect(event[1] as? String == "o")
        let data = try #require(event[2] as? String)
        #expect(data.hasPrefix("\u{1B}[H\u{1B}[2J"))
        #expect(data.contains("two"))
        #expect(data.contains("\r\n"))
    }

    @Test func aResizeIsAnREventBeforeTheFrame() throws {
        var recorder = AsciicastRecorder(theme: .mono)
        _ = recorder.record(grid("a"), at: 0)
        let lines = recorder.record(grid("a", Size(cols: 12, rows: 3)), at: 1)
        #expect(lines.count == 2)
        #expect(lines[0] == "[1.000, \"r\", \"12x3\"]")
        #expect(lines[1].hasPrefix("[1.000, \"o\", "))
    }

    @Test func controlCharactersAreEscapedForJSON() throws {
        let literal = AsciicastRecorder.jsonString("\u{1B}[0m\"\\\t\u{7}é")
        #expect(literal == "\"\\u001b[0m\\\"\\\\\\t\\u0007é\"")
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
        #expect(decoded == ["\u{1B}[0m\"\\\t\u{7}é"])
    }
}
