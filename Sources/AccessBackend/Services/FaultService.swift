import AccessAPI
import AccessCore
import Foundation
import HTTPTypes
import Synchronization

/// Injected failures for QA: the whole backend offline (refused, 503 or dropped), added latency, a status
/// for a path, and per-endpoint faults. Admin paths are never affected, so the faults can always be cleared
/// — except while `refused`, when nothing listens: `RunningBackend.endRefusal()` ends that in-process.
final class FaultService: Sendable {
    enum Offline: String {
        case refused
        case serviceUnavailable = "503"
        case drop
    }

    static let defaultRefusalSeconds = 30
    static let longestRefusalSeconds = 600
    /// A `timeout` fault never holds a request longer than this.
    static let longestHold: Duration = .seconds(60)
    static let maxLatencyMs = 30_000
    static let maxEndpointFaults = 50
    static let maxPathLength = 200
    static let maxFaultMessageLength = 200
    /// "Fail N times, then succeed": N at most this.
    static let maxFaultTimes = 1000
    /// What an injected 429 tells the client to wait, as the contract promises one on every 429.
    static let injectedRetryAfter = 30

    /// What the gateway does to one request, and the rule the journal names for it.
    enum Action {
        /// Answer this error (its rule is the fault's) instead of running the request.
        case answer(BackendError)
        /// Close the connection without an answer.
        case close(Rule)
        /// Hold the request unanswered until the client gives up (at most `longestHold`), then close.
        case hold(Rule)
        /// Run the request (its writes are committed), then close the connection instead of answering.
        case runThenClose(Rule)
        /// Answer this status with this text (of this content type) instead of running the request.
        case body(String, status: Int, contentType: String, Rule)
        /// Run the request, then send its answer otherwise (in pieces, mangled, or cut off by a dropped connection).
        case reshape(Reshape, Rule?)

        /// The rule the fault decides the request by.
        var rule: Rule {
            switch self {
            case .answer(let error): error.rule
            case .close(let rule), .hold(let rule), .runThenClose(let rule), .body(_, _, _, let rule): rule
            case .reshape(_, let rule): rule ?? .ok
            }
        }
    }

    /// What becomes of an answer the request did get.
    enum Reshape: Equatable {
        /// Sent whole, in `dribblePieces` pieces spread over this long.
        case dribble(Duration)
        /// The first half of the body, as if it were all.
        case cut
        /// The body with each top-level member's value of another type.
        case wrongType
        /// The head and the first half of the body, then the connection dropped.
        case reset
    }

    /// How many pieces a dribbled answer is sent in (fewer when the body is shorter).
    static let dribblePieces = 8
    /// What a `malformed: html` fault answers: a proxy's error page, not the contract's JSON.
    static let htmlErrorPage =
        "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
        + "<body><h1>Bad Gateway</h1><p>The upstream server sent an invalid response.</p></body></html>\n"
    static let htmlErrorStatus = 502

    struct Injection {
        /// The journal's `fault`.
        var name: String
        /// Waited before anything else.
        var delay: Duration?
        /// nil: only the delay (a latency fault); the request is then answered as usual.
        var action: Action?
    }

    private let settings = Mutex(FaultSettings())
    private static let nothingArmed = FaultSettings()
    /// The draws of `jitter` faults: seeded by the last fault set with a `seed`, else the system's.
    private let jitterDraws = Mutex(JitterDraws())

