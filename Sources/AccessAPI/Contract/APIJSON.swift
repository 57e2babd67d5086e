import Foundation
import OpenAPIRuntime

/// JSON for files and fixtures written by hand: snake_case keys and ISO 8601 dates.
public enum APIJSON {
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
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
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func makeContractDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ContractDates.decodingStrategy
        return decoder
    }
}

/// Header names of DESIGN §5.
public enum APIHeader {
    public static let reauthToken = "X-Reauth-Token"
    public static let retryAfter = "Retry-After"
}

/// The contract's `date-time` (RFC 3339): read with or without fractional seconds and with any
/// offset, as another backend may send them; written in whole seconds and UTC, as ours does.
public struct ContractDates: DateTranscoder {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public init() {}

    public func encode(_ date: Date) throws -> String { Self.whole.format(date) }

    public func decode(_ text: String) throws -> Date {
        if let date = try? Self.fractional.parse(text) { return date }
        if let date = try? Self.whole.parse(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not an RFC 3339 date-time: \(text)"))
    }

    /// The same reading for Foundation's decoders (the session file, the cache, error bodies).
    public static let decodingStrategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
        try ContractDates().decode(try decoder.singleValueContainer().decode(String.self))
    }
}
