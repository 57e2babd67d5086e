import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `admin` operations of openapi.yaml (DESIGN §6): QA's scenarios, outbox, clock, faults and journal.
extension ContractHandler {
    func adminListScenarios(
        _ input: Operations.AdminListScenarios.Input
    ) async throws -> Operations.AdminListScenarios.Output {
        do {
            return .ok(.init(body: .json(try backend.catalog.summaries())))
        } catch let error as ScenarioError {
            throw BackendError(
                .internalServerError, "scenario_invalid", error.description, rule: .adminScenarioInvalid)
        }
    }

    func adminLoadScenario(
        _ input: Operations.AdminLoadScenario.Input
    ) async throws -> Operations.AdminLoadScenario.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        do {
            return .ok(.init(body: .json(try await backend.scenarios.load(body.name))))
        } catch let error as ScenarioError {
            let unknown = !backend.catalog.names().contains(body.name)
            throw BackendError(
                unknown ? .notFound : .unprocessableContent, unknown ? "unknown_scenario" : "scenario_invalid",
                error.description, rule: .adminScenario)
        }
    }

    func adminState(_ input: Operations.AdminState.Input) async throws -> Operations.AdminState.Output {
        let loaded = try await backend.scenarios.loadedEpoch()
        let now = backend.clock.now()
        return .ok(
            .init(
                body: .json(
                    AdminState(
                        scenario: loaded.name, epoch: loaded.epoch, faults: backend.faults.current,
                        clock: ClockState(now: now, frozen: backend.clock.isFrozen),
                        clockOffsetSeconds: Self.clockOffset(now: now, wall: Date()), instance: worlds.instance))))
    }

    /// Whole seconds the backend's clock is ahead of the machine's. A clock a fraction behind rounds to -0, which
    /// JSON wrote as `-0` (issue 48 item 19): adding zero makes it 0.
    static func clockOffset(now: Date, wall: Date) -> Double { now.timeIntervalSince(wall).rounded() + 0 }

    func adminSession(_ input: Operations.AdminSession.Input) async throws -> Operations.AdminSession.Output {
        try await backend.scenarios.refuseIfStartsSignedOut()
        let user = try await backend.accounts.primaryUser()
        let access = try await backend.scenarios.sessionAccess()
        // With two-factor on, the QA session stands for this device having passed the second step before.
        let tokens = try await backend.sessions.issue(
            userId: user.id, access: access, assurance: user.hasTwoFactor ? .aal2 : .aal1)
        return .ok(.init(body: .json(tokens)))
    }

    /// The palette's "Sign in from another device" (issue 30): a sign-in of the scenario's user from the device
    /// the body names, so a tester watches it appear in Active sessions and signs it out.
    func adminSignInDevice(
        _ input: Operations.AdminSignInDevice.Input
    ) async throws -> Operations.AdminSignInDevice.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        try await backend.scenarios.refuseIfStartsSignedOut()
        let user = try await backend.accounts.primaryUser()
        let tokens = try await backend.sessions.issue(
            userId: user.id, access: .full, assurance: user.hasTwoFactor ? .aal2 : .aal1, device: body.device,
            method: body.method)
        return .ok(.init(body: .json(tokens)))
    }

    func adminOutbox(_ input: Operations.AdminOutbox.Input) async throws -> Operations.AdminOutbox.Output {
        let messages = try await backend.outbox.messages().map { message in
            guard let wire = message.wire else {
                throw BackendError(
                    .internalServerError, "internal", "The outbox holds a message the contract cannot describe.",
                    rule: .adminOutboxInvalid)
            }
            return wire
        }
        return .ok(.init(body: .json(messages)))
    }

    func adminClock(_ input: Operations.AdminClock.Input) async throws -> Operations.AdminClock.Output {
        .ok(.init(body: .json(ClockState(now: backend.clock.now(), frozen: backend.clock.isFrozen))))
    }

    func adminSetClock(_ input: Operations.AdminSetClock.Input) async throws -> Operations.AdminSetClock.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        return .ok(.init(body: .json(try await backend.deadlines.set(body))))
    }

    func adminAdvanceClock(
        _ input: Operations.AdminAdvanceClock.Input
    ) async throws -> Operations.AdminAdvanceClock.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        return .ok(.init(body: .json(try await backend.deadlines.advance(body))))
    }

    func adminGetFaults(_ input: Operations.AdminGetFaults.Input) async throws -> Operations.AdminGetFaults.Output {
        .ok(.init(body: .json(backend.faults.current)))
    }

    func adminSetFaults(_ input: Operations.AdminSetFaults.Input) async throws -> Operations.AdminSetFaults.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        if world != WorldName.defaultWorld, body.offline == FaultService.Offline.refused.rawValue {
            throw BackendError(
                .unprocessableContent, "fault_not_in_world",
                "offline \"refused\" stops the whole port, every world's: only the default world (the bare paths) "
                    + "may set it. Use \"drop\" or \"503\" for this world alone.", rule: .adminWorldFault)
        }
        if let refusal = try backend.faults.apply(body) {
            let faults = backend.faults
            // Returns once the port refuses connections; this answer still goes out on its own connection.
            await backend.refusals.refuse(for: refusal) { faults.endRefusal() }
        }
        return .ok(.init(body: .json(backend.faults.current)))
    }

    func adminClearFaults(
        _ input: Operations.AdminClearFaults.Input
    ) async throws -> Operations.AdminClearFaults.Output {
        backend.faults.clear()
        await backend.refusals.end()
        return .ok(.init(body: .json(backend.faults.current)))
    }

    func adminJournal(_ input: Operations.AdminJournal.Input) async throws -> Operations.AdminJournal.Output {
        // A number out of range is the journal's 422; what is not a number the contract refuses (400).
        let limit = try backend.journal.limit(from: input.query.limit.map(String.init))
        let query = input.query
        let filter = try JournalService.filter(
            path: query.path, method: query.method, status: query.status, rule: query.rule, user: query.user,
            since: query.since, until: query.until)
        return .ok(.init(body: .json(backend.journal.recent(limit: limit, filter: filter))))
    }

    func adminJournalCount(
        _ input: Operations.AdminJournalCount.Input
    ) async throws -> Operations.AdminJournalCount.Output {
        let query = input.query
        let filter = try JournalService.filter(
            path: query.path, method: query.method, status: query.status, rule: query.rule, user: query.user,
            since: query.since, until: query.until)
        return .ok(.init(body: .json(JournalCount(count: backend.journal.count(filter)))))
    }

    /// The palette's "Sign this device out from elsewhere" (issue 49 item 3).
    func adminSignOutSession(
        _ input: Operations.AdminSignOutSession.Input
    ) async throws -> Operations.AdminSignOutSession.Output {
        try await backend.sessionList.signOutByAdmin(id: input.path.id)
        return .noContent(.init())
    }

    /// Support's view of one person (issue 49 item 2).
    func adminTimeline(_ input: Operations.AdminTimeline.Input) async throws -> Operations.AdminTimeline.Output {
        let timeline = try await TimelineService(store: backend.store).timeline(
            user: input.query.user, since: input.query.since, kinds: input.query.kinds, limit: input.query.limit)
        return .ok(.init(body: .json(timeline)))
    }

    func adminProviderToken(
        _ input: Operations.AdminProviderToken.Input
    ) async throws -> Operations.AdminProviderToken.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        let token = try await backend.providers.mint(provider: input.path.provider, subject: body.subject)
        return .ok(.init(body: .json(token)))
    }

    func adminProviderAccounts(
        _ input: Operations.AdminProviderAccounts.Input
    ) async throws -> Operations.AdminProviderAccounts.Output {
        .ok(.init(body: .json(try await backend.providerLinks.accounts(provider: input.path.provider))))
    }

    /// Issue 53 item 3: the scenario's passkeys on this device, for the app's authenticator.
    func adminDevicePasskeys(
        _ input: Operations.AdminDevicePasskeys.Input
    ) async throws -> Operations.AdminDevicePasskeys.Output {
        .ok(.init(body: .json(try await backend.devicePasskeys.kits())))
    }

    /// The palette's "Passkey: remove on the server only".
    func adminRemovePasskey(
        _ input: Operations.AdminRemovePasskey.Input
    ) async throws -> Operations.AdminRemovePasskey.Output {
        try await backend.passkeys.removeByAdmin(id: input.path.id)
        return .noContent(.init())
    }

    func adminDeletions(_ input: Operations.AdminDeletions.Input) async throws -> Operations.AdminDeletions.Output {
        .ok(.init(body: .json(try await backend.deletions.scheduled())))
    }

    /// QA's "Authenticator: current code" (issue 31), for the scenario's user unless `user_id` names another.
    func adminTwoFactorCode(
        _ input: Operations.AdminTwoFactorCode.Input
    ) async throws -> Operations.AdminTwoFactorCode.Output {
        let userId: String
        if let named = input.query.userId {
            userId = named
        } else {
            userId = try await backend.accounts.primaryUser().id
        }
        return .ok(.init(body: .json(try await backend.twoFactor.currentCode(userId: userId))))
    }
}
