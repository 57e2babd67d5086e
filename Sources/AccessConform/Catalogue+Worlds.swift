import AccessCore
import Foundation

extension CheckContext {
    /// The run's own world, from which the checks of the worlds admin API reach the server's bare paths.
    func ownWorld() throws -> ConformWorld {
        if let world = reference?.world { return world }
        // A base URL that names a world is run in as given (the app's panel runs in /w/conform): the server's
        // bare paths are out of its reach, not missing.
        if let named = WorldNames.world(in: http.baseURL) {
            throw CheckStop.skipped(
                "the run is in world \(named), as its URL names: the worlds admin API is checked from the server's "
                    + "bare URL")
        }
        throw CheckStop.skipped("the backend serves no worlds")
    }
}

extension Catalogue {
    static let worldsOnly = "the worlds admin API is the reference backend's"

    /// The most worlds the `admin.world_limit` check opens to reach the server's cap: more would fill a server
    /// others may be using (200 worlds by default) for one rule.
    public static let mostWorldsToFill = 20

    static let worlds: [Check] = [
        Check(
            .adminWorldLimit, "With --max-worlds worlds open, making one more answers 409 world_limit",
            needs: .init(referenceOnly: worldsOnly)
        ) { context in
            let world = try context.ownWorld()
            let listed = try await context.setup(
                await world.root.get("/_admin/worlds"), 200, doing: "listing the worlds")
            guard let cap = listed.headers["x-max-worlds"].flatMap({ Int($0) }) else {
                throw CheckStop.skipped("GET /_admin/worlds does not tell the server's --max-worlds (X-Max-Worlds)")
            }
            let worlds = (try? JSONSerialization.jsonObject(with: listed.body)) as? [[String: Any]] ?? []
            let open = worlds.filter { $0["open"] as? Bool == true && $0["name"] as? String != "default" }.count
            let room = cap - open
            guard room <= mostWorldsToFill else {
                throw CheckStop.skipped(
                    "reaching --max-worlds \(cap) would open \(room) more worlds on a server others may be using "
                        + "(conform opens at most \(mostWorldsToFill))")
            }
            var made: [String] = []
            func fresh() -> String { "conform-fill-\(UUID().uuidString.prefix(8).lowercased())" }
            func make(_ name: String) async throws -> Exchange {
                let answer = try await world.root.post("/_admin/worlds", ["name": name])
                if answer.status == 201 { made.append(name) }
                return answer
            }
            let refused: Exchange
            do {
                for _ in 0..<max(0, room) {
                    let answer = try await make(fresh())
                    if answer.errorCode == "world_limit" {
                        throw CheckStop.cannotTell(
                            "a world was refused before --max-worlds \(cap) were open: another client may have opened "
                                + "worlds meanwhile")
                    }
                    try await context.setup(answer, 201, doing: "opening worlds up to --max-worlds")
                }
                refused = try await make(fresh())
            } catch {
                for name in made { _ = try? await world.root.send("DELETE", "/_admin/worlds/\(name)") }
                throw error
            }
            for name in made { _ = try? await world.root.send("DELETE", "/_admin/worlds/\(name)") }
            try await context.expect(
                refused, 409, "world_limit", "one more world with --max-worlds \(cap) open", evidence: [listed])
        },
        Check(
            .adminNoTwoFactor, "The admin API shows no authenticator code for an account without two-factor",
            needs: .init(scenario: "two-factor", referenceOnly: "the admin API is the reference backend's")
        ) { context in
            let shown = try await context.setup(
                await context.http.get("/_admin/two-factor/code"), 200, doing: "the two-factor scenario user's code")
            try await context.expect(
                await context.http.get("/_admin/two-factor/code?user_id=conform-no-such-user"), 404,
                "two_factor_not_enabled", "the code of an account nobody has", evidence: [shown])
        },
        Check(
            .adminWorldExists, "Making a world under a name in use answers 409", needs: .init(referenceOnly: worldsOnly)
        ) { context in
            let world = try context.ownWorld()
            try await context.expect(
                await world.root.post("/_admin/worlds", ["name": world.name]), 409, "world_exists",
                "making a world named as the run's own")
        },
        Check(
            .adminWorldFile, "An uploaded world that is no SQLite database is refused",
            needs: .init(referenceOnly: worldsOnly)
        ) { context in
            let world = try context.ownWorld()
            let name = "conform-file-\(UUID().uuidString.prefix(8).lowercased())"
            let answer = try await world.root.send(
                "POST", "/_admin/worlds?name=\(name)", body: Data("not a database".utf8),
                contentType: "application/octet-stream")
            // A backend that took it made a world: delete it, whatever the verdict.
            if answer.status == 201 { _ = try? await world.root.send("DELETE", "/_admin/worlds/\(name)") }
            try await context.expect(answer, 422, "world_file_invalid", "uploading a text file as a world")
        },
        Check(
            .adminWorldFault, "A world may not stop the whole port", needs: .init(referenceOnly: worldsOnly)
        ) { context in
            _ = try context.ownWorld()
            // The shortest refusal there is, should a backend take it.
            try await context.expect(
                await context.http.post("/_admin/faults", ["offline": "refused", "offline_seconds": 1]), 422,
                "fault_not_in_world", "a refusal of the port from a named world")
        },
    ]
}
