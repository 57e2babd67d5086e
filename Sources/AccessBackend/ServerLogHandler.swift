import Logging

/// `accessdeck serve`'s log handler: swift-log's `StreamLogHandler` to standard error, its lines unchanged, but
/// its metadata kept as set and formatted only when a message is written. `StreamLogHandler` formats all of its
/// metadata into one string each time a key is set, and Hummingbird sets the request id on the logger of every
/// request: some 7 µs of a 70 µs GET /me/auth-methods (issue 34 item 2), for a server that writes only its
/// warnings.
public struct ServerLogHandler: LogHandler {
    /// Writes the lines; holds no metadata of its own.
    private var stream: StreamLogHandler

    public var metadata: Logger.Metadata = [:]

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    /// To standard error, as swift-log's default handler writes.
    public static func standardError(label: String) -> ServerLogHandler {
        ServerLogHandler(StreamLogHandler.standardError(label: label))
    }

    /// `accessdeck serve`'s logger, and the one `accessdeck-bench serve` measures it with: warnings and errors to
    /// standard error, which keeps Hummingbird's info-level start-up chatter off QA's terminal.
    public static func serverLogger() -> Logger {
        var logger = Logger(label: "accessdeck.serve", factory: standardError)
        logger.logLevel = .warning
        return logger
    }

    /// `stream`'s own metadata is not used: set metadata on this handler.
    public init(_ stream: StreamLogHandler) {
        self.stream = stream
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard !metadata.isEmpty else { return stream.log(event: event) }
        var event = event
        // The message's own metadata wins over the logger's, as in `StreamLogHandler`.
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        stream.log(event: event)
    }
}
