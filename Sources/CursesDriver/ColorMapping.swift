import TerminalKit

/// Maps theme colours onto what the terminal offers. Pure; the driver feeds it COLORS.
public enum ColorMapping {
    /// The ncurses colour number for a terminal colour: -1 is the terminal's default (after
    /// `use_default_colors`); on terminals with fewer than 256 colours the nearest of the
    /// eight basic colours is used.
    public static func cursesColor(_ color: TerminalColor, availableColors: Int) -> Int16 {
        switch color {
        case .terminalDefault: return -1
        case .palette(let index):
            if availableColors >= 256 { return Int16(index) }
            if availableColors >= 16, index < 16 { return Int16(index) }
            return Int16(nearestBasic(index))
        }
    }

    /// The nearest of the eight basic colours (0–7) to an xterm-256 palette entry.
    public static func nearestBasic(_ index: UInt8) -> UInt8 {
        if index < 16 { return index % 8 }
        let target = XtermPalette.rgb(index)
        var best: UInt8 = 0
        var bestDistance = Int.max
        for candidate in UInt8(0)..<8 {
            let distance = target.squaredDistance(to: XtermPalette.rgb(candidate))
            if distance < bestDistance {
                bestDistance = distance
                best = candidate
            }
        }
        return best
    }
}

/// Hands out one colour pair per (foreground, background) combination, up to the terminal's
/// limit; past it, cells fall back to pair 0 (default colours) rather than failing.
public struct ColorPairTable: Sendable {
    public struct Combination: Hashable, Sendable {
        public var foreground: Int16
        public var background: Int16
        public init(foreground: Int16, background: Int16) {
            self.foreground = foreground
            self.background = background
        }
    }

    private var pairs: [Combination: Int16] = [:]
    private let limit: Int

    /// `maximumPairs` is COLOR_PAIRS; pair 0 is reserved by curses for the defaults.
    public init(maximumPairs: Int) { limit = min(maximumPairs, Int(Int16.max)) }

    /// The pair for a combination and whether it is new (the caller must then `init_pair` it).
    public mutating func pair(for combination: Combination) -> (pair: Int16, isNew: Bool) {
        if combination.foreground == -1, combination.background == -1 { return (0, false) }
        if let existing = pairs[combination] { return (existing, false) }
        let next = pairs.count + 1
        guard next < limit else { return (0, false) }
        pairs[combination] = Int16(next)
        return (Int16(next), true)
    }
}
