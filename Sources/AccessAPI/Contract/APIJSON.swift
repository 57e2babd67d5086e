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

    public func encode(_ date: Date) throws -> String {
        Self.wholeSecondsUTC(date) ?? Self.whole.format(date)
    }

    /// `whole.format(date)` for the years 1970 to 9999, written out: the format style took some 2.5 K
    /// instructions a date, and every answer with a date writes one (issue 34 item 2). nil outside those years.
    /// `ContractDatesTests` holds it to the format style.
    static func wholeSecondsUTC(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds < 253_402_300_800 else { return nil }
        let total = Int(seconds)
        let (days, secondOfDay) = total.quotientAndRemainder(dividingBy: 86_400)
        // Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(unsafeUninitializedCapacity: 20) { out in
            func put(_ value: Int, _ digits: Int, at offset: Int) {
                var value = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    out[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, 2, at: 17)
            out[19] = UInt8(ascii: "Z")
            return 20
        }
    }

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
