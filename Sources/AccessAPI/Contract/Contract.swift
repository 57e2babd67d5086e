import Foundation

// Every type the contract exchanges is generated from openapi.yaml into `Components.Schemas`
// (swift-openapi-generator), and known by its own name through GeneratedGlue/Aliases.swift
// (scripts/generate-glue.py), so a field added to the document reaches app and backend without a
// hand-written copy. Here: what the contract's types do besides.

/// A response field the contract marks extensible: `anyOf` its enum and any string, which
/// swift-openapi-generator turns into a struct holding the known case (`value1`) and the string
/// (`value2`). A value this client does not know decodes (`known` is nil, `rawValue` keeps it)
/// instead of failing the whole answer; every screen that reads one says what it does with an unknown
/// value. Requests keep the closed enums.
public protocol ExtensibleEnum: Hashable, Sendable {
    associatedtype Known: RawRepresentable, Sendable where Known.RawValue == String
    var value1: Known? { get }
    var value2: String? { get }
    init(value1: Known?, value2: String?)
}

extension ExtensibleEnum {
    /// Both members set, as decoding a known value sets them, so the two compare equal.
    public init(_ known: Known) { self.init(value1: known, value2: known.rawValue) }
    public init(rawValue: String) { self.init(value1: Known(rawValue: rawValue), value2: rawValue) }
    /// nil for a value this client does not know.
    public var known: Known? { value1 }
    public var rawValue: String { value1?.rawValue ?? value2 ?? "" }
}

extension Components.Schemas.AuthMethods.RolePayload: ExtensibleEnum {}
extension Components.Schemas.SignInChallenge.ChannelPayload: ExtensibleEnum {}
extension Components.Schemas.DeleteBlocker.KindPayload: ExtensibleEnum {}
extension Components.Schemas.OTPRequestAccepted.PurposePayload: ExtensibleEnum {}
extension Components.Schemas.VerifyOTPResult.PurposePayload: ExtensibleEnum {}
extension Components.Schemas.ReauthGrant.MethodPayload: ExtensibleEnum {}
extension Components.Schemas.LinkInfo.KindPayload: ExtensibleEnum {}
extension Components.Schemas.LinkInfo.StatePayload: ExtensibleEnum {}
extension Components.Schemas.Profile.OnboardingStepPayload: ExtensibleEnum {}
extension Components.Schemas.Profile.OnboardingNextStepPayload: ExtensibleEnum {}
extension Components.Schemas.Profile.AccessPayload: ExtensibleEnum {}
extension Components.Schemas.Profile.AssuranceLevelPayload: ExtensibleEnum {}
extension Components.Schemas.SignedIn.AssuranceLevelPayload: ExtensibleEnum {}

extension HealthStatus {
    public init() { self.init(status: .ok) }
}

extension OTPCancelled {
    public init(requestId: String) { self.init(requestId: requestId, status: .cancelled) }
}

extension ErrorCode {
    /// The phone or email belongs to another account.
    public var isTaken: Bool { self == .phoneTaken || self == .emailTaken || self == .usernameTaken }

    /// The input itself is malformed (as opposed to well-formed but refused, like `phone_unchanged`,
    /// which a screen words on its own or shows with the server's message).
    public var isMalformedInput: Bool {
        switch self {
        case .badRequest, .phoneInvalid, .invalidEmail, .passwordInvalid, .invalidField, .invalidParameter,
            .usernameInvalid:
            true
        default: false
        }
    }
}

extension AuthMethods {
    /// Properties the contract requires but allows to be null. The generated encoder leaves a nil
    /// out (swift-openapi-generator issue 934), so the server puts them back as explicit `null`.
    public static let explicitNullKeys = [CodingKeys.phone.rawValue, CodingKeys.email.rawValue]

    /// Keys that tell an AuthMethods object apart inside any answer (top level or nested).
    static let identifyingKeys = [
        CodingKeys.userId.rawValue, CodingKeys.hasPassword.rawValue, CodingKeys.appleLinked.rawValue,
        CodingKeys.googleLinked.rawValue,
    ]