    /// Applies the members `update` sends. Returns how long the port must refuse connections when it
    /// starts a refusal.
    @discardableResult
    func apply(_ update: FaultSettings) throws -> Duration? {
        try Self.validate(update)
        let seeded = ((update.endpoints ?? []) + (update.appendEndpoints ?? [])).last {
            $0.kind == .jitter && $0.seed != nil
        }
        let applied = try settings.withLock { current -> Duration? in
            let kept = update.endpoints ?? current.endpoints ?? []
            if kept.count + (update.appendEndpoints?.count ?? 0) > Self.maxEndpointFaults {
                throw Self.invalid("append_endpoints: at most \(Self.maxEndpointFaults) endpoint faults in all.")
            }
            var refusal: Duration?
            if let offline = update.offline {
                current.offline = offline == "none" ? nil : offline
                current.refusedUntil = nil
                if offline == Offline.refused.rawValue {
                    let seconds = update.offlineSeconds ?? current.offlineSeconds ?? Self.defaultRefusalSeconds
                    // Real time, not the backend's clock: it is how long the port stays closed.
                    current.refusedUntil = Date().addingTimeInterval(TimeInterval(seconds))
                    refusal = .seconds(seconds)
                }
            }
            if let seconds = update.offlineSeconds { current.offlineSeconds = seconds }
            if let latency = update.latencyMs { current.latencyMs = latency }
            if let statuses = update.statuses { current.statuses = statuses }
            let counted = { (faults: [Components.Schemas.EndpointFault]) in
                faults.map { fault in
                    var fault = fault
                    fault.remaining = fault.times
                    return fault
                }
            }
            if let endpoints = update.endpoints { current.endpoints = counted(endpoints) }
            if let appended = update.appendEndpoints {
                current.endpoints = (current.endpoints ?? []) + counted(appended)
            }
            return refusal
        }
        if let seed = seeded?.seed { jitterDraws.withLock { $0 = JitterDraws(seed: UInt64(seed)) } }
        return applied
    }

    private static func validate(_ update: FaultSettings) throws {
        if let offline = update.offline, Offline(rawValue: offline) == nil, offline != "none" {
            throw invalid("offline: expected \"refused\", \"503\", \"drop\" or \"none\".")
        }
        if let seconds = update.offlineSeconds, !(1...longestRefusalSeconds).contains(seconds) {
            throw invalid("offline_seconds: expected 1...\(longestRefusalSeconds).")
        }
        if let latency = update.latencyMs, !(0...maxLatencyMs).contains(latency) {
            throw invalid("latency_ms: expected 0...\(maxLatencyMs).")
        }
        for fault in update.statuses ?? [] where !(400...599).contains(fault.status) || !fault.path.hasPrefix("/") {
            throw invalid("statuses: each needs a path starting with / and a 4xx/5xx status.")
        }
        if (update.endpoints?.count ?? 0) > maxEndpointFaults {
            throw invalid("endpoints: at most \(maxEndpointFaults).")
        }
        if (update.appendEndpoints?.count ?? 0) > maxEndpointFaults {
            throw invalid("append_endpoints: at most \(maxEndpointFaults).")
        }
        let listed = (update.endpoints ?? []).enumerated().map { ("endpoints[\($0.offset)]", $0.element) }
        let appended = (update.appendEndpoints ?? []).enumerated().map {
            ("append_endpoints[\($0.offset)]", $0.element)
        }
        for (name, fault) in listed + appended {
            guard fault.path == "*" || (fault.path.hasPrefix("/") && fault.path.count <= maxPathLength) else {
                throw invalid("\(name).path: expected a path starting with / or \"*\".")
            }
            if let latency = fault.latencyMs, !(0...maxLatencyMs).contains(latency) {
                throw invalid("\(name).latency_ms: expected 0...\(maxLatencyMs).")
            }
            if let status = fault.status, !(400...599).contains(status) {
                throw invalid("\(name).status: expected 400...599.")
            }
            if fault.kind == .latency, fault.latencyMs == nil {
                throw invalid("\(name): latency needs latency_ms.")
            }
            if let latency = fault.latencyMaxMs, !(0...maxLatencyMs).contains(latency) {
                throw invalid("\(name).latency_max_ms: expected 0...\(maxLatencyMs).")
            }
            if fault.kind == .jitter {
                guard let low = fault.latencyMs, let high = fault.latencyMaxMs, low <= high else {
                    throw invalid("\(name): jitter needs latency_ms and latency_max_ms, the first no larger.")
                }
            } else if fault.latencyMaxMs != nil || fault.seed != nil {
                throw invalid("\(name): latency_max_ms and seed go with kind jitter.")
            }
            if let seed = fault.seed, !(0...Int(UInt32.max)).contains(seed) {
                throw invalid("\(name).seed: expected 0...\(UInt32.max).")
            }
            if fault.kind == .dribble {
                guard let span = fault.dribbleMs, (1...maxLatencyMs).contains(span) else {
                    throw invalid("\(name): dribble needs dribble_ms, 1...\(maxLatencyMs).")
                }
            } else if fault.dribbleMs != nil {
                throw invalid("\(name): dribble_ms goes with kind dribble.")
            }
            if (fault.kind == .malformed) != (fault.malformed != nil) {
                throw invalid("\(name): kind malformed needs malformed (cut, wrong_type or html), and only it.")
            }
            if fault.kind == .status, fault.status == nil {
                throw invalid("\(name): status needs status.")
            }
            if fault.kind == .body {
                guard let body = fault.body, (try? JSONSerialization.jsonObject(with: Data(body.utf8))) != nil else {
                    throw invalid("\(name): body needs body, a JSON text.")
                }
            }
            if let status = fault.bodyStatus, !(200...299).contains(status) {
                throw invalid("\(name).body_status: expected 200...299.")
            }
            if fault.kind != .status, fault.code != nil || fault.message != nil {
                throw invalid("\(name): code and message go with kind status.")
            }
            if let code = fault.code, code.wholeMatch(of: /[a-z][a-z0-9_]{0,63}/) == nil {
                throw invalid(
                    "\(name).code: expected lower-case letters, digits and _, starting with a letter (64 at most).")
            }
            if let message = fault.message, message.isEmpty || message.count > maxFaultMessageLength {
                throw invalid("\(name).message: expected 1...\(maxFaultMessageLength) characters.")
            }
            if let times = fault.times, !(1...maxFaultTimes).contains(times) {
                throw invalid("\(name).times: expected 1...\(maxFaultTimes).")
            }
            if fault.remaining != nil {
                throw invalid("\(name).remaining: the backend counts it; send times.")
            }
        }
    }

