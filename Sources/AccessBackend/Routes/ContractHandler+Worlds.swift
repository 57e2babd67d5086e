import AccessAPI
import Foundation
import OpenAPIRuntime

/// The `worlds` operations of openapi.yaml (issue 33): list, make, delete, download and upload worlds. The
/// same registry answers them under every world's prefix.
extension ContractHandler {
    func adminListWorlds(_ input: Operations.AdminListWorlds.Input) async throws -> Operations.AdminListWorlds.Output {
        .ok(.init(headers: .init(xMaxWorlds: worlds.limits.maxWorlds), body: .json(try await worlds.list())))
    }

    func adminCreateWorld(
        _ input: Operations.AdminCreateWorld.Input
    ) async throws -> Operations.AdminCreateWorld.Output {
        let world: World
        // The query's name is the contract's even where a JSON body names the world: a bad one is refused, not ignored.
        if let name = input.query.name { try WorldName.validate(name) }
        switch input.body {
        case .json(let body):
            try await JSONBody.refuseNulls(in: ContractScope.current?.request)
            if let scenario = body.scenario, !backend.catalog.names().contains(scenario) {
                throw BackendError(
                    .notFound, "unknown_scenario", "There is no scenario named \(scenario).", rule: .adminScenario)
            }
            do {
                world = try await worlds.create(body.name, scenario: body.scenario)
            } catch let error as ScenarioError {
                throw BackendError(.unprocessableContent, "scenario_invalid", error.description, rule: .adminScenario)
            }
        case .applicationVnd_sqlite3(let file), .binary(let file):
            // The schema cannot make the query's name required for the file alone: a valid request without it.
            guard let name = input.query.name else {
                throw BackendError(
                    .unprocessableContent, "invalid_field",
                    "name: an uploaded world file needs its name in the query, POST /_admin/worlds?name=NAME.",
                    rule: .httpInvalidField)
            }
            let data = try await Data(collecting: file, upTo: WorldRegistry.maxUploadBytes)
            world = try await worlds.upload(name, file: data)
        }
        defer { world.end(at: worlds.clock.now()) }
        let loaded = try await world.backend.scenarios.loadedEpoch()
        return .created(
            .init(
                body: .json(
                    WorldSummary(
                        name: world.name, open: true, kept: world.kept, scenario: loaded.name, epoch: loaded.epoch,
                        idleSeconds: 0))))
    }

    func adminDeleteWorld(
        _ input: Operations.AdminDeleteWorld.Input
    ) async throws -> Operations.AdminDeleteWorld.Output {
        try await worlds.delete(input.path.name, from: world)
        return .noContent(.init())
    }

    func adminDownloadWorld(
        _ input: Operations.AdminDownloadWorld.Input
    ) async throws -> Operations.AdminDownloadWorld.Output {
        let file = try await worlds.using(input.path.name) { try $0.fileCopy() }
        return .ok(.init(body: .applicationVnd_sqlite3(HTTPBody(file))))
    }
}
