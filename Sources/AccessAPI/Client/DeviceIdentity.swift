import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This installation as seed 004's device registration describes it: a stable identifier and a
/// Curve25519 key pair made on first run. The private key never leaves `device.json` (0600 in the
/// 0700 state folder); sign-ins carry the identifier and the public key. A terminal has no push
/// tokens, so none are sent.
public struct DeviceIdentity: Sendable {
    public let identifier: String
    let privateKey: Curve25519.KeyAgreement.PrivateKey

    public var publicKeyBase64: String { privateKey.publicKey.rawRepresentation.base64EncodedString() }

    /// What a sign-in sends: the name, system and version read from the machine (`uname`).
    public var info: DeviceInfo {
        let system = Self.uname()
        return DeviceInfo(
            deviceName: system.host.isEmpty ? "Terminal" : "Terminal on \(system.host.prefix(80))",
            systemName: system.name.isEmpty ? "Unknown" : String(system.name.prefix(50)),
            systemVersion: system.release.isEmpty ? "0" : String(system.release.prefix(50)),
            identifier: identifier, publicKey: publicKeyBase64)
    }

    /// A fresh identity that is kept nowhere: the embedded backend's tests and `render`.
    public static func ephemeral() -> DeviceIdentity {
        DeviceIdentity(identifier: newIdentifier(), privateKey: Curve25519.KeyAgreement.PrivateKey())
    }

    /// `device.json` in the state folder: one installation, whatever backend it talks to.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        SessionStore.stateFolder(environment: environment)
            .appendingPathComponent("device.json")
    }

    /// The identity kept at `fileURL`, made and saved on first use. A damaged file is replaced (the
    /// server then sees a new device); a file that cannot be written leaves an identity for this run only.
    public static func loadOrCreate(at fileURL: URL) -> DeviceIdentity {
        if let data = FileManager.default.contents(atPath: fileURL.path),
            let stored = try? JSONDecoder().decode(Stored.self, from: data),
            let keyData = Data(base64Encoded: stored.privateKey),
            let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: keyData)
        {
            return DeviceIdentity(identifier: stored.identifier, privateKey: key)
        }
        let identity = ephemeral()
        let stored = Stored(
            identifier: identity.identifier, privateKey: identity.privateKey.rawRepresentation.base64EncodedString())
        if let data = try? JSONEncoder().encode(stored) { try? PrivateStateFile.write(data, to: fileURL) }
        return identity
    }

    private struct Stored: Codable {
        var identifier: String
        var privateKey: String
    }

    private static func newIdentifier() -> String {
        "dev_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    private static func uname() -> (name: String, release: String, host: String) {
        var names = utsname()
        guard Glibc.uname(&names) == 0 else { return ("", "", "") }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return (text(names.sysname), text(names.release), text(names.nodename))
    }
}
