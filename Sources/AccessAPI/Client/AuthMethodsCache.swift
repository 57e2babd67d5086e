import Foundation

/// The last `GET /me/auth-methods` that succeeded, with when it was fetched, and the last `GET /me/sessions`,
/// kept in memory and on disk so the hub and Active sessions can show them under the offline banner, even
/// after a restart.
public final class AuthMethodsCache: @unchecked Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var methods: AuthMethods
        public var fetchedAt: Date
        /// The Active sessions list last loaded; absent from a file written before it was kept.
        public var sessions: [ActiveSession]?

        public init(methods: AuthMethods, fetchedAt: Date, sessions: [ActiveSession]? = nil) {
            self.methods = methods
            self.fetchedAt = fetchedAt
            self.sessions = sessions
        }

        enum CodingKeys: String, CodingKey {
            case methods
            case fetchedAt = "fetched_at"
            case sessions
        }
    }

    private let lock = NSLock()
    private var entry: Entry?
    private let fileURL: URL?

    /// `fileURL` nil keeps the cache in memory only.
    public init(fileURL: URL?) {
        self.fileURL = fileURL
        if let fileURL, let data = FileManager.default.contents(atPath: fileURL.path) {
            entry = try? APIJSON.makeContractDecoder().decode(Entry.self, from: data)
        }
    }

    /// In the backend's own folder: `…/accessdeck/backends/http_127.0.0.1_8080/auth-methods.json`, so
    /// another backend never shows this one's data.
    public static func defaultLocation(
        for origin: BackendOrigin, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        SessionStore.folder(for: origin, environment: environment).appendingPathComponent("auth-methods.json")
    }

    public var latest: Entry? { lock.withLock { entry } }

    func store(_ methods: AuthMethods, at date: Date) {
        let newEntry = lock.withLock {
            entry = Entry(methods: methods, fetchedAt: date, sessions: entry?.sessions)
            return entry
        }
        save(newEntry)
    }

    /// Kept with the methods it was loaded after (the hub loads them before its Active sessions row can be
    /// opened), so a list with no methods to go with it is not kept.
    func store(sessions: [ActiveSession]) {
        let newEntry: Entry? = lock.withLock {
            entry?.sessions = sessions
            return entry
        }
        save(newEntry)
    }

    private func save(_ newEntry: Entry?) {
        guard let fileURL, let newEntry, let data = try? APIJSON.makeContractEncoder().encode(newEntry) else {
            return
        }
        // The phone and email are personal data: as private as the session file beside it. A cache
        // that cannot be written only costs the offline view.
        try? PrivateStateFile.write(data, to: fileURL)
    }

    public func clear() {
        lock.withLock { entry = nil }
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
    }
}