    /// `json` with every AuthMethods object in it carrying `"phone"` and `"email"`, `null` when unset.
    /// One pass over the bytes that notes each object's keys and splices the missing ones in after its
    /// `{`: parsing into Foundation objects and serializing them again cost more than the rest of a
    /// GET /me/auth-methods. Input that is not well-formed JSON comes back unchanged.
    public static func withExplicitNulls(_ json: Data) -> Data {
        let bytes = [UInt8](json)
        // Each object's keys as bits of `watchedKeys`, the only ones that matter here: a set of every key's
        // bytes cost an allocation and a hash per key (issue 34 item 2).
        var objects: [(open: Int, keys: UInt8)] = []
        // One entry per open container: true for an object, whose next string may be a key.
        var containers: [Bool] = []
        var expectingKey = false
        var insertions: [(offset: Int, text: [UInt8])] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return json }
                if expectingKey, containers.last == true {
                    let key = bytes[start..<index]
                    if let bit = watchedKeys.firstIndex(where: { $0.elementsEqual(key) }) {
                        objects[objects.count - 1].keys |= 1 << bit
                    }
                    expectingKey = false
                }
            case UInt8(ascii: "{"):
                containers.append(true)
                objects.append((index, 0))
                expectingKey = true
            case UInt8(ascii: "["):
                containers.append(false)
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = containers.last == true
            case UInt8(ascii: "}"):
                guard containers.popLast() == true, let object = objects.popLast() else { return json }
                if object.keys & identifyingMask == identifyingMask, object.keys & nullableMask != nullableMask {
                    var text: [UInt8] = []
                    for (bit, key) in explicitNullKeys.enumerated() where object.keys & (1 << bit) == 0 {
                        text.append(contentsOf: "\"\(key)\":null,".utf8)
                    }
                    insertions.append((object.open + 1, text))
                }
                expectingKey = false
            case UInt8(ascii: "]"):
                guard containers.popLast() == false else { return json }
            default:
                break
            }
            index += 1
        }
        guard containers.isEmpty, !insertions.isEmpty else { return json }
        var fixed = Data()
        fixed.reserveCapacity(bytes.count + insertions.count * 32)
        var copied = 0
        for insertion in insertions.sorted(by: { $0.offset < $1.offset }) {
            fixed.append(contentsOf: bytes[copied..<insertion.offset])
            fixed.append(contentsOf: insertion.text)
            copied = insertion.offset
        }
        fixed.append(contentsOf: bytes[copied...])
        return fixed
    }

    /// `explicitNullKeys` then `identifyingKeys`, as bytes: bit n of an object's keys is the n-th.
    private static let watchedKeys = (explicitNullKeys + identifyingKeys).map { Array($0.utf8) }
    private static let nullableMask = UInt8((1 << explicitNullKeys.count) - 1)
    private static let identifyingMask = UInt8((1 << watchedKeys.count) - 1) & ~nullableMask
}

/// One SMS or email the reference backend "sent". The only place codes and links are readable.
/// Channel and kind stay strings for the screens (which print them); `outboxChannel` and
/// `outboxKind` are the contract's enums for code that decides on them.
public struct OutboxMessage: Sendable, Equatable {
    public var id: Int
    /// `sms` or `email` (`OutboxChannel`).
    public var channel: String
    public var to: String
    /// `otp` or `reauth_link` (`OutboxKind`).
    public var kind: String
    public var purpose: String
    public var code: String?
    public var link: String?
    public var token: String?
    public var sentAt: Date
    /// Whether the code or link still works, as the backend judged it when the outbox was read.
    public var status: OutboxStatus
    /// The SMS's text or the email's body as the customer received it; a refused send's refusal.
    public var text: String
    /// An email's subject line.
    public var subject: String?
    /// A refused send (`send_refused`): the limit that refused it, and when it lets one through again.
    public var limit: RateLimitKind?
    public var retryAt: Date?

    public init(
        id: Int, channel: String, to: String, kind: String, purpose: String, code: String?, link: String?,
        token: String?, sentAt: Date, status: OutboxStatus, text: String = "", subject: String? = nil,
        limit: RateLimitKind? = nil, retryAt: Date? = nil
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
        self.status = status
        self.text = text
        self.subject = subject
        self.limit = limit
        self.retryAt = retryAt
    }

    public init(_ wire: Components.Schemas.OutboxMessage) {
        self.init(
            id: wire.id, channel: wire.channel.rawValue, to: wire.to, kind: wire.kind.rawValue, purpose: wire.purpose,
            code: wire.code, link: wire.link, token: wire.token, sentAt: wire.sentAt,
            status: wire.status, text: wire.text, subject: wire.subject, limit: wire.limit, retryAt: wire.retryAt)
    }

    public var outboxChannel: OutboxChannel? { OutboxChannel(rawValue: channel) }
    public var outboxKind: OutboxKind? { OutboxKind(rawValue: kind) }

    /// nil when the channel or kind is not one the contract knows.
    public var wire: Components.Schemas.OutboxMessage? {
        guard let outboxChannel, let outboxKind else { return nil }
        return .init(
            id: id, channel: outboxChannel, to: to, kind: outboxKind, purpose: purpose, code: code, link: link,
            token: token, sentAt: sentAt, status: status, text: text, subject: subject, limit: limit, retryAt: retryAt)
    }
}
