import AccessAPI

// The backend calls of onboarding's steps.

struct LoadProfile: APIRequest {
    func perform(_ api: APIContext) async throws -> Profile { try await api.client.getProfile() }
}

struct CheckUsernameAvailability: APIRequest {
    var username: String
    func perform(_ api: APIContext) async throws -> UsernameAvailability {
        try await api.client.usernameAvailable(username: username)
    }
}

struct UpdateProfile: APIRequest {
    var username: String
    var photo: String?
    func perform(_ api: APIContext) async throws -> Profile {
        try await api.client.updateProfile(username: username, photo: photo)
    }
}

struct SetRecoveryEmail: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> Profile {
        try await api.client.setRecoveryEmail(email: email, password: password.value)
    }
}

struct ContinueOnboarding: APIRequest {
    var from: OnboardingStep
    func perform(_ api: APIContext) async throws -> Profile { try await api.client.continueOnboarding(from: from) }
}
