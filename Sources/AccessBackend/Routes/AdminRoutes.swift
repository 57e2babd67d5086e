import AccessAPI
import Hummingbird

/// DESIGN §6: what QA, dev panels and tests use to set up and observe state.
extension Backend {
    func addAdminRoutes(to router: Router<AppContext>) {
        let admin = router.group("/_admin")

        admin.get("/scenarios") { _, _ in
            do {
                return try JSONReply.make(try catalog.summaries())
            } catch let error as ScenarioError {
                throw BackendError(
                    .internalServerError, "scenario_invalid", error.description, rule: "admin.scenario_invalid")
            }
        }

        admin.post("/scenario") { request, _ in
            let body = try await JSONBody.decode(LoadScenarioBody.self, from: request, nulls: .refused)
            do {
                return try JSONReply.make(try await scenarios.load(body.name))
            } catch let error as ScenarioError {
                let unknown = !catalog.names().contains(body.name)
                throw BackendError(
                    unknown ? .notFound : .unprocessableContent, unknown ? "unknown_scenario" : "scenario_invalid",
                    error.description, rule: "admin.scenario")
            }
        }

        admin.post("/session") { _, _ in
            let user = try await accounts.primaryUser()
            return try JSONReply.make(try await sessions.issue(userId: user.id))
        }

        admin.get("/outbox") { _, _ in try JSONReply.make(try await outbox.messages()) }

        admin.get("/clock") { _, _ in try JSONReply.make(ClockState(now: clock.now(), frozen: clock.isFrozen)) }

        admin.post("/clock/advance") { request, _ in
            let body = try await JSONBody.decode(ClockAdvanceBody.self, from: request, nulls: .refused)
            return try JSONReply.make(try await deadlines.advance(body))
        }

        admin.get("/faults") { _, _ in try JSONReply.make(faults.current) }

        admin.post("/faults") { request, _ in
            let body = try await JSONBody.decode(FaultSettings.self, from: request, nulls: .refused)
            try faults.apply(body)
            return try JSONReply.make(faults.current)
        }

        admin.delete("/faults") { _, _ in
            faults.clear()
            return try JSONReply.make(faults.current)
        }

        admin.get("/journal") { request, _ in
            let limit = try journal.limit(from: request.uri.queryParameters.get("limit"))
            return try JSONReply.make(journal.recent(limit: limit))
        }

        admin.post("/provider/{provider}/token") { request, context in
            guard let provider = context.parameters.get("provider").flatMap(SocialProvider.init(rawValue:)) else {
                throw BackendError.notFound("Unknown provider: use apple or google.")
            }
            let body = try await JSONBody.decode(ProviderTokenBody.self, from: request, nulls: .refused)
            return try JSONReply.make(try await providers.mint(provider: provider, subject: body.subject))
        }
    }
}
