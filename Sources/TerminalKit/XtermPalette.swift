import Foundation

/// A colour as red, green and blue, 0–255 each.
public struct RGB: Hashable, Sendable {
    public var red: Int
    public var green: Int
    public var blue: Int

    public init(_ red: Int, _ green: Int, _ blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`, lowercase, as CSS and SVG take it.
    public var hex: String {
        "#"
            + [red, green, blue].map { value in
                let digits = String(min(255, max(0, value)), radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// WCAG 2's relative luminance: 0 for black, 1 for white.
    public var luminance: Double {
        func linear(_ value: Int) -> Double {
            let channel = Double(min(255, max(0, value))) / 255
            return channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio with `other`, 1 to 21: text needs 4.5, borders and focus marks 3 (AA).
    public func contrast(with other: RGB) -> Double {
        let (lighter, darker) = (max(luminance, other.luminance), min(luminance, other.luminance))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// The colour `fraction` of the way from this one to `other` (0 is this, 1 is `other`).
    public func mixed(with other: RGB, _ fraction: Double) -> RGB {
        func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
        return RGB(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }

    public func squaredDistance(to other: RGB) -> Int {
        let red = self.red - other.red
        let green = self.green - other.green
        let blue = self.blue - other.blue
        return red * red + green * green + blue * blue
    }
}

/// xterm's 256-colour palette: 16 system colours, a 6×6×6 cube, then 24 greys. The one table
/// the curses driver (nearest basic colour) and the exporters (SVG, HTML) share.
public enum XtermPalette {
    public static func rgb(_ index: UInt8) -> RGB {
        switch index {
        case 0..<16:
            return system[Int(index)]
        case 16..<232:
            let levels = [0, 95, 135, 175, 215, 255]
            let cube = Int(index) - 16
            return RGB(levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        default:
            let grey = 8 + 10 * (Int(index) - 232)
            return RGB(grey, grey, grey)
        }
    }

    /// xterm's defaults for the eight basic colours, then their bright versions.
    private static let system = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
        RGB(0, 205, 205), RGB(229, 229, 229),
        RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255),
        RGB(0, 255, 255), RGB(255, 255, 255),
    ]
}
