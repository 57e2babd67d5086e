import Foundation

/// `--fixture-accounts FILE`: accounts only the backend's owner can set up, for the checks that need one. A JSON
/// object, each member a role and the account that plays it:
///
///     {
///       "delete_blocked": {"phone": "+995591234567"},
///       "only_provider": {"provider": "apple", "access_token": "…"}
///     }
///
/// An account is signed into by a code to its `phone` or `email`, or is a session its owner signed in
/// (`access_token`). The file is read, never printed: a token in it stays out of every line conform writes.
public struct FixtureAccounts: Sendable, Equatable {
    public enum Role: String, CaseIterable, Sendable {
        /// Upcoming sessions, bookings or a pending balance stand in the way of deleting it: `delete.preflight_blocked`
        /// and `delete.blocked` (conform never deletes it).
        case deleteBlocked = "delete_blocked"
        /// Its only way to sign in is Apple or Google (`provider`), so it has a session but no code to sign in by:
        /// `disconnect.last_method` (whose check never disconnects it).
        case onlyProvider = "only_provider"
    }

    public enum Access: Sendable, Equatable {
        /// Signed into by a code to this phone number (`+…`) or email address.
        case signIn(String)
        /// A session its owner signed in.
        case session(accessToken: String)
    }

    public struct Account: Sendable, Equatable {
        public var access: Access
        /// `apple` or `google`, for `only_provider`.
        public var provider: String?
    }

    public var accounts: [Role: Account]

    public init(accounts: [Role: Account] = [:]) { self.accounts = accounts }

    /// What is wrong with a file, in one line that names members, never their values.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(json: Data) throws(Invalid) {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw Invalid(description: "not a JSON object of roles")
        }
        var accounts: [Role: Account] = [:]
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let role = Role(rawValue: name) else {
                let known = Role.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(description: "no role named '\(name)' (the roles: \(known))")
            }
            guard let members = value as? [String: Any] else { throw Invalid(description: "\(name): not an object") }
            let allowed: Set<String> =
                role == .onlyProvider ? ["access_token", "provider"] : ["phone", "email", "access_token"]
            if let extra = Set(members.keys).subtracting(allowed).sorted().first {
                throw Invalid(
                    description: "\(name): no member '\(extra)' (it takes \(allowed.sorted().joined(separator: ", ")))")
            }
            let ways = ["phone", "email", "access_token"].filter { (members[$0] as? String)?.isEmpty == false }
            guard ways.count == 1, let way = ways.first, let text = members[way] as? String else {
                throw Invalid(description: "\(name): give one of phone, email or access_token, as a string")
            }
            if way == "phone", !(text.hasPrefix("+") && text.dropFirst().allSatisfy(\.isNumber)) {
                throw Invalid(description: "\(name): phone is + and digits")
            }
            if way == "email", !text.contains("@") { throw Invalid(description: "\(name): email is not an address") }
            let provider = members["provider"] as? String
            if role == .onlyProvider, provider != "apple" && provider != "google" {
                throw Invalid(description: "\(name): provider is apple or google")
            }
            accounts[role] = Account(
                access: way == "access_token" ? .session(accessToken: text) : .signIn(text), provider: provider)
        }
        self.accounts = accounts
    }

    public subscript(role: Role) -> Account? { accounts[role] }
}
