import AccessAPI

/// Ends this device's session on the server; any answer (none, a 5xx, a 401) still signs out here.
struct Logout: APIRequest {
    func perform(_ api: APIContext) async throws -> Acknowledged {
        try await api.client.logout()
        return Acknowledged()
    }
}
