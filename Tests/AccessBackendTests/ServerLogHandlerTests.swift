import AccessBackend
import Logging
import Synchronization
import Testing

/// `accessdeck serve`'s handler writes the lines swift-log's `StreamLogHandler` writes for the same logger and
/// message; it only formats its metadata later.
@Suite struct ServerLogHandlerTests {
    final class Lines: TextOutputStream, Sendable {
        private let text = Mutex("")

        func write(_ string: String) { text.withLock { $0 += string } }

        /// Each line without its timestamp (the first word), which two handlers may write a second apart.
        var withoutTimestamps: [String] {
            text.withLock { $0 }.split(separator: "\n").map { String($0.drop { $0 != " " }) }
        }
    }

    /// Logs the same things through a `StreamLogHandler` and through a `ServerLogHandler` over one, and expects
    /// both to write `expected`.
    private func expectBothWrite(
        _ expected: [String], provider: Logger.MetadataProvider? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ use: (inout Logger) -> Void
    ) {
        let (plain, deferred) = (Lines(), Lines())
        var streamLogger = Logger(label: "serve") {
            StreamLogHandler(label: $0, stream: plain, metadataProvider: provider)
        }
        var serverLogger = Logger(label: "serve") {
            ServerLogHandler(StreamLogHandler(label: $0, stream: deferred, metadataProvider: provider))
        }
        use(&streamLogger)
        use(&serverLogger)
        #expect(deferred.withoutTimestamps == expected, sourceLocation: sourceLocation)
        #expect(plain.withoutTimestamps == expected, sourceLocation: sourceLocation)
    }

    @Test func aMessageWithoutMetadataIsTheSameLine() {
        expectBothWrite([" warning serve: [AccessBackendTests] listening"]) { logger in logger.warning("listening") }
    }

    @Test func theLoggersMetadataIsWrittenSortedAsStreamLogHandlerWritesIt() {
        expectBothWrite([" error serve: a=first hb.request.id=42 [AccessBackendTests] unhandled error"]) { logger in
            logger[metadataKey: "hb.request.id"] = "42"
            logger[metadataKey: "a"] = "first"
            logger.error("unhandled error")
        }
    }

    @Test func aMessagesOwnMetadataWinsOverTheLoggers() {
        expectBothWrite([" error serve: path=/message type=E [AccessBackendTests] could not open a world"]) { logger in
            logger[metadataKey: "path"] = "/logger"
            logger.error("could not open a world", metadata: ["path": "/message", "type": "E"])
        }
    }

    @Test func aProvidersMetadataWinsOverTheLoggersAndLosesToTheMessages() {
        let provider = Logger.MetadataProvider { ["path": "/provider", "trace": "t1"] }
        expectBothWrite(
            [" error serve: path=/provider trace=t2 user=u [AccessBackendTests] failed"], provider: provider
        ) { logger in
            logger[metadataKey: "path"] = "/logger"
            logger[metadataKey: "user"] = "u"
            logger.error("failed", metadata: ["trace": "t2"])
        }
    }

    @Test func theLevelStillFilters() {
        expectBothWrite([" warning serve: hb.request.id=7 [AccessBackendTests] kept"]) { logger in
            logger.logLevel = .warning
            logger[metadataKey: "hb.request.id"] = "7"
            logger.info("start-up chatter")
            logger.warning("kept")
        }
    }

    @Test func removedMetadataIsNotWritten() {
        expectBothWrite([" warning serve: [AccessBackendTests] kept"]) { logger in
            logger[metadataKey: "hb.request.id"] = "7"
            logger[metadataKey: "hb.request.id"] = nil
            logger.warning("kept")
        }
    }
}
