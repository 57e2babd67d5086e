import Foundation

/// The JSON the client collects and the authenticator's signature covers by its hash (WebAuthn §5.8.1).
public struct CollectedClientData: Equatable, Sendable, Decodable {
    public static let createType = "webauthn.create"
    public static let getType = "webauthn.get"

    public var type: String
    public var challenge: String
    public var origin: String
    public var crossOrigin: Bool?

    public init(json: [UInt8]) throws(WebAuthnError) {
        do { self = try JSONDecoder().decode(Self.self, from: Data(json)) } catch {
            throw .malformed("the client data is not the JSON WebAuthn collects")
        }
    }

    public init(type: String, challenge: [UInt8], origin: String) {
        self.type = type
        self.challenge = Base64URL.encode(challenge)
        self.origin = origin
        crossOrigin = false
    }

    /// Written in the order browsers write it (type, challenge, origin, crossOrigin), as the bytes that
    /// get hashed; the relying party never needs them to be in any order.
    public var json: [UInt8] {
        let escapedOrigin = origin.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        return Array(
            "{\"type\":\"\(type)\",\"challenge\":\"\(challenge)\",\"origin\":\"\(escapedOrigin)\",\"crossOrigin\":\(crossOrigin ?? false)}"
                .utf8)
    }
}
