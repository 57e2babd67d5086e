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

/// Keeps the access and refresh tokens in a file only the user can read (0600 in a 0700
/// folder), replaced atomically so a crash mid-write never leaves half a file.
public struct SessionStore: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    /// `ACCESSDECK_SESSION_FILE`, else `$XDG_STATE_HOME/accessdeck/session.json`, else
    /// `~/.local/state/accessdeck/session.json`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["ACCESSDECK_SESSION_FILE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let stateHome =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        return stateHome.appendingPathComponent("accessdeck/session.json")
    }

    /// nil when there is no session; `corrupt` when the file cannot be read as one.
    public func load() throws -> SessionTokens? {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return nil }
        do {
            return try APIJSON.makeContractDecoder().decode(SessionTokens.self, from: data)
        } catch {
            throw SessionStoreError.corrupt(path: fileURL.path)
        }
    }

    public func save(_ tokens: SessionTokens) throws {
        let data = try APIJSON.makeContractEncoder().encode(tokens)
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
            if outcome == .signedOut { clear() }
            throw outcome
        }
    }

    /// A refresh the server refused ends the session; one that got no answer (offline, a 5xx)
    /// keeps it, so the app can show saved data and try again when the backend is back.
    static func outcome(of refreshError: any Error) -> APIError {
        switch APIError.unwrapping(refreshError) {
        case .offline(let reason)?: return .offline(reason: reason)
        case .server(let status, let code, let message)? where status >= 500 || status == 0:
            return .server(status: status, code: code, message: message)
        default: return .signedOut
        }
    }
}
