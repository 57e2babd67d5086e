/// A colour by what it means, not by its value: a `Theme` gives each role a terminal colour.
///
/// `ink` and `paper` are black and white in every colour theme: what a camera reads (a QR code) must be
/// dark on light whatever the theme, so they do not follow the theme's text and background.
public enum ColorRole: UInt8, CaseIterable, Hashable, Sendable {
    case text, muted, accent, danger, success, warning, border, background, surface, selection, onAccent
    case ink, paper
}

/// Text attributes that survive the mono theme: state is never shown by colour alone.
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Attributes(rawValue: 1 << 0)
    public static let underline = Attributes(rawValue: 1 << 1)
    public static let reverse = Attributes(rawValue: 1 << 2)
    public static let dim = Attributes(rawValue: 1 << 3)
}

/// How one cell looks: foreground and background roles plus attributes.
public struct Style: Hashable, Sendable {
    public var foreground: ColorRole
    public var background: ColorRole
    public var attributes: Attributes

    public init(
        foreground: ColorRole = .text, background: ColorRole = .background, attributes: Attributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()
    public static let muted = Style(foreground: .muted)
    public static let bold = Style(attributes: .bold)
    public static let accent = Style(foreground: .accent)
    public static let danger = Style(foreground: .danger)
    public static let success = Style(foreground: .success)
    public static let border = Style(foreground: .border)

    public func with(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    public func on(_ background: ColorRole) -> Style {
        var copy = self
        copy.background = background
        return copy
    }
}

/// A terminal colour: an xterm-256 palette index, or the terminal's own default.
public enum TerminalColor: Hashable, Sendable {
    case terminalDefault
    case palette(UInt8)
}

/// Maps colour roles to terminal colours. `dark` and `light` paint their own background: text chosen
/// for one background is unreadable on the other, and the terminal's own may be either. `mono` maps
/// every role to the terminal default and relies on attributes alone.
public struct Theme: Hashable, Sendable {
    public enum Name: String, CaseIterable, Sendable { case dark, light, mono }

    public let name: Name
    private let colors: [ColorRole: TerminalColor]

    public func color(for role: ColorRole) -> TerminalColor { colors[role] ?? .terminalDefault }
    public var usesColor: Bool { name != .mono }

    public static func named(_ name: Name) -> Theme {
        switch name {
        case .dark: return .dark
        case .light: return .light
        case .mono: return .mono
        }
    }

    public static let dark = Theme(
        name: .dark,
        colors: [
            .text: .palette(252), .muted: .palette(245), .accent: .palette(75), .danger: .palette(203),
            .success: .palette(114), .warning: .palette(221), .border: .palette(240),
            .background: .palette(233), .surface: .palette(236), .selection: .palette(238),
            .onAccent: .palette(16), .ink: .palette(16), .paper: .palette(231),
        ])

    public static let light = Theme(
        name: .light,
        colors: [
            .text: .palette(235), .muted: .palette(243), .accent: .palette(26), .danger: .palette(160),
            .success: .palette(28), .warning: .palette(130), .border: .palette(250),
            .background: .palette(231), .surface: .palette(255), .selection: .palette(253),
            .onAccent: .palette(231), .ink: .palette(16), .paper: .palette(231),
        ])

    public static let mono = Theme(name: .mono, colors: [:])
}
