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
        if let date = Self.anyRFC3339(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not an RFC 3339 date-time: \(text)"))
    }

    /// What the format styles refuse and RFC 3339 allows: any year from 0000, any offset up to ±23:59, a
    /// lower-case t or z.
    private static func anyRFC3339(_ text: String) -> Date? {
        guard
            let match = text.wholeMatch(
                of: /(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))/)
        else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        (components.year, components.month, components.day) = (Int(match.1), Int(match.2), Int(match.3))
        (components.hour, components.minute, components.second) = (Int(match.4), Int(match.5), Int(match.6))
        guard (1...12).contains(components.month!), (1...31).contains(components.day!), components.hour! < 24,
            components.minute! < 60, components.second! < 61, let date = components.date
        else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        var offset = 0
        if let sign = match.9, let hours = match.10.flatMap({ Int($0) }), let minutes = match.11.flatMap({ Int($0) }) {
            guard hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        }
        return date.addingTimeInterval(fraction - TimeInterval(offset))
    }

    /// The same reading for Foundation's decoders (the session file, the cache, error bodies).
    public static let decodingStrategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
        try ContractDates().decode(try decoder.singleValueContainer().decode(String.self))
    }
}
