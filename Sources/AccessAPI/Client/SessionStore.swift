import AccessCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public enum SessionStoreError: Error, Equatable, CustomStringConvertible {
    case corrupt(path: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .corrupt(let path): return "the session file \(path) is damaged; it was ignored, sign in again"
        case .unwritable(let path, let reason): return "cannot save the session to \(path): \(reason)"
        }
    }
}

/// Where a backend is, as sessions and cached data are kept apart by it: its scheme, host and port
/// (the web's origin). A session goes only to the origin that issued it.
public struct BackendOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int
    /// A reference backend's world (`…/w/NAME`, issue 33): each world issues its own tokens, so it is an origin
    /// of its own. nil: the server's bare paths, as every origin was before worlds.
    public let world: String?

    /// nil for what is not an http(s) URL with a host.
    public init?(baseURL: String) {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
        world = WorldNames.world(in: baseURL)
    }

    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" + (world.map { "/w/\($0)" } ?? "")
    }

    /// The folder its files are kept in: `http_127.0.0.1_8080`, or `http_127.0.0.1_8080_w_alice` for a world.
    public var folderName: String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
        return "\(scheme)_\(String(host.map { allowed.contains($0) ? $0 : "_" }))_\(port)"
            + (world.map { "_w_\($0)" } ?? "")
    }
}

/// Keeps the access and refresh tokens in a file only the user can read (0600 in a 0700
/// folder), replaced atomically so a crash mid-write never leaves half a file. The file names the
/// origin that issued them: a store for another origin does not load it.
public struct SessionStore: Sendable {
    public let fileURL: URL
    /// Whose session this file keeps; nil: whatever it holds (tests).
    public let origin: BackendOrigin?

    public init(fileURL: URL, origin: BackendOrigin? = nil) {
        self.fileURL = fileURL
        self.origin = origin
    }

    /// The app's folder: the folder of `ACCESSDECK_SESSION_FILE`, else `$XDG_STATE_HOME/accessdeck`, else
    /// `~/.local/state/accessdeck`.
    public static func stateFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["ACCESSDECK_SESSION_FILE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit).deletingLastPathComponent()
        }
        let stateHome =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        return stateHome.appendingPathComponent("accessdeck")
    }

    /// One backend's folder: `backends/http_127.0.0.1_8080` in the state folder.
    public static func folder(
        for origin: BackendOrigin, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        stateFolder(environment: environment).appendingPathComponent("backends").appendingPathComponent(
            origin.folderName)
    }

    /// `ACCESSDECK_SESSION_FILE` (one file: a session of another origin in it is not loaded, and is
    /// replaced by the next sign-in), else `session.json` in the origin's folder.
    public static func defaultLocation(
        for origin: BackendOrigin, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let explicit = environment["ACCESSDECK_SESSION_FILE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        return folder(for: origin, environment: environment).appendingPathComponent("session.json")
    }

    /// Before sessions were kept by origin, one `session.json` (with `auth-methods.json` and the
    /// `signed-out` marker) sat in the state folder for whichever `--backend` signed in last. Which one
    /// cannot be told, so its tokens are sent nowhere: the files are removed (one sign-in again).
    public static func dropUnkeyedFiles(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard (environment["ACCESSDECK_SESSION_FILE"] ?? "").isEmpty else { return }
        let folder = stateFolder(environment: environment)
        for name in ["session.json", "auth-methods.json", "signed-out"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// nil when there is no session, or it is another origin's; `corrupt` when the file cannot be read.
    public func load() throws -> SessionTokens? {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return nil }
        let stored: StoredSession
        do {
            stored = try APIJSON.makeContractDecoder().decode(StoredSession.self, from: data)
        } catch {
            throw SessionStoreError.corrupt(path: fileURL.path)
        }
        if let origin, stored.origin != origin.description { return nil }
        return stored.tokens
    }

    public func save(_ tokens: SessionTokens) throws {
        let data = try APIJSON.makeContractEncoder().encode(StoredSession(tokens: tokens, origin: origin?.description))
        try writeAtomically(data)
        try? FileManager.default.removeItem(at: signedOutMarkerURL)
    }

    public func clear() {
        try? FileManager.default.removeItem(at: fileURL)
    }

    /// Beside the session file: the user signed out here on purpose (log out, a deleted account), so
    /// the reference backend's QA shortcut, which signs in as the scenario's user when there is no
    /// session, stays off until a session is saved again.
    public var signedOutMarkerURL: URL {
        fileURL.deletingLastPathComponent().appendingPathComponent("signed-out")
    }

    public var userSignedOut: Bool { FileManager.default.fileExists(atPath: signedOutMarkerURL.path) }

    /// Beside the session file: sessions logged out here that the backend has not heard of yet
    /// (`LogoutQueue`), so a quit before it answered does not leave them live on the backend.
    public var pendingLogoutsURL: URL {
        fileURL.deletingLastPathComponent().appendingPathComponent("pending-logouts.json")
    }

    /// The logged-out sessions still to be told, this store's origin's only (one
    /// `ACCESSDECK_SESSION_FILE` folder may hold several origins'); an unreadable file counts as none.
    func loadPendingLogouts() -> [SessionTokens] {
        guard let data = FileManager.default.contents(atPath: pendingLogoutsURL.path),
            let stored = try? APIJSON.makeContractDecoder().decode([StoredSession].self, from: data)
        else { return [] }
        return stored.filter { origin == nil || $0.origin == origin?.description }.map(\.tokens)
    }

    /// Replaces this origin's list (other origins' entries stay); an empty list of every origin removes the file.
    func savePendingLogouts(_ tokens: [SessionTokens]) {
        let others: [StoredSession]
        if let data = FileManager.default.contents(atPath: pendingLogoutsURL.path),
            let stored = try? APIJSON.makeContractDecoder().decode([StoredSession].self, from: data)
        {
            others = stored.filter { origin != nil && $0.origin != origin?.description }
        } else {
            others = []
        }
        let all = others + tokens.map { StoredSession(tokens: $0, origin: origin?.description) }
        guard !all.isEmpty else {
            try? FileManager.default.removeItem(at: pendingLogoutsURL)
            return
        }
        guard let data = try? APIJSON.makeContractEncoder().encode(all) else { return }
        try? PrivateStateFile.write(data, to: pendingLogoutsURL)
    }

    /// Clears the session and leaves the signed-out marker.
    public func signOut() {
        clear()
        try? PrivateStateFile.write(Data(), to: signedOutMarkerURL)
    }

    private func writeAtomically(_ data: Data) throws {
        do {
            try PrivateStateFile.write(data, to: fileURL)
        } catch let error as PrivateStateFile.WriteError {
            throw SessionStoreError.unwritable(path: fileURL.path, reason: error.reason)
        }
    }
}

/// The tokens as the file keeps them, with the origin that issued them beside.
private struct StoredSession: Codable {
    var tokens: SessionTokens
    var origin: String?

    init(tokens: SessionTokens, origin: String?) {
        self.tokens = tokens
        self.origin = origin
    }

    enum CodingKeys: String, CodingKey { case origin }

    init(from decoder: any Decoder) throws {
        tokens = try SessionTokens(from: decoder)
        origin = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .origin)
    }

    func encode(to encoder: any Encoder) throws {
        try tokens.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(origin, forKey: .origin)
    }
}

