import Hummingbird
import Synchronization

/// Which methods each registered path answers, read from the router once every route is in. The router
/// itself answers a known path with an unknown method as if the path did not exist (404); with this the
/// gateway can say 405 and list the methods in `Allow` (RFC 9110 §15.5.6).
final class RouteTable: Sendable {
    private let routes = Mutex<[(path: RouterPath, methods: Set<String>)]>([])

    func load(_ descriptions: [Router<AppContext>.RouteDescription]) {
        var grouped: [String: (RouterPath, Set<String>)] = [:]
        for route in descriptions {
            grouped[route.path.description, default: (route.path, [])].1.insert(route.method.rawValue)
            // The router answers HEAD for every GET route (`autoGenerateHeadEndpoints`), without listing it.
            if route.method == .get { grouped[route.path.description]!.1.insert(HTTPRequest.Method.head.rawValue) }
        }
        routes.withLock { $0 = grouped.values.map { (path: $0.0, methods: $0.1) } }
    }

    /// The methods a path answers, sorted; empty when no route matches the path at all.
    func allowedMethods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.withLock { routes in
            var candidates = routes.filter { Self.matches($0.path, segments) }.map { (Array($0.path), $0.methods) }
            // The router's trie takes a segment written out before a parameter and does not come back: DELETE
            // /me/sessions/revoke-others is not DELETE /me/sessions/{id}, so `Allow` must not say it is.
            for index in segments.indices
            where candidates.contains(where: { index < $0.0.count && Self.isConstant($0.0[index]) }) {
                candidates.removeAll { index >= $0.0.count || !Self.isConstant($0.0[index]) }
            }
            return candidates.reduce(into: Set<String>()) { $0.formUnion($1.1) }.sorted()
        }
    }

    private static func isConstant(_ element: RouterPath.Element) -> Bool {
        !element.description.contains("{") && !element.description.contains("*")
    }

    private static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        let elements = Array(pattern)
        if let last = elements.last, last.description == "**" {
            guard segments.count >= elements.count - 1 else { return false }
            return zip(elements.dropLast(), segments).allSatisfy { $0 ~= $1 }
        }
        guard elements.count == segments.count else { return false }
        return zip(elements, segments).allSatisfy { $0 ~= $1 }
    }
}
