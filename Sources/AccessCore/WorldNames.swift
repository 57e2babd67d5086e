import Foundation

/// Issue 33: a world of a reference backend is addressed by its base URL, `http://HOST:PORT/w/NAME`. The
/// name's rule, for the backend's 400 `invalid_world_name` and the app's `--world` alike.
public enum WorldNames {
    public static let maxLength = 40
    /// The bare paths' world, also `/w/default`.
    public static let defaultWorld = "default"
    /// What a path starts with to name a world.
    public static let pathPrefix = "/w/"

    /// `^[a-z0-9][a-z0-9-]{0,39}$`: safe as a file name, in a URL and as a load balancer's hash key as it is.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= maxLength, first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    public static let problem =
        "A world's name is lower-case letters, digits and -, starts with a letter or digit and is at most "
        + "\(maxLength) characters."

    /// `http://host:8080/` and `alice` → `http://host:8080/w/alice`.
    public static func baseURL(_ backend: String, world: String) -> String {
        var trimmed = backend
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed + pathPrefix + world
    }

    /// The server's bare base URL under a world's: `http://host:8080/w/alice` → `http://host:8080`.
    public static func serverURL(of baseURL: String) -> String {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let world = world(in: trimmed) else { return trimmed }
        return String(trimmed.dropLast(pathPrefix.count + world.count))
    }

    /// The world a base URL addresses (its path ends in `/w/NAME`), or nil.
    public static func world(in baseURL: String) -> String? {
        guard let path = URL(string: baseURL)?.path else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.count >= 2, segments[segments.count - 2] == "w" else { return nil }
        let name = String(segments[segments.count - 1])
        return isValid(name) ? name : nil
    }
}
