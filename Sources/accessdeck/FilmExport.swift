import AccessApp
import ChildProcess
import Foundation
import TerminalKit

/// PNG stills and GIF, MP4 and WebM films of the screens, made by the real tools (issue 50 item 2): our SVG export
/// draws each screen, librsvg (`rsvg-convert`) rasterises it, ffmpeg encodes the frames. Each frame is the screen as
/// a recording draws it, its secrets already dots (`TapeFilm.frame`).
enum Raster {
    /// A program on PATH, or an error naming the Debian package that has it (`make deps` installs both).
    static func tool(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw RuntimeError("\(name) is missing: sudo apt-get install \(package) (`make deps` installs it)")
    }

    /// The SVG as a PNG, `scale` times its 9×18 px cells.
    static func png(svg: String, scale: Double, to output: URL) throws {
        let rsvg = try tool("rsvg-convert", package: "librsvg2-bin")
        let input = output.deletingPathExtension().appendingPathExtension("in.svg")
        try Data(svg.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        try run(rsvg, ["--zoom", String(scale), "--format", "png", "--output", output.path, input.path])
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let outcome = try ChildProcess.run(executable, arguments)
        guard outcome.status == 0 else {
            let said = String(decoding: outcome.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let name = URL(fileURLWithPath: executable).lastPathComponent
            throw RuntimeError("\(name) failed (status \(outcome.status)): \(said.suffix(600))")
        }
    }
}

/// Colour pictures of flags and emoji for the rasterised pictures: librsvg draws a colour emoji font's glyphs in
/// one colour, so a flag came out grey. Pillow (Debian's python3-pil, with libraqm0 to join a flag's two regional
/// indicators) draws each from Noto Color Emoji (fonts-noto-color-emoji); `make deps` installs the three.
enum EmojiPictures {
    static let python = "/usr/bin/python3"
    static let font = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    /// Noto Color Emoji's bitmaps are 109 px: each picture is cropped to its ink and scaled by the SVG.
    static let script = """
        import base64, io, json, sys
        from PIL import Image, ImageDraw, ImageFont
        font = ImageFont.truetype(sys.argv[1], 109, layout_engine=ImageFont.Layout.RAQM)
        pictures = {}
        for text in json.loads(sys.argv[2]):
            canvas = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
            ImageDraw.Draw(canvas).text((0, 0), text, font=font, embedded_color=True)
            box = canvas.getbbox()
            if box is None:
                continue
            out = io.BytesIO()
            canvas.crop(box).save(out, format="PNG")
            pictures[text] = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
        print(json.dumps(pictures))
        """

    /// Data URIs by grapheme; empty, with a line on stderr, where the tools are missing: the flags are then drawn
    /// by librsvg, grey. Called once a command.
    static func pictures(of graphemes: Set<String>) -> [String: String] {
        guard !graphemes.isEmpty else { return [:] }
        var reason = "python3 failed"
        do {
            let asked = String(decoding: try JSONEncoder().encode(graphemes.sorted()), as: UTF8.self)
            let outcome = try ChildProcess.run(python, ["-c", script, font, asked])
            if outcome.status == 0,
                let pictures = try? JSONDecoder().decode([String: String].self, from: outcome.output)
            {
                return pictures
            }
            reason =
                String(decoding: outcome.errors, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? reason
        } catch {
            reason = "\(error)"
        }
        FileHandle.standardError.write(
            Data(
                ("accessdeck: flags and emoji drawn without colour (\(reason)); "
                    + "sudo apt-get install python3-pil libraqm0 fonts-noto-color-emoji\n").utf8))
        return [:]
    }
}

/// How a film looks: the picture of each screen and the film's pace.
struct FilmLook {
    var theme: Theme
    /// Pixels a cell pixel becomes (2 for a sharp picture on a slide).
    var scale: Double = 1
    /// Frames a second of the encoded film.
    var frameRate: Int = 25
    /// Each screen in a window with a title bar, as `render --frame`.
    var framed = false
    /// Colour pictures of the film's flags and emoji (`EmojiPictures`).
    var emoji: [String: String] = [:]

    func svg(_ grid: CellGrid, title: String) -> String {
        GridExport.svg(grid, theme: theme, title: title, frame: framed, emoji: emoji)
    }
}

enum FilmExport {
    enum Kind: CaseIterable {
        case gif, mp4, webm

        /// ffmpeg's arguments after its input: the frames at the film's rate, an even size for the video codecs'
        /// 4:2:0 chroma, and for GIF a palette made from the film itself (a terminal has few colours; dithering
        /// would speckle the flat backgrounds).
        func encoding(frameRate: Int) -> [String] {
            let even = "pad=ceil(iw/2)*2:ceil(ih/2)*2"
            switch self {
            case .gif:
                return [
                    "-vf",
                    "fps=\(frameRate),split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=none",
                    "-loop", "0",
                ]
            case .mp4:
                return [
                    "-vf", "fps=\(frameRate),\(even),format=yuv420p", "-c:v", "libx264", "-preset", "veryfast",
                    "-tune", "stillimage", "-crf", "18", "-movflags", "+faststart",
                ]
            case .webm:
                return [
                    "-vf", "fps=\(frameRate),\(even),format=yuv420p", "-c:v", "libvpx-vp9", "-crf", "32", "-b:v", "0",
                    "-deadline", "good", "-cpu-used", "5", "-row-mt", "1",
                ]
            }
        }
    }

    /// One PNG a tape line into `folder` (001-line-3.png…), as `--svg-dir` writes SVGs.
    static func writeLinePictures(_ film: TapeFilm, look: FilmLook, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for line in film.lines {
            try Raster.png(
                svg: look.svg(line.grid, title: "\(film.title) · line \(line.line)"), scale: look.scale,
                to: folder.appendingPathComponent(line.name + ".png"))
        }
    }

    /// The film encoded once per output: each screen drawn once as a PNG, shown from the time it appeared until
    /// the next (ffmpeg's concat list), the last one a beat.
    static func write(_ film: TapeFilm, look: FilmLook, outputs: [(Kind, URL)]) throws {
        guard !outputs.isEmpty else { return }
        let ffmpeg = try Raster.tool("ffmpeg", package: "ffmpeg")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-film-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var list = "ffconcat version 1.0\n"
        var last = ""
        for (index, shown) in shownFrames(film).enumerated() {
            let name = String(format: "frame-%05d.png", index)
            try Raster.png(
                svg: look.svg(shown.grid, title: film.title), scale: look.scale, to: work.appendingPathComponent(name))
            list += "file '\(name)'\nduration \(String(format: "%.3f", shown.duration))\n"
            last = name
        }
        // The concat demuxer gives the last file's duration only to a file after it.
        list += "file '\(last)'\n"
        let listFile = work.appendingPathComponent("frames.ffconcat")
        try Data(list.utf8).write(to: listFile)
        for (kind, output) in outputs {
            try Raster.run(
                ffmpeg,
                ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", listFile.path]
                    + kind.encoding(frameRate: look.frameRate) + [output.path])
        }
    }

    /// Each screen and how long it stays; one that a later screen replaced at the same moment is left out.
    static func shownFrames(_ film: TapeFilm) -> [(grid: CellGrid, duration: TimeInterval)] {
        let frames = film.frames
        var shown: [(grid: CellGrid, duration: TimeInterval)] = []
        for (index, frame) in frames.enumerated() {
            let end = index + 1 < frames.count ? frames[index + 1].at : film.duration
            if end > frame.at { shown.append((frame.grid, end - frame.at)) }
        }
        return shown
    }
}