/// Every file the app keeps under its state directory (the session, the cached sign-in methods):
/// 0600 from the moment it exists, in a 0700 folder, replaced atomically so a crash mid-write
/// never leaves half a file.
enum PrivateStateFile {
    struct WriteError: Error {
        var reason: String
    }

    static func write(_ data: Data, to fileURL: URL) throws {
        let folder = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw WriteError(reason: "cannot create \(folder.path)")
        }
        // A folder made earlier (by an older build, or by hand) is closed too; one we do not own is left be.
        var status = stat()
        if stat(folder.path, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 != 0 {
            chmod(folder.path, 0o700)
        }
        let temporary = folder.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString)")
        // Created 0600 from the start: there is no moment when another user could read it.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary.path, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw WriteError(reason: reason)
        }
    }
}

/// The tokens in memory, shared by every call, with one refresh at a time: concurrent 401s
/// wait for the same refresh instead of each spending the (rotating) refresh token.
actor SessionKeeper {
    private var tokens: SessionTokens?
    private var refreshing: Task<SessionTokens, any Error>?
    private let store: SessionStore?

    init(store: SessionStore?, initial: SessionTokens?) {
        self.store = store
        tokens = initial
    }

    var current: SessionTokens? { tokens }

    func replace(with newTokens: SessionTokens) throws {
        tokens = newTokens
        try store?.save(newTokens)
    }

    func clear() {
        tokens = nil
        store?.clear()
    }

    /// The user's own sign-out, remembered beside the session file (see `SessionStore.signOut`).
    func signOut() {
        tokens = nil
        store?.signOut()
    }

    /// Fresh tokens for a call that was refused with `staleAccessToken`. When another call
    /// already refreshed, its result is reused; a failed refresh clears the session.
    func refreshed(
        after staleAccessToken: String, using refresh: @escaping @Sendable (String) async throws -> SessionTokens
    ) async throws -> SessionTokens {
        if let tokens, tokens.accessToken != staleAccessToken { return tokens }
        if let refreshing {
            do { return try await refreshing.value } catch { throw Self.outcome(of: error) }
        }
        guard let refreshToken = tokens?.refreshToken else { throw APIError.signedOut }
        let task = Task { try await refresh(refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        do {
            let newTokens = try await task.value
            try replace(with: newTokens)
            return newTokens
        } catch {
            let outcome = Self.outcome(of: error)
            if case .signedOut = outcome { clear() }
            if case .signedOutElsewhere = outcome { clear() }
            if case .sessionEnded = outcome { clear() }
            throw outcome
        }
    }

    /// A refresh the server refused ends the session; one that got no answer (offline, timed out, a 5xx)
    /// keeps it, so the app can show saved data and try again when the backend is back.
    static func outcome(of refreshError: any Error) -> APIError {
        switch APIError.unwrapping(refreshError) {
        case .offline(let reason)?: return .offline(reason: reason)
        case .timedOut(let after)?: return .timedOut(after: after)
        case .signedOutElsewhere(let message)?: return .signedOutElsewhere(message: message)
        case .sessionEnded(let reason)?: return .sessionEnded(reason: reason)
        case .server(let status, let code, let message)? where status >= 500 || status == 0:
            return .server(status: status, code: code, message: message)
        default: return .signedOut
        }
    }
}
