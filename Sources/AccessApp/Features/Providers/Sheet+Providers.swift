import AccessAPI

extension Sheet {
    /// Seed 001's disconnect sheet; `then` is "Verify it's you" or, inside its window, the flow itself.
    static func disconnect(_ provider: SocialProvider, then: [Command]) -> Sheet {
        let name = provider.displayName
        return Sheet(
            title: "Disconnect \(name)?",
            body: "You'll no longer be able to sign in with \(name). You can reconnect it later at any time.",
            actions: [(.init("Disconnect", isDestructive: true), then), (.init("Cancel"), [])])
    }

    /// The hard block (seed 001): the provider is the only sign-in method, so there is no override.
    static func cantDisconnect(_ provider: SocialProvider) -> Sheet {
        let name = provider.displayName
        return Sheet(
            title: "Can't disconnect \(name)",
            body:
                "This is your only sign-in method. Add a phone number, email, or another provider first — then you can disconnect \(name).",
            actions: [(.init("Got it"), [])])
    }

    static var providersGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:disconnect-google", "Disconnect Google? (other methods remain)") {
                ProvidersGallery.hubSheet(.google, methods: SampleData.everyMethod, now: $0)
            },
            GalleryEntry("hub:disconnect-apple", "Disconnect Apple? (other methods remain)") {
                ProvidersGallery.hubSheet(.apple, methods: SampleData.everyMethod, now: $0)
            },
            GalleryEntry("hub:cant-disconnect-apple", "Hard block: Apple is the only sign-in method") {
                ProvidersGallery.hubSheet(.apple, methods: SampleData.appleOnly, now: $0)
            },
            GalleryEntry("hub:cant-disconnect-google", "Hard block: Google is the only sign-in method") {
                ProvidersGallery.hubSheet(.google, methods: ProvidersGallery.googleOnly, now: $0)
            },
        ]
    }
}
