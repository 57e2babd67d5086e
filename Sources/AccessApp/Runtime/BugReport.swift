import AccessAPI
import AccessCore
import Foundation

/// One file per bug (issue 51 item 5): a session's tape, the world it started on and the world as it stands,
/// the cast, the screen, the journal, the signed-in user's timeline and the versions, in one zip with a README.
/// `accessdeck open-report` loads the starting world and replays the tape to the same screen.
///
/// Nothing secret goes in as text: the tape writes `code`, `secret` or `secret scenario` where a code or a
/// password was typed (`TapeRecorder`), the cast and the screen draw them as dots (`concealedForRecording`), the
/// journal and the timeline are redacted by the backend. The worlds are the backend's own files: they hold what
/// the backend keeps (password hashes, codes and tokens sealed with the world's key, which travels inside them).
public enum BugReport {
    /// The files of a report, by name; `README.md` says the same for people.
    public enum File {
        public static let readme = "README.md"
        public static let manifest = "report.json"
        public static let tape = "session.tape"
        public static let cast = "session.cast"
        public static let screen = "screen.txt"
        public static let startWorld = "world-at-start.sqlite"
        public static let currentWorld = "world-now.sqlite"
        public static let journal = "journal.json"
        public static let timeline = "timeline.json"
    }

    /// The journal rows a report keeps: the backend's whole ring (`GET /_admin/journal`'s largest limit).
    public static let journalRows = 500

    /// What `open-report` needs besides the files, and the versions a reader asks for first.
    public struct Manifest: Codable, Equatable, Sendable {
        /// Bumped when a report's files change meaning; `open-report` refuses a format it does not know.
        public static let currentFormat = 1

        public var format: Int
        public var appVersion: String
        /// Which backend the session talked to, in words.
        public var backend: String
        /// The scenario the session started on.
        public var scenario: String
        /// The world's name on its server ("default": the bare paths).
        public var world: String
        /// The backend's time when `world-at-start.sqlite` was copied: the replay starts its clock there, frozen.
        public var startedAt: Date
        /// The backend's time when the report was made.
        public var madeAt: Date
        /// The signed-in user the timeline is of; nil when nobody was signed in.
        public var userId: String?

        public init(
            appVersion: String, backend: String, scenario: String, world: String, startedAt: Date, madeAt: Date,
            userId: String?
        ) {
            format = Self.currentFormat
            self.appVersion = appVersion
            self.backend = backend
            self.scenario = scenario
            self.world = world
            self.startedAt = startedAt
            self.madeAt = madeAt
            self.userId = userId
        }
    }

    /// What only the app knows of its session; the rest is asked of the backend.
    public struct Session: Sendable {
        public var tape: String
        /// The asciicast of the session, when one was kept.
        public var cast: String?
        /// The screen as drawn when the report was asked for, secrets as dots.
        public var screen: String
        /// The world's file when the session began (`GET /_admin/worlds/{name}/file` or the backend in process).
        public var startWorld: Data
        public var startedAt: Date
        public var scenario: String
        public var world: String
        public var backend: String

        public init(
            tape: String, cast: String?, screen: String, startWorld: Data, startedAt: Date, scenario: String,
            world: String, backend: String
        ) {
            self.tape = tape
            self.cast = cast
            self.screen = screen
            self.startWorld = startWorld
            self.startedAt = startedAt
            self.scenario = scenario
            self.world = world
            self.backend = backend
        }
    }

    /// The report's zip: the session's parts, and from the reference backend behind `client` (the session's own)
    /// the world as it stands, the journal and the signed-in user's timeline.
    public static func archive(of session: Session, from client: AccountClient) async throws -> Data {
        let madeAt = try await client.adminClock().now
        let userId = await client.userId
        let currentWorld = try await client.adminWorldFile(session.world)
        let journal = try await client.adminJournal(limit: journalRows)
        let timeline = try await userId.asyncMap { try await client.adminTimeline(user: $0) }
        let manifest = Manifest(
            appVersion: AppVersion.current, backend: session.backend, scenario: session.scenario,
            world: session.world, startedAt: session.startedAt, madeAt: madeAt, userId: userId)
        let encoder = APIJSON.makeContractEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        var entries = [
            ZipArchive.Entry(name: File.readme, data: Data(readme(manifest, hasCast: session.cast != nil).utf8)),
            ZipArchive.Entry(name: File.manifest, data: try encoder.encode(manifest)),
            ZipArchive.Entry(name: File.tape, data: Data(session.tape.utf8)),
            ZipArchive.Entry(name: File.screen, data: Data(session.screen.utf8)),
            ZipArchive.Entry(name: File.startWorld, data: session.startWorld),
            ZipArchive.Entry(name: File.currentWorld, data: currentWorld),
            ZipArchive.Entry(name: File.journal, data: try encoder.encode(journal)),
        ]
        if let cast = session.cast { entries.append(ZipArchive.Entry(name: File.cast, data: Data(cast.utf8))) }
        if let timeline { entries.append(ZipArchive.Entry(name: File.timeline, data: try encoder.encode(timeline))) }
        return try ZipArchive.write(entries)
    }

