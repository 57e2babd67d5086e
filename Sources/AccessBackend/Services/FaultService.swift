import AccessAPI
import Synchronization

/// Injected failures for QA: offline, added latency, a fixed status for one path. Admin paths are
/// never affected, so the faults can always be cleared.
final class FaultService: Sendable {
    enum Offline: String {
        case serviceUnavailable = "503"
        case drop
    }

    private let settings = Mutex(FaultSettings())

    func apply(_ update: FaultSettings) throws {
        if let offline = update.offline, Offline(rawValue: offline) == nil, offline != "none" {
            throw BackendError(
                .unprocessableContent, "invalid_fault", "offline: expected \"503\", \"drop\" or \"none\".")
        }
        if let latency = update.latencyMs, !(0...30_000).contains(latency) {
            throw BackendError(.unprocessableContent, "invalid_fault", "latency_ms: expected 0...30000.")
        }
        for fault in update.statuses ?? [] where !(400...599).contains(fault.status) || !fault.path.hasPrefix("/") {
            throw BackendError(
                .unprocessableContent, "invalid_fault",
                "statuses: each needs a path starting with / and a 4xx/5xx status.")
        }
        settings.withLock { current in
            if let offline = update.offline { current.offline = offline == "none" ? nil : offline }
            if let latency = update.latencyMs { current.latencyMs = latency }
            if let statuses = update.statuses { current.statuses = statuses }
        }
    }

    func clear() {
        settings.withLock { $0 = FaultSettings() }
    }

    var current: FaultSettings { settings.withLock { $0 } }
}
