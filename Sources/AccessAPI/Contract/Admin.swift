import Foundation

// Admin API of DESIGN §6; served by the reference backend only.

public struct ScenarioSummary: Codable, Sendable, Equatable {
    public var name: String
    public var description: String

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}

public struct LoadScenarioBody: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

public struct ScenarioLoaded: Codable, Sendable, Equatable {
    public var name: String
    public var userId: String
    public var now: Date

    public init(name: String, userId: String, now: Date) {
        self.name = name
        self.userId = userId
        self.now = now
    }
}

/// One SMS or email the backend "sent". The only place codes and links are readable.
public struct OutboxMessage: Codable, Sendable, Equatable {
    public var id: Int
    /// `sms` or `email`.
    public var channel: String
    public var to: String
    /// `otp` or `reauth_link`.
    public var kind: String
    public var purpose: String
    public var code: String?
    public var link: String?
    public var token: String?
    public var sentAt: Date

    public init(
        id: Int, channel: String, to: String, kind: String, purpose: String, code: String?, link: String?,
        token: String?, sentAt: Date
    ) {
        self.id = id
        self.channel = channel
        self.to = to
        self.kind = kind
        self.purpose = purpose
        self.code = code
        self.link = link
        self.token = token
        self.sentAt = sentAt
    }
}

public struct ClockState: Codable, Sendable, Equatable {
    public var now: Date
    public var frozen: Bool

    public init(now: Date, frozen: Bool) {
        self.now = now
        self.frozen = frozen
    }
}

/// `{"seconds": 30}` or `{"to": "next_deadline"}`.
public struct ClockAdvanceBody: Codable, Sendable, Equatable {
    public var seconds: Double?
    public var to: String?

    public init(seconds: Double? = nil, to: String? = nil) {
        self.seconds = seconds
        self.to = to
    }
}

/// Something that expired or reset while the clock moved.
public struct DeadlineEvent: Codable, Sendable, Equatable {
    public var at: Date
    /// e.g. `otp_expired`, `resend_cooldown_over`, `resend_slot_freed`, `daily_slot_freed`,
    /// `reauth_expired`, `link_expired`, `access_token_expired`.
    public var kind: String
    public var subject: String

    public init(at: Date, kind: String, subject: String) {
        self.at = at
        self.kind = kind
        self.subject = subject
    }
}

public struct ClockAdvanced: Codable, Sendable, Equatable {
    public var from: Date
    public var now: Date
    public var events: [DeadlineEvent]

    public init(from: Date, now: Date, events: [DeadlineEvent]) {
        self.from = from
        self.now = now
        self.events = events
    }
}

public struct PathFault: Codable, Sendable, Equatable {
    public var path: String
    public var status: Int

    public init(path: String, status: Int) {
        self.path = path
        self.status = status
    }
}

/// `POST /_admin/faults`: fields present replace the current setting; `DELETE` clears all.
public struct FaultSettings: Codable, Sendable, Equatable {
    /// `503` answers every non-admin path with 503; `drop` closes the connection without an answer.
    public var offline: String?
    public var latencyMs: Int?
    public var statuses: [PathFault]?

    public init(offline: String? = nil, latencyMs: Int? = nil, statuses: [PathFault]? = nil) {
        self.offline = offline
        self.latencyMs = latencyMs
        self.statuses = statuses
    }
}

public struct JournalEntry: Codable, Sendable, Equatable {
    public var at: Date
    public var method: String
    public var path: String
    public var status: Int
    public var ms: Double
    /// The rule that decided the answer, e.g. `otp.code_incorrect`, `rate_limit.cooldown`.
    public var rule: String

    public init(at: Date, method: String, path: String, status: Int, ms: Double, rule: String) {
        self.at = at
        self.method = method
        self.path = path
        self.status = status
        self.ms = ms
        self.rule = rule
    }
}

/// `POST /_admin/provider/{provider}/token`: the simulated Apple/Google sign-in sheet.
public struct ProviderTokenBody: Codable, Sendable, Equatable {
    /// Omitted: the provider account linked to the scenario's user.
    public var subject: String?

    public init(subject: String? = nil) {
        self.subject = subject
    }
}

public struct ProviderToken: Codable, Sendable, Equatable {
    public var provider: SocialProvider
    public var subject: String
    public var idToken: String
    public var expiresAt: Date

    public init(provider: SocialProvider, subject: String, idToken: String, expiresAt: Date) {
        self.provider = provider
        self.subject = subject
        self.idToken = idToken
        self.expiresAt = expiresAt
    }
}
