import AccessCore

/// `--world-style`: the upstream serves the reference backend's worlds, each under `/w/NAME` (issue 33). The proxy
/// matches an exchange's operation on the path after that prefix, and keeps the rules' state per world
/// (`WorldRuleWatch`): two worlds are two backends, so a code sent in one and checked in another is no wrong try.
enum WorldStyle {
    /// The world a path is in and the path inside it; the bare paths are the default world (nil).
    static func split(_ path: String) -> (world: String?, path: String) {
        guard path.hasPrefix(WorldNames.pathPrefix) else { return (nil, path) }
        let rest = path.dropFirst(WorldNames.pathPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), WorldNames.isValid(String(rest[..<slash])) else {
            return (nil, path)
        }
        return (String(rest[..<slash]), String(rest[slash...]))
    }
}
