// Text snapshots of rendered screens for Swift Testing.
//
//     @Test func hub() {
//         var grid = CellGrid(size: .standard)
//         render(&grid)
//         assertSnapshot(of: grid, named: "hub-offline")
//     }
//
// compares `grid.textLines()` with `__Snapshots__/hub-offline.txt` next to the test file.
// SNAPSHOT_MODE=record re-records everything, `missing` (the default) writes only new
// snapshots, `off` (CI) never writes and fails on a missing one. A test that wrote a snapshot
// (a new one, or a changed one in `record`) fails all the same, as argument-parser's
// `expectSnapshot` does: a snapshot nobody has looked at yet proves nothing, so the run that
// recorded it cannot pass; the next run compares. Test targets using it must
// `exclude: ["__Snapshots__"]` in Package.swift.

import Foundation
import TerminalKit
import Testing

/// What `assertSnapshot` does with the snapshot file.
public enum SnapshotMode: String, Sendable {
    /// Overwrite every snapshot with what was rendered; a snapshot that changed (or was new) fails.
    case record
    /// Write snapshots that do not exist yet (and fail: look at them, run again), compare the others
    /// (the default).
    case missing
    /// Compare only; a missing snapshot fails and nothing is written (CI).
    case off

    /// From `SNAPSHOT_MODE`; unset or unknown means `.missing`.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> SnapshotMode
    {
        environment["SNAPSHOT_MODE"].flatMap { SnapshotMode(rawValue: $0.lowercased()) } ?? .missing
    }
}

/// The result of one snapshot assertion, for tests of the harness itself.
public enum SnapshotOutcome: Hashable, Sendable {
    case matched
    case recorded
    case mismatched(diff: String)
    case missing
}

/// Text comparison for snapshots: pure, so it can be tested without files.
public enum SnapshotDiff {
    public static let hint = "re-record with SNAPSHOT_MODE=record"

    /// The stored form of a snapshot: one line per grid row (blank rows kept, so the file shows
    /// the screen's height), trailing spaces trimmed, exactly one final newline.
    public static func normalize(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            while line.last == " " || line.last == "\r" { line.removeLast() }
            return line
        }
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// nil when the texts agree once normalised; otherwise a readable diff of the changed lines
    /// with `context` unchanged lines around them, each line numbered.
    public static func compare(expected: String, actual: String, context: Int = 1) -> String? {
        guard
            let diff = LineDiff(
                expected: lines(normalize(expected)), actual: lines(normalize(actual)), context: context)
        else { return nil }
        return "Snapshot differs (\(diff.changedLines) line(s) changed):\n\(diff.text)\n\(hint)"
    }

    private static func lines(_ normalized: String) -> [String] {
        normalized.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// The lines that differ between two texts, numbered and marked `-` (expected) and `+` (actual), with
/// `context` unchanged lines around each change and `…` where lines are skipped. Snapshots and the
/// reducer harness's state dumps (AccessAppTesting) both show their differences this way.
public struct LineDiff: Sendable {
    /// How many line numbers differ.
    public let changedLines: Int
    public let text: String

    /// nil when the lines agree.
    public init?(expected old: [String], actual new: [String], context: Int = 1) {
        guard old != new else { return nil }
        let count = max(old.count, new.count)
        let changed = (0..<count).filter { i in
            (i < old.count ? old[i] : nil) != (i < new.count ? new[i] : nil)
        }
        var shown = Set<Int>()
        for i in changed { for j in max(0, i - context)...min(count - 1, i + context) { shown.insert(j) } }
        let width = max(3, String(count).count)
        var out: [String] = []
        var previous = -1
        for i in shown.sorted() {
            if previous >= 0, i > previous + 1 { out.append("   …") }
            previous = i
            let number = String(i + 1).leftPadded(to: width)
            if changed.contains(i) {
                if i < old.count { out.append("-\(number)│\(old[i])") }
                if i < new.count { out.append("+\(number)│\(new[i])") }
            } else {
                out.append(" \(number)│\(old[i])")
            }
        }
        changedLines = changed.count
        text = out.joined(separator: "\n")
    }

    /// The same for two texts, split at every newline.
    public init?(expected: String, actual: String, context: Int = 1) {
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        self.init(expected: lines(expected), actual: lines(actual), context: context)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

/// A grid as snapshot text: every row ends in a newline, so a blank last row is not mistaken
/// for the final newline of the text.
func gridText(_ grid: CellGrid) -> String {
    grid.textLines().map { $0 + "\n" }.joined()
}

/// Compares a rendered grid with `__Snapshots__/<name>.txt` next to the calling test file.
public func assertSnapshot(
    of grid: CellGrid, named name: String, filePath: StaticString = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertSnapshot(
        of: gridText(grid), named: name, filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares text with `__Snapshots__/<name>.txt` next to the calling test file, in the mode
/// given by `SNAPSHOT_MODE`.
public func assertSnapshot(
    of text: String, named name: String, filePath: StaticString = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__", isDirectory: true)
    assertSnapshot(
        of: text, named: name, in: directory, mode: .fromEnvironment(), sourceLocation: sourceLocation)
}

/// The same with an explicit directory and mode (for tests of the harness).
@discardableResult
public func assertSnapshot(
    of grid: CellGrid, named name: String, in directory: URL, mode: SnapshotMode,
    sourceLocation: SourceLocation = #_sourceLocation
) -> SnapshotOutcome {
    assertSnapshot(
        of: gridText(grid), named: name, in: directory, mode: mode,
        sourceLocation: sourceLocation)
}

/// The core of every overload: records an issue on a mismatch or (in `.off`) a missing file.
@discardableResult
public func assertSnapshot(
    of text: String, named name: String, in directory: URL, mode: SnapshotMode,
    sourceLocation: SourceLocation = #_sourceLocation
) -> SnapshotOutcome {
    let file = directory.appendingPathComponent("\(name).txt")
    let actual = SnapshotDiff.normalize(text)
    let existing = try? String(contentsOf: file, encoding: .utf8)

    /// Writes the snapshot, and fails the test that wrote it: nobody has checked what was recorded.
    func write() -> SnapshotOutcome {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("Could not write snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
            return .missing
        }
        let message =
            "Recorded snapshot \(file.path): check it (git diff) and run the test again, which then compares."
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return .recorded
    }

    switch (mode, existing) {
    case (.record, let expected?) where SnapshotDiff.compare(expected: expected, actual: actual) == nil:
        return .matched
    case (.record, _), (.missing, nil):
        return write()
    case (.off, nil):
        let message =
            "Missing snapshot \(name).txt in \(directory.path) (SNAPSHOT_MODE=off never writes one); "
            + "record it with SNAPSHOT_MODE=missing or SNAPSHOT_MODE=record"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return .missing
    case (_, let expected?):
        guard let diff = SnapshotDiff.compare(expected: expected, actual: actual) else { return .matched }
        Issue.record("Snapshot \(name) does not match.\n\(diff)", sourceLocation: sourceLocation)
        return .mismatched(diff: diff)
    }
}
