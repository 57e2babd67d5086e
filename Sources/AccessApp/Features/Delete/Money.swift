import Foundation

/// An amount as the wire carries it: minor units (cents) of an ISO 4217 currency.
public struct Money: Equatable, Sendable {
    public var minor: Int
    public var currency: String

    public init(minor: Int, currency: String) {
        self.minor = minor
        self.currency = currency
    }

    /// Currencies written with their sign in front ("€320.50"); any other is written after the
    /// number with its code ("320.50 CHF").
    static let symbols = ["EUR": "€", "GBP": "£", "USD": "$"]

    /// ISO 4217 currencies whose minor unit is not a hundredth; every other has two decimals.
    static let decimals: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
    ]

    /// "€320.50", "€1,245.00", "320.50 CHF", "12,000 JPY".
    public var formatted: String {
        let code = currency.trimmingCharacters(in: .whitespaces).uppercased()
        let places = Self.decimals[code] ?? 2
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        let magnitude = minor.magnitude
        let whole = Self.grouped(magnitude / UInt(divisor))
        let fraction = places == 0 ? "" : "." + Self.padded(magnitude % UInt(divisor), to: places)
        let sign = minor < 0 ? "-" : ""
        if let symbol = Self.symbols[code] { return "\(sign)\(symbol)\(whole)\(fraction)" }
        return code.isEmpty ? "\(sign)\(whole)\(fraction)" : "\(sign)\(whole)\(fraction) \(code)"
    }

    private static func grouped(_ value: UInt) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    private static func padded(_ value: UInt, to width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
