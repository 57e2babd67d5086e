import AccessCore
import Foundation
import Testing

@testable import AccessAPI

/// Issue 53 item 2: this device's passkeys in a 0600 file beside `device.json`, each counter kept before its
/// signature is handed out, and a damaged file never overwritten.
@Suite struct DevicePasskeyStoreTests {
    static let rp = PasskeyRelyingParty.referenceID
    static let origin = PasskeyRelyingParty.origin(of: PasskeyRelyingParty.referenceID)

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func made(_ name: String = "ana@mail.com") -> DevicePasskey {
        SoftwareAuthenticator.create(
            rpID: Self.rp, origin: Self.origin, challenge: Array(repeating: 7, count: 32),
            userHandle: Array(name.utf8), userName: name
        ).passkey
    }

    @Test func itLivesBesideTheDeviceFile() {
        let environment = ["XDG_STATE_HOME": "/tmp/state"]
        #expect(
            DevicePasskeyStore.defaultLocation(environment: environment).deletingLastPathComponent()
                == DeviceIdentity.defaultLocation(environment: environment).deletingLastPathComponent())
        #expect(DevicePasskeyStore.defaultLocation(environment: environment).lastPathComponent == "passkeys.json")
    }

    @Test func aPasskeyAddedIsThereAfterARestartInA0600File() throws {
        let file = try folder().appendingPathComponent("passkeys.json")
        let passkey = made()
        try DevicePasskeyStore.load(at: file).add(passkey)

        let reloaded = DevicePasskeyStore.load(at: file)
        #expect(reloaded.passkeys == [passkey])
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anAnswerCountsAndTheCountIsKeptBeforeItIsGiven() throws {
        let file = try folder().appendingPathComponent("passkeys.json")
        let passkey = made()
        let store = DevicePasskeyStore.load(at: file)
        try store.add(passkey)

        let first = try #require(
            try store.answer(credentialID: passkey.credentialID, origin: Self.origin, challenge: [1, 2, 3]))
        let second = try #require(
            try store.answer(credentialID: passkey.credentialID, origin: Self.origin, challenge: [4, 5, 6]))
        #expect(try AuthenticatorData(bytes: first.authenticatorData).signCount == 1)
        #expect(try AuthenticatorData(bytes: second.authenticatorData).signCount == 2)
        #expect(DevicePasskeyStore.load(at: file).passkey(credentialID: passkey.credentialID)?.signCount == 2)
    }

    @Test func aPasskeyThisDeviceDoesNotHoldIsNoAnswer() throws {
        let store = DevicePasskeyStore.ephemeral([made()])
        #expect(try store.answer(credentialID: [9, 9, 9], origin: Self.origin, challenge: [1]) == nil)
    }

    @Test func onlyTheRelyingPartysPasskeysAreOffered() throws {
        let ours = made()
        var theirs = made("bo@mail.com")
        theirs.rpID = "example.com"
        let store = DevicePasskeyStore.ephemeral([ours, theirs])
        #expect(store.passkeys(forRP: Self.rp) == [ours])
    }

    @Test func aReplacementTouchesOnlyItsRelyingParty() throws {
        let file = try folder().appendingPathComponent("passkeys.json")
        var theirs = made("bo@mail.com")
        theirs.rpID = "example.com"
        let store = DevicePasskeyStore.load(at: file)
        try store.add(made())
        try store.add(theirs)
        let scenario = made("usr_passkey")
        try store.replace(forRP: Self.rp, with: [scenario])
        #expect(DevicePasskeyStore.load(at: file).passkeys == [theirs, scenario])
    }

    @Test func removedIsGoneAfterARestart() throws {
        let file = try folder().appendingPathComponent("passkeys.json")
        let kept = made()
        let removed = made("bo@mail.com")
        let store = DevicePasskeyStore.load(at: file)
        try store.add(kept)
        try store.add(removed)
        try store.remove(credentialID: removed.credentialID)
        #expect(DevicePasskeyStore.load(at: file).passkeys == [kept])
    }

    @Test func aResetCounterStartsAgainFromOne() throws {
        let passkey = made()
        let store = DevicePasskeyStore.ephemeral([passkey])
        _ = try store.answer(credentialID: passkey.credentialID, origin: Self.origin, challenge: [1])
        _ = try store.answer(credentialID: passkey.credentialID, origin: Self.origin, challenge: [2])
        try store.resetSignCount(credentialID: passkey.credentialID)
        let answer = try #require(
            try store.answer(credentialID: passkey.credentialID, origin: Self.origin, challenge: [3]))
        #expect(try AuthenticatorData(bytes: answer.authenticatorData).signCount == 1)
    }

    @Test func aDamagedFileIsLeftAsItWasAndNothingIsWrittenOverIt() throws {
        let file = try folder().appendingPathComponent("passkeys.json")
        let damaged = Data("{\"passkeys\": [{\"credentialID\": ".utf8)
        try damaged.write(to: file)

        let store = DevicePasskeyStore.load(at: file)
        #expect(store.isDamaged)
        #expect(store.passkeys.isEmpty)
        try store.add(made())
        #expect(FileManager.default.contents(atPath: file.path) == damaged)
        #expect(store.passkeys.count == 1)
    }

    @Test func aChangeThatCannotBeWrittenIsNotMade() throws {
        // A folder where the file should be: the rename over it fails.
        let file = try folder().appendingPathComponent("passkeys.json")
        try FileManager.default.createDirectory(
            at: file.appendingPathComponent("occupied"), withIntermediateDirectories: true)
        let store = DevicePasskeyStore.load(at: file)
        #expect(throws: DevicePasskeyStore.WriteError.self) { try store.add(made()) }
        #expect(store.passkeys.isEmpty)
    }

    @Test func noDescriptionOfThePasskeysShowsAKey() throws {
        let passkey = made()
        let file = try folder().appendingPathComponent("passkeys.json")
        try DevicePasskeyStore.load(at: file).add(passkey)
        let stored = try #require(FileManager.default.contents(atPath: file.path))
        // The key is in the file (it must be, to sign after a restart) but in no description of the value.
        #expect(stored.count > 0)
        var dumped = ""
        dump(DevicePasskeyStore.load(at: file).passkeys, to: &dumped)
        let described = "\(passkey) \(String(reflecting: passkey)) \(dumped)"
        let stored32 = try JSONSerialization.jsonObject(with: stored) as? [String: Any]
        let firstKey = ((stored32?["passkeys"] as? [[String: Any]])?.first?["privateKey"] as? [Int]) ?? []
        #expect(firstKey.count == 32)
        #expect(!described.contains(firstKey.map(String.init).joined(separator: ", ")))
    }
}
