import ChildProcess
import Foundation
import Testing

/// Issue 50 item 2: stills and films from the real tools — `render --format png` and `play --gif/--mp4/--webm/
/// --png-dir` — decoded again by what made them (ffprobe, scripts/png-pixels.py): the frames, size and length
/// asked for, and flags in colour.
@Suite(.serialized, .enabled(if: FilmTools.there, FilmTools.missing))
struct FilmEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A picture of an 80×24 screen: 9×18 px cells and 16 px of padding all round.
    static let pictureSize = (80 * 9 + 32, 24 * 18 + 32)

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("films-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Three keys of 500 ms, a wait of one second and the last screen's beat: a film of exactly 3 s.
    static let tape = "size 80x24\nkey Down\nkey Down\nwait 1\nkey Up\nexpect \"Account access\"\n"

    @Test func aTapeBecomesAGifAnMP4AndAWebMOfItsLengthAtTheFrameRateAsked() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tape = folder.appendingPathComponent("walk.tape")
        try Self.tape.write(to: tape, atomically: true, encoding: .utf8)
        let outputs = ["gif", "mp4", "webm"].map { folder.appendingPathComponent("walk.\($0)") }
        let outcome = try AccessDeckBinary.run(
            [
                "play", tape.path, "--gif", outputs[0].path, "--mp4", outputs[1].path, "--webm", outputs[2].path,
                "--typing-speed", "500", "--frame-rate", "10",
            ], environment: ["XDG_STATE_HOME": folder.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        for output in outputs {
            let probe = try self.probe(output)
            #expect(
                probe.width == Self.pictureSize.0 && probe.height == Self.pictureSize.1, "\(output.lastPathComponent)")
            #expect(probe.frames == 30, "\(output.lastPathComponent): 3 s at 10 frames a second")
            #expect(abs(probe.duration - 3) < 0.05, "\(output.lastPathComponent): \(probe.duration) s")
        }
    }

    @Test func pngDirHasOnePictureATapeLineAtTheScaleAsked() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tape = folder.appendingPathComponent("walk.tape")
        try Self.tape.write(to: tape, atomically: true, encoding: .utf8)
        let pictures = folder.appendingPathComponent("steps")
        let outcome = try AccessDeckBinary.run(
            ["play", tape.path, "--png-dir", pictures.path, "--scale", "2", "--frame", "--title", "Demo"],
            environment: ["XDG_STATE_HOME": folder.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted()
        #expect(names == ["001-line-2.png", "002-line-3.png", "003-line-4.png", "004-line-5.png", "005-line-6.png"])
        // In a window: a 12 px margin round it and a 30 px title bar above the screen, all twice as large.
        let size = try pixels(of: pictures.appendingPathComponent(names[0]), at: []).size
        #expect(size == "\((Self.pictureSize.0 + 24) * 2)x\((Self.pictureSize.1 + 24 + 30) * 2)")
    }

    /// librsvg draws a colour emoji font in one colour: the flags came out grey. Georgia's flag, first of the
    /// picker's popular countries, is drawn red on white.
    @Test func aPNGStillHasItsFlagsInColour() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try ChildProcess.run(
            try AccessDeckBinary.requireBuilt(), ["render", "country-picker:default", "--format", "png"])
        #expect(outcome.status == 0, "\(String(decoding: outcome.errors, as: UTF8.self))")
        let still = folder.appendingPathComponent("picker.png")
        try outcome.output.write(to: still)
        let text = try #require(
            String(
                decoding: try ChildProcess.run(
                    try AccessDeckBinary.requireBuilt(), ["render", "country-picker:default"]
                ).output, as: UTF8.self
            ).split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("Georgia") })
        // The flag's two cells: columns 2 and 3 of Georgia's row.
        var points: [(Int, Int)] = []
        for y in 0..<18 { for x in 0..<18 { points.append((16 + 2 * 9 + x, 16 + text * 18 + y)) } }
        let (size, colors) = try pixels(of: still, at: points)
        #expect(size == "\(Self.pictureSize.0)x\(Self.pictureSize.1)")
        let red = colors.filter { hex in
            let value = Int(hex.prefix(6), radix: 16) ?? 0
            return value >> 16 > 180 && (value >> 8) & 0xFF < 90 && value & 0xFF < 90
        }
        #expect(red.count > 20, "\(red.count) red pixels in the flag's cells")
    }

    @Test func pngToATerminalOrWithAScaleOfNothingIsRefused() throws {
        let outcome = try AccessDeckBinary.run(["render", "hub", "--scale", "2"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--scale is for --format png"))
        let rate = try AccessDeckBinary.run(["play", "x.tape", "--frame-rate", "0"])
        #expect(rate.status == 64)
        #expect(rate.errors.contains("--frame-rate must be 1 to 60"))
        let wrong = try AccessDeckBinary.run(["play", "x.tape", "--gif", "walk.mp4"])
        #expect(wrong.status == 64)
        #expect(wrong.errors.contains("--gif writes a .gif file"))
    }

    // MARK: - Reading what was written

    struct Probe {
        var width: Int
        var height: Int
        var frames: Int
        var duration: Double
    }

    func probe(_ film: URL) throws -> Probe {
        let outcome = try ChildProcess.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                "stream=width,height,nb_read_frames:format=duration", "-of", "json", film.path,
            ])
        try #require(outcome.status == 0, "ffprobe: \(String(decoding: outcome.errors, as: UTF8.self))")
        let json = try #require(try JSONSerialization.jsonObject(with: outcome.output) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        let format = try #require(json["format"] as? [String: Any])
        return Probe(
            width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0,
            frames: Int(stream["nb_read_frames"] as? String ?? "") ?? 0,
            duration: Double(format["duration"] as? String ?? "") ?? 0)
    }

    /// The picture's size and the RGBA (`rrggbbaa`) at each point.
    func pixels(of png: URL, at points: [(Int, Int)]) throws -> (size: String, colors: [String]) {
        let outcome = try ChildProcess.run(
            "/usr/bin/env",
            ["python3", Self.repository.appendingPathComponent("scripts/png-pixels.py").path, png.path]
                + points.map { "\($0.0),\($0.1)" })
        try #require(outcome.status == 0, "\(String(decoding: outcome.errors, as: UTF8.self))")
        var lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").map(String.init)
        let size = String(lines.removeFirst().dropFirst("size ".count))
        return (size, lines.compactMap { $0.split(separator: " ").last.map(String.init) })
    }
}

enum FilmTools {
    static let there = ["/usr/bin/ffmpeg", "/usr/bin/ffprobe", "/usr/bin/rsvg-convert"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let missing: Comment =
        "skipped: ffmpeg or rsvg-convert is missing; `make deps` installs them (sudo apt-get install ffmpeg librsvg2-bin)"
}