    private static func invalid(_ message: String) -> BackendError {
        BackendError(.unprocessableContent, .invalidFault, message, rule: .invalidFault)
    }

    /// DELETE /_admin/faults, and the start of a fresh world.
    func clear() {
        settings.withLock { $0 = FaultSettings() }
    }

    /// The refusal is over (its time ran out, or it was ended in-process).
    func endRefusal() {
        settings.withLock { current in
            guard current.offline == Offline.refused.rawValue else { return }
            current.offline = nil
            current.refusedUntil = nil
        }
    }

    var current: FaultSettings { settings.withLock { $0 } }

    /// What survives a restart: everything but a refusal, which a restart ends (the port listens again).
    var persistent: FaultSettings {
        var saved = current
        if saved.offline == Offline.refused.rawValue {
            saved.offline = nil
            saved.refusedUntil = nil
        }
        return saved
    }

    func restore(_ saved: FaultSettings) {
        settings.withLock { $0 = saved }
    }

    /// What to do to a request for `path` (never an admin path): offline first, then the global latency,
    /// then the first endpoint fault whose path matches, then a status for the path. An endpoint fault given
    /// `times` counts this request, and is gone once spent.
    func injection(for path: String) -> Injection? {
        let armed = self.settings.withLock { current -> FaultSettings? in
            // Nothing armed, as for almost every request: no copy of the settings (issue 34 item 2).
            if current == Self.nothingArmed { return nil }
            let seen = current
            if let index = current.endpoints?.firstIndex(where: { $0.path == "*" || $0.path == path }),
                let remaining = current.endpoints?[index].remaining
            {
                if remaining <= 1 {
                    current.endpoints?.remove(at: index)
                } else {
                    current.endpoints?[index].remaining = remaining - 1
                }
            }
            return seen
        }
        guard let settings = armed else { return nil }
        switch settings.offline.flatMap(Offline.init(rawValue:)) {
        case .drop:
            return Injection(name: "offline_drop", action: .close(.faultOfflineDrop))
        case .serviceUnavailable:
            return Injection(name: "offline_503", action: .answer(Self.offline(rule: .faultOffline503)))
        case .refused, nil:
            break
        }
        var injection: Injection?
        if let latency = settings.latencyMs, latency > 0 {
            injection = Injection(name: "latency", delay: .milliseconds(latency))
        }
        if let fault = settings.endpoints?.first(where: { $0.path == "*" || $0.path == path }) {
            var endpoint = Self.endpointInjection(fault, path: path)
            if fault.kind == .jitter {
                let low = fault.latencyMs ?? 0
                let wait = jitterDraws.withLock { $0.next(in: low...max(low, fault.latencyMaxMs ?? low)) }
                endpoint = Injection(name: "jitter \(wait) ms", delay: .milliseconds(wait))
            }
            // A global latency still applies before the endpoint's own fault.
            if let delay = injection?.delay { endpoint.delay = delay + (endpoint.delay ?? .zero) }
            return endpoint
        }
        if let fault = settings.statuses?.first(where: { $0.path == path }) {
            return Injection(
                name: "status", delay: injection?.delay,
                action: .answer(Self.status(fault.status, path: path, rule: .faultStatus)))
        }
        return injection
    }

