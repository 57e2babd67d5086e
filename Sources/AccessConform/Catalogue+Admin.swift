import AccessCore
import Foundation

/// The reference backend's admin API: the clock, scenarios, QA sessions and worlds, on each operation a rule
/// decides.
extension Catalogue {
    static let adminRoads: [Check] = [
        Check(
            .adminClock,
            "The clock moves by up to \(time(RequestBounds.longestClockAdvance)), or to the next deadline, and only forward",
            needs: .init(referenceOnly: referenceAPI)
        ) { context, operation in
            if operation == .adminAdvanceClock {
                let neither = try await context.expect(
                    await context.http.post("/_admin/clock/advance", [:]), 422, "invalid_advance",
                    "an advance of nothing")
                for (body, what): ([String: Any], String) in [
                    (
                        ["seconds": RequestBounds.longestClockAdvance + 1],
                        "an advance of \(time(RequestBounds.longestClockAdvance)) and a second"
                    ),
                    (["seconds": 1, "to": "next_deadline"], "an advance by seconds and to the next deadline"),
                ] {
                    try await context.expect(
                        await context.http.post("/_admin/clock/advance", body), 422, "invalid_advance", what,
                        evidence: [neither])
                }
                return
            }
            let now = try await context.reference!.now()
            func at(_ date: Date) -> [String: Any] { ["at": ISO8601DateFormatter().string(from: date)] }
            let far = try await context.expect(
                await context.http.post(
                    "/_admin/clock", at(now.addingTimeInterval(2 * RequestBounds.longestClockAdvance))), 422,
                "invalid_advance", "setting the clock twice \(time(RequestBounds.longestClockAdvance)) ahead")
            try await context.expect(
                await context.http.post("/_admin/clock", at(now.addingTimeInterval(-3600))), 422, "clock_backwards",
                "setting the clock an hour back", evidence: [far])
        },
        Check(
            .adminScenario, "A scenario nobody wrote answers 404 unknown_scenario, loaded or made a world of",
            needs: .init(referenceOnly: referenceAPI)
        ) { context, operation in
            if operation == .adminLoadScenario {
                try await context.expect(
                    await context.http.post("/_admin/scenario", ["name": "conform-no-such-scenario"]), 404,
                    "unknown_scenario", "loading a scenario that does not exist")
                return
            }
            let world = try context.ownWorld()
            let name = "conform-scenario-\(UUID().uuidString.prefix(8).lowercased())"
            let answer = try await world.root.post(
                "/_admin/worlds", ["name": name, "scenario": "conform-no-such-scenario"])
            if answer.status == 201 { _ = try? await world.root.send("DELETE", "/_admin/worlds/\(name)") }
            try await context.expect(
                answer, 404, "unknown_scenario", "a world made from a scenario that does not exist")
        },
        Check(
            .adminAccountDeleted, "Once the scenario's user deleted their account, a QA session answers 409",
            needs: .init(messages: true, time: SendLimits.cooldown, referenceOnly: referenceAPI)
        ) { context, operation in
            var account = try await context.reference!.session()
            let me = try await context.setup(
                await context.http.get("/auth/me", token: account.access), 200, doing: "reading the scenario's user")
            guard let phone = (me.object?["auth_methods"] as? [String: Any])?["phone"] as? String else {
                throw CheckStop.cannotTell("the default scenario's user has no phone to verify it's them with")
            }
            account.destination = phone
            let grant = try await context.grant(account)
            let deleted = try await context.setup(
                await context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200,
                doing: "deleting the scenario user's account")
            try await context.expect(
                await context.http.post(operation.route.path, ["device": Device.body]), 409, "account_deleted",
                "\(operation.name) once the scenario's user deleted their account", evidence: [deleted])
        },
        Check(
            .adminNoScenario, "A QA session with no scenario loaded answers 409 no_scenario",
            needs: .init(referenceOnly: referenceAPI)
        ) { _, _ in
            throw CheckStop.skipped(
                "no request leaves a world without a scenario: every world the admin API makes, or opens from an "
                    + "uploaded file, loads one (and a user who deleted their account is admin.account_deleted)")
        },
        Check(
            .adminWorldName, "A world's name out of its pattern is refused", needs: .init(referenceOnly: worldsOnly)
        ) { context, operation in
            let world = try context.ownWorld()
            let answer =
                operation == .adminCreateWorld
                ? try await world.root.post("/_admin/worlds", ["name": "Conform World!"])
                : try await world.root.send(
                    operation == .adminDeleteWorld ? "DELETE" : "GET",
                    "/_admin/worlds/\(String(repeating: "w", count: 41))"
                        + (operation == .adminDownloadWorld ? "/file" : ""))
            try await context.expect(
                answer, 400, "invalid_world_name", "\(operation.name) with a name out of its pattern")
        },
        Check(
            .adminUnknownWorld, "A world nobody made answers 404 unknown_world", needs: .init(referenceOnly: worldsOnly)
        ) { context, operation in
            let world = try context.ownWorld()
            let name = "conform-none-\(UUID().uuidString.prefix(8).lowercased())"
            let answer =
                operation == .adminDeleteWorld
                ? try await world.root.send("DELETE", "/_admin/worlds/\(name)")
                : try await world.root.get("/_admin/worlds/\(name)/file")
            try await context.expect(answer, 404, "unknown_world", "\(operation.name) for a world never made")
        },
        Check(
            .adminWorldDefault, "The default world can be neither deleted nor made",
            needs: .init(referenceOnly: worldsOnly)
        ) { context, operation in
            let world = try context.ownWorld()
            let answer =
                operation == .adminDeleteWorld
                ? try await world.root.send("DELETE", "/_admin/worlds/default")
                : try await world.root.post("/_admin/worlds", ["name": "default"])
            try await context.expect(answer, 409, "world_default", "\(operation.name) naming the default world")
        },
    ]
}
