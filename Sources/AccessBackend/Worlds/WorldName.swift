import AccessCore
import Foundation

/// How a world is named and addressed: `/w/NAME/…` is world NAME's whole contract and admin API (issue 33).
enum WorldName {
    /// The bare paths' world, also reachable as `/w/default/…`; it is never dropped, deleted or replaced.
    static let defaultWorld = WorldNames.defaultWorld
    static let maxLength = WorldNames.maxLength
    /// What a request's path starts with to name a world.
    static let prefix = WorldNames.pathPrefix

    /// The rule the app's `--world` follows too (`WorldNames`).
    static func isValid(_ name: String) -> Bool { WorldNames.isValid(name) }

    static func validate(_ name: String) throws {
        guard isValid(name) else { throw BackendError.invalidWorldName }
    }

    /// `/w/NAME/rest` → (NAME, `/rest`); `/w/NAME` → (NAME, `/`); nil for a path outside `/w/` (the default
    /// world's). The name is returned as written, valid or not: the caller refuses it.
    static func split(_ path: String) -> (name: Substring, rest: Substring)? {
        guard path.utf8.starts(with: prefix.utf8) else { return nil }
        let afterPrefix = path.utf8.index(path.startIndex, offsetBy: prefix.utf8.count)
        let tail = path[afterPrefix...]
        guard let slash = tail.firstIndex(of: "/") else { return (tail, "/") }
        return (tail[..<slash], tail[slash...])
    }
}

extension BackendError {
    static let invalidWorldName = BackendError(
        .badRequest, "invalid_world_name", WorldNames.problem, rule: .adminWorldName)

    static func unknownWorld(_ name: String) -> BackendError {
        BackendError(.notFound, "unknown_world", "There is no world named \(name).", rule: .adminUnknownWorld)
    }

    static func worldExists(_ name: String) -> BackendError {
        BackendError(
            .conflict, "world_exists",
            "A world named \(name) exists: reset it with POST /w/\(name)/_admin/scenario, or delete it first.",
            rule: .adminWorldExists)
    }

    static func worldLimit(_ limit: Int, idleMinutes: Int) -> BackendError {
        BackendError(
            .conflict, "world_limit",
            "This server holds \(limit) worlds at once (--max-worlds): delete one (DELETE /_admin/worlds/NAME), "
                + "or wait for one to stay unused \(idleMinutes) minutes (--world-idle-minutes).",
            rule: .adminWorldLimit)
    }

    static let worldDefault = BackendError(
        .conflict, "world_default",
        "The default world (the bare paths) cannot be deleted or replaced: reset it with POST /_admin/scenario.",
        rule: .adminWorldDefault)

    static func worldFileInvalid(_ reason: String) -> BackendError {
        BackendError(
            .unprocessableContent, "world_file_invalid", "Not a world file this server can open: \(reason)",
            rule: .adminWorldFile)
    }
}