    private static func endpointInjection(_ fault: Components.Schemas.EndpointFault, path: String) -> Injection {
        let name = fault.kind.rawValue
        switch fault.kind {
        case .unavailable:
            return Injection(name: name, action: .answer(offline(rule: .faultUnavailable)))
        case .offline:
            return Injection(name: name, action: .close(.faultOffline))
        case .latency:
            return Injection(name: name, delay: .milliseconds(fault.latencyMs ?? 0))
        case .timeout:
            return Injection(name: name, action: .hold(.faultTimeout))
        case .commitThenFail:
            return Injection(name: name, action: .runThenClose(.faultCommitThenFail))
        case .status:
            var error = status(fault.status ?? 500, path: path, rule: .faultStatus)
            error.injectedCode = fault.code
            if let message = fault.message { error.detail.message = message }
            return Injection(name: name, action: .answer(error))
        case .body:
            return Injection(
                name: name,
                action: .body(
                    fault.body ?? "{}", status: fault.bodyStatus ?? 200, contentType: "application/json", .faultBody))
        case .jitter:
            // The wait is drawn in `injection(for:)`, where the draws are kept.
            return Injection(name: name, delay: .milliseconds(fault.latencyMs ?? 0))
        case .dribble:
            return Injection(name: name, action: .reshape(.dribble(.milliseconds(fault.dribbleMs ?? 0)), nil))
        case .reset:
            return Injection(name: name, action: .reshape(.reset, .faultReset))
        case .malformed:
            switch fault.malformed ?? .cut {
            case .cut: return Injection(name: "malformed_cut", action: .reshape(.cut, .faultMalformed))
            case .wrongType:
                return Injection(name: "malformed_wrong_type", action: .reshape(.wrongType, .faultMalformed))
            case .html:
                return Injection(
                    name: "malformed_html",
                    action: .body(
                        htmlErrorPage, status: htmlErrorStatus, contentType: "text/html; charset=utf-8", .faultMalformed
                    ))
            }
        }
    }

    private static func offline(rule: Rule) -> BackendError {
        BackendError(.serviceUnavailable, "offline", "No connection. Check your internet and try again.", rule: rule)
    }

    private static func status(_ code: Int, path: String, rule: Rule) -> BackendError {
        var error = BackendError(
            HTTPResponse.Status(code: code), "fault_injected", "Injected failure for \(path).", rule: rule)
        if code == 429 { error.detail.retryAfter = injectedRetryAfter }
        return error
    }
}

/// The random waits of `jitter` faults. Seeded (SplitMix64), the same seed gives the same waits in the same
/// order, so a test or a tape sees the same run twice; unseeded, the system's generator.
struct JitterDraws {
    private var state: UInt64?

    init(seed: UInt64? = nil) { state = seed }

    mutating func next(in range: ClosedRange<Int>) -> Int {
        guard var seeded = state else { return Int.random(in: range) }
        seeded &+= 0x9E37_79B9_7F4A_7C15
        state = seeded
        var mixed = seeded
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return range.lowerBound + Int(mixed % UInt64(range.count))
    }
}