    /// The report's manifest, read back; a problem says what is wrong with the file.
    public static func manifest(in entries: [ZipArchive.Entry]) throws(ZipArchive.Problem) -> Manifest {
        guard let data = entries.first(where: { $0.name == File.manifest })?.data else {
            throw ZipArchive.Problem("no \(File.manifest): not an AccessDeck bug report")
        }
        let manifest: Manifest
        do {
            manifest = try APIJSON.makeContractDecoder().decode(Manifest.self, from: data)
        } catch {
            throw ZipArchive.Problem("\(File.manifest) does not read: \(error)")
        }
        guard manifest.format == Manifest.currentFormat else {
            throw ZipArchive.Problem(
                "report format \(manifest.format); this accessdeck opens format \(Manifest.currentFormat)")
        }
        for name in [File.tape, File.startWorld] where !entries.contains(where: { $0.name == name }) {
            throw ZipArchive.Problem("no \(name) in the report")
        }
        return manifest
    }

    static func readme(_ manifest: Manifest, hasCast: Bool) -> String {
        let time = ISO8601DateFormatter()
        var files: [(name: String, what: String, open: String)] = [
            (File.manifest, "the versions, the scenario, the world, the user and the backend's times", "a text editor"),
            (
                File.tape, "the keys pressed and the pauses, a step a line (fixtures/tapes/README.md)",
                "`accessdeck play`"
            ),
            (File.screen, "the screen when the report was made, codes and passwords as dots", "a text editor"),
        ]
        if hasCast {
            files.append((File.cast, "the session as the screen showed it (asciicast v2)", "`asciinema play`, `agg`"))
        }
        files += [
            (
                File.startWorld, "the world's database when the session began: what the replay starts on",
                "`sqlite3`, or `POST /_admin/worlds?name=NAME` of `accessdeck serve`"
            ),
            (File.currentWorld, "the world's database when the report was made", "the same"),
            (
                File.journal, "the backend's newest \(journalRows) requests with the rule each applied, redacted",
                "a text editor, `jq`"
            ),
        ]
        if manifest.userId != nil {
            files.append(
                (File.timeline, "what the backend decided about the signed-in user, redacted", "a text editor, `jq`"))
        }
        let table = files.map { "| `\($0.name)` | \($0.what) | \($0.open) |" }.joined(separator: "\n")
        let who = manifest.userId.map { "signed in as `\($0)`" } ?? "nobody signed in"
        return """
            # AccessDeck bug report

            Made by accessdeck \(manifest.appVersion) at \(time.string(from: manifest.madeAt)) (the backend's time)
            from a session on \(manifest.backend): world `\(manifest.world)`, scenario `\(manifest.scenario)`, \(who).

            `accessdeck open-report THIS.zip` unpacks it into a temporary folder, starts the embedded reference
            backend on `\(File.startWorld)` with its clock stopped at \(time.string(from: manifest.startedAt)),
            replays `\(File.tape)` and leaves you on the screen the report was made on, to carry on from there.
            `accessdeck open-report THIS.zip --headless` prints that screen as text and exits.

            | file | what it is | how to open it |
            | --- | --- | --- |
            \(table)

            ## Secrets

            No code, password or token is written as text in the tape, the cast, the screen, the journal or the
            timeline. The tape says `code` where a code was typed, `secret scenario` where the scenario's own
            password was (the replay types it from the scenario's fixture) and `secret` for any other password,
            which no replay can type. The screens draw codes and passwords as dots; the backend redacts the journal
            and the timeline.

            The two databases are the world's own files. They hold what the backend keeps: password hashes, and the
            outbox's codes, links and tokens sealed with the world's key, which travels inside the file so that it
            opens anywhere. Treat them as you would the world itself: a test world, never a real user's.

            """
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
