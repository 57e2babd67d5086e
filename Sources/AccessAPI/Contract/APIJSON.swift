import Foundation

/// The one JSON dialect of the contract: snake_case keys and ISO 8601 dates (UTC, whole seconds).
/// Client and server both use these so a renamed property cannot silently drift between them.
public enum APIJSON {
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Header names of DESIGN §5.
public enum APIHeader {
    public static let reauthToken = "X-Reauth-Token"
    public static let retryAfter = "Retry-After"
}
