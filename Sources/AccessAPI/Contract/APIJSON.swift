import Foundation

/// JSON for files and fixtures written by hand: snake_case keys and ISO 8601 dates.
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

    /// For the contract's generated types: their CodingKeys already hold the JSON names, and a
    /// key strategy on top would break decoding (`user_id` would be looked up as `userId`).
    public static func makeContractEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func makeContractDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Header names of DESIGN §5.
public enum APIHeader {
    public static let reauthToken = "X-Reauth-Token"
    public static let retryAfter = "Retry-After"
}
