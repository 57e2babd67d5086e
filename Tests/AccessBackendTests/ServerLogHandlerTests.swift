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

    /// The same things logged through a `StreamLogHandler` and through a `ServerLogHandler` over one.
    private func bothWrite(_ use: (inout Logger) -> Void) -> (stream: [String], server: [String]) {
        let (plain, deferred) = (Lines(), Lines())
        var streamLogger = Logger(label: "serve") { StreamLogHandler(label: $0, stream: plain, metadataProvider: nil) }
        var serverLogger = Logger(label: "serve") {
            ServerLogHandler(StreamLogHandler(label: $0, stream: deferred, metadataProvider: nil))
        }
        use(&streamLogger)
        use(&serverLogger)
        return (plain.withoutTimestamps, deferred.withoutTimestamps)
    }

    @Test func aMessageWithoutMetadataIsTheSameLine() {
        let lines = bothWrite { logger in logger.warning("listening") }
        #expect(lines.server == [" warning serve: [AccessBackendTests] listening"])
        #expect(lines.server == lines.stream)
    }

    @Test func theLoggersMetadataIsWrittenSortedAsStreamLogHandlerWritesIt() {
        let lines = bothWrite { logger in
            logger[metadataKey: "hb.request.id"] = "42"
            logger[metadataKey: "a"] = "first"
            logger.error("unhandled error")
        }
        #expect(lines.server == [" error serve: a=first hb.request.id=42 [AccessBackendTests] unhandled error"])
        #expect(lines.server == lines.stream)
    }

    @Test func aMessagesOwnMetadataWinsOverTheLoggers() {
        let lines = bothWrite { logger in
            logger[metadataKey: "path"] = "/logger"
            logger.error("could not open a world", metadata: ["path": "/message", "type": "E"])
        }
        #expect(lines.server == [" error serve: path=/message type=E [AccessBackendTests] could not open a world"])
        #expect(lines.server == lines.stream)
    }

    @Test func theLevelStillFilters() {
        let lines = bothWrite { logger in
            logger.logLevel = .warning
            logger[metadataKey: "hb.request.id"] = "7"
            logger.info("start-up chatter")
            logger.warning("kept")
        }
        #expect(lines.server == [" warning serve: hb.request.id=7 [AccessBackendTests] kept"])
        #expect(lines.server == lines.stream)
    }

    @Test func removedMetadataIsNotWritten() {
        let lines = bothWrite { logger in
            logger[metadataKey: "hb.request.id"] = "7"
            logger[metadataKey: "hb.request.id"] = nil
            logger.warning("kept")
        }
        #expect(lines.server == [" warning serve: [AccessBackendTests] kept"])
        #expect(lines.server == lines.stream)
    }
}
