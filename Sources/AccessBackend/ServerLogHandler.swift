import Logging

/// `accessdeck serve`'s log handler: swift-log's `StreamLogHandler` to standard error, its lines unchanged, but
/// its metadata kept as set and formatted only when a message is written. `StreamLogHandler` formats all of its
/// metadata into one string each time a key is set, and Hummingbird sets the request id on the logger of every
/// request: 5.7 K of the 204 K instructions a GET /me/auth-methods took (callgrind, issue 34 item 2), for a server
/// that writes only its warnings.
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
        // Handed on as the message's own metadata, in `StreamLogHandler`'s order: the logger's, then the
        // provider's, then the message's, each winning over the one before.
        var merged = metadata
        if let provided = stream.metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        var event = event
        event.metadata = merged
        stream.log(event: event)
    }
}
