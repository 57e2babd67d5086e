// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "AccessDeck",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "accessdeck", targets: ["accessdeck"])
    ],
    // Every direct dependency at an exact version: an application builds from known versions. The
    // resolved graph (Package.resolved) is not committed: this machine's package mirror has commit ids
    // of its own, so a resolved file from here would break a clone elsewhere (docs/decisions).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // The proxy's trust roots for an https upstream (`--upstream-ca`); async-http-client's TLS already.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // bcrypt for stored passwords (HummingbirdBcrypt only: a C bcrypt, no other dependency).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Only scripts/generate-openapi.sh builds it: no target uses its plugin.
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", exact: "1.5.0"),
    ],
    targets: [
        // Domain: no I/O.
        .target(
            name: "AccessCore",
            // Crypto for the authenticator codes' HMAC (TOTP), which app and backend share.
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Resources/common-passwords.txt")]),
        // Contract types and the HTTP client.
        .target(
            name: "AccessAPI",
            dependencies: [
                "AccessCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // GeneratedSources/ is swift-openapi-generator's output for openapi.yaml and GeneratedGlue/ the glue
            // scripts/generate-glue.py writes from it, both committed: scripts/generate-openapi.sh
            // (`make generate`) regenerates them (docs/decisions/0001).
            exclude: ["openapi-generator-config.yaml", "openapi-glue-config.yaml", "GeneratedSources/openapi.stamp"],
            resources: [.copy("openapi.yaml")]
        ),
        // Reference backend.
        .target(
            name: "AccessBackend",
            dependencies: [
                "AccessCore", "AccessAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `accessdeck conform`: checks any backend against the rules of docs/RULES.md over HTTP (issue 32).
        .target(
            name: "AccessConform",
            dependencies: [
                // TerminalKit for `ControlCharacters`: the report escapes what a backend sent as the screen does.
                "AccessAPI", "AccessCore", "ChildProcess", "TerminalKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // `accessdeck proxy`: forwards an app's traffic to a backend and checks it against the contract and the
        // rules (issue 52). It listens through the reference backend's front door (`FrontDoor`, `FrontGate`).
        .target(
            name: "AccessProxy",
            dependencies: [
                // TerminalKit for its XML text (the JUnit report), as conform's.
                "AccessBackend", "AccessAPI", "AccessCore", "TerminalKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // The keyed digests the rule watchers keep in place of tokens and destinations.
                .product(name: "Crypto", package: "swift-crypto"),
                // `--upstream-ca`: the certificates the proxy trusts for an https upstream.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Cell grid, widths, themes, components: knows nothing of ncurses or auth.
        .target(name: "TerminalKit"),
        // Child processes by posix_spawn: Foundation's Process.run() crashes now and then on Linux.
        .target(name: "ChildProcess"),
        // Text snapshots of rendered grids for the test targets.
        .target(name: "SnapshotSupport", dependencies: ["TerminalKit"]),
        .systemLibrary(name: "CNcursesw"),
        // libqrencode (Debian's libqrencode-dev), for the two-factor set-up's QR code.
        .systemLibrary(name: "CQRencode"),
        // A text's QR code modules, from libqrencode; TerminalKit's QRCodeBlock draws them.
        .target(name: "QRCode", dependencies: ["CQRencode"]),
        // The only code that calls ncurses.
        .target(name: "CursesDriver", dependencies: ["TerminalKit", "CNcursesw"]),
        .target(
            // AccessConform for the palette's "Run conformance" (issue 32): it has no ncurses.
            name: "AccessApp",
            dependencies: [
                "TerminalKit", "AccessAPI", "AccessCore", "QRCode", "AccessConform",
                // A world switch makes the world's client, quiet as the start's (issue 33).
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]),
        // The app's test kit (ReducerHarness and the helpers of reducer tests, ManualClock). Only test targets
        // depend on it; it uses AccessApp's public API alone, so it builds in a release build too.
        .target(name: "AccessAppTesting", dependencies: ["AccessApp", "AccessAPI", "SnapshotSupport"]),
        // The backend's test kit (TestBackend, Reply, RawHTTP, Probe, FromAddress, the re-auth grants): a real
        // reference backend on 127.0.0.1 with a temporary SQLite file and a frozen clock, and the raw sockets
        // for what no HTTP client sends. Only test targets depend on it; it uses AccessBackend's public API.
        .target(
            name: "AccessBackendTesting",
            dependencies: [
                "AccessBackend", "AccessAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "accessdeck",
            dependencies: [
                "AccessApp", "CursesDriver", "AccessBackend", "AccessAPI", "TerminalKit", "ChildProcess",
                "AccessConform", "AccessProxy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `make bench`: the client's latency over loopback.
        .executableTarget(
            name: "accessdeck-bench",
            dependencies: [
                "AccessAPI", "AccessBackend", "AccessApp", "CursesDriver", "TerminalKit", "AccessProxy",
                .product(name: "Logging", package: "swift-log"),
                // The proxy's added latency is measured with a client of its own.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // ChildProcess and Crypto: the WebAuthn checks against python-fido2 (WebAuthnCrossCheckTests).
        .testTarget(
            name: "AccessCoreTests",
            dependencies: ["AccessCore", "ChildProcess", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "TerminalKitTests",
            // QRCode and AccessCore for the QR code of an otpauth URI, exported and read back by zbarimg.
            dependencies: ["TerminalKit", "SnapshotSupport", "ChildProcess", "QRCode", "AccessCore"],
            exclude: ["__Snapshots__"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "ChildProcess"]),
        .testTarget(name: "CursesDriverTests", dependencies: ["CursesDriver", "TerminalKit"]),
        .testTarget(
            name: "AccessAppTests",
            dependencies: [
                "AccessApp", "AccessAppTesting", "TerminalKit", "AccessAPI", "SnapshotSupport",
                // The world switch against a real reference backend with worlds (WorldSwitchLiveTests).
                "AccessBackend", "AccessBackendTesting",
            ],
            exclude: ["__Snapshots__"]),
        .testTarget(
            name: "AccessAPITests",
            dependencies: [
                "AccessAPI", "AccessBackend", "AccessBackendTesting", "AccessCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AccessBackendTests",
            dependencies: [
                "AccessBackend", "AccessBackendTesting", "AccessAPI", "AccessCore",
                // TwoFactorOathtoolTests runs Debian's oathtool.
                "ChildProcess",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Secrets-at-rest tests read the database and recompute its HMACs.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Databases made by an earlier accessdeck, which MainFixtureTests migrates.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "AccessConformTests",
            dependencies: ["AccessConform", "AccessBackend", "AccessBackendTesting", "AccessCore", "ChildProcess"]),

        .testTarget(
            name: "AccessProxyTests",
            dependencies: [
                "AccessProxy", "AccessBackend", "AccessBackendTesting", "AccessAPI", "AccessCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The backend doubles are Hummingbird applications stopped through their service group.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The https upstream double and its test certificate.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // Fixtures/: the https upstream double's test-only certificate and key, read by path.
            exclude: ["Fixtures"]),
        // AccessCore for TOTP: `accessdeck totp` checked against oathtool with random secrets.
        .testTarget(name: "EndToEndTests", dependencies: ["ChildProcess", "AccessCore"]),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),
    ]
)
