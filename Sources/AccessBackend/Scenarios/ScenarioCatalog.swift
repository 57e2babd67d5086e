import AccessAPI
import AccessCore
import Foundation

/// Finds, reads and validates scenario files. Every problem names the file, the field and what is wrong.
struct ScenarioCatalog: Sendable {
    let directory: URL

    var scenariosDirectory: URL { directory.appendingPathComponent("scenarios") }

    func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    func summaries() throws -> [ScenarioSummary] {
        try names().map { ScenarioSummary(name: $0, description: try load($0).description) }
    }

    func load(_ name: String) throws -> Scenario {
        let file = scenariosDirectory.appendingPathComponent("\(name).json")
        guard names().contains(name) else {
            let available = names().joined(separator: ", ")
            throw ScenarioError(
                description: "unknown scenario \"\(name)\"; available: \(available.isEmpty ? "none" : available)")
        }
        let label = "fixtures/scenarios/\(name).json"
        let data = try Data(contentsOf: file)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ScenarioError(description: "\(label): not a JSON object")
        }
        try Self.rejectUnknownKeys(object, known: Scenario.knownKeys, at: "", label: label)
        if let user = object["user"] as? [String: Any] {
            try Self.rejectUnknownKeys(user, known: Scenario.personKeys, at: "user.", label: label)
        }
        for (index, other) in ((object["others"] as? [[String: Any]]) ?? []).enumerated() {
            try Self.rejectUnknownKeys(other, known: Scenario.personKeys, at: "others[\(index)].", label: label)
        }
        let scenario: Scenario
        do {
            scenario = try APIJSON.makeDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw ScenarioError(description: "\(label): \(JSONBody.describe(error))")
        }
        try validate(scenario, label: label)
        return scenario
    }

    private static func rejectUnknownKeys(
        _ object: [String: Any], known: Set<String>, at prefix: String, label: String
    )
        throws
    {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            let allowed = known.sorted().joined(separator: ", ")
            throw ScenarioError(description: "\(label): \(prefix)\(unknown): unknown field (allowed: \(allowed))")
        }
    }

    private func validate(_ scenario: Scenario, label: String) throws {
        func fail(_ field: String, _ problem: String) -> ScenarioError {
            ScenarioError(description: "\(label): \(field): \(problem)")
        }
        var ids: Set<String> = []
        var phones: Set<String> = []
        var emails: Set<String> = []
        let people = [("user", scenario.user)] + (scenario.others ?? []).enumerated().map { ("others[\($0)]", $1) }
        for (field, person) in people {
            guard !person.id.isEmpty, ids.insert(person.id).inserted else {
                throw fail("\(field).id", "must be non-empty and unique")
            }
            if let phone = person.phone {
                guard PhoneNumberRules.normalizeE164(phone) == phone else {
                    throw fail(
                        "\(field).phone", "\"\(phone)\" is not E.164 with the country's length (e.g. +995511100000)")
                }
                guard phones.insert(phone).inserted else { throw fail("\(field).phone", "used by two people") }
            }
            if let email = person.email {
                guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
                    throw fail("\(field).email", "\"\(email)\" is not an email address")
                }
                guard emails.insert(email.lowercased()).inserted else {
                    throw fail("\(field).email", "used by two people")
                }
            }
            if person.password != nil, person.email == nil {
                throw fail("\(field).password", "a password needs an email (seed 000: no password without email)")
            }
            if let days = person.passwordChangedDaysAgo, days < 0 || person.password == nil {
                throw fail("\(field).password_changed_days_ago", "needs a password and a value >= 0")
            }
        }
        if scenario.user.signInMethods.count == 0 {
            throw fail("user", "has no sign-in method (phone, email, apple_linked or google_linked)")
        }
        for (index, send) in (scenario.otpSends ?? []).enumerated() {
            guard PhoneNumberRules.normalizeE164(send.phone) == send.phone else {
                throw fail("otp_sends[\(index)].phone", "\"\(send.phone)\" is not E.164")
            }
            guard send.secondsAgo >= 0 else { throw fail("otp_sends[\(index)].seconds_ago", "must be >= 0") }
        }
        for (phone, code) in scenario.testCodes ?? [:] {
            guard PhoneNumberRules.normalizeE164(phone) == phone else {
                throw fail("test_codes", "key \"\(phone)\" is not E.164")
            }
            guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("test_codes.\(phone)", "must be 6 digits")
            }
        }
    }
}

extension Scenario.Person {
    var signInMethods: SignInMethods {
        SignInMethods(
            phone: phone != nil, email: email != nil, apple: appleLinked == true, google: googleLinked == true)
    }
}
