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
    /// Each role's colour on a terminal of 8 or 16 colours (xterm's default TERM, the Linux console). The nearest of
    /// the eight to each 256-colour entry made the backgrounds, borders, rules and the selection bar all black
    /// (issue 50): chosen by role, what must differ does.
    private let basic: [ColorRole: UInt8]

    public func color(for role: ColorRole) -> TerminalColor { colors[role] ?? .terminalDefault }

    /// The role's colour on a terminal of `availableColors`: the 256-colour one, or below 256 the basic one.
    public func color(for role: ColorRole, availableColors: Int) -> TerminalColor {
        guard availableColors < 256, usesColor else { return color(for: role) }
        return basic[role].map { .palette($0) } ?? .terminalDefault
    }
    public var usesColor: Bool { name != .mono }

    /// The attributes a cell is drawn with: its own, and in mono, where no background shows, reverse video on the
    /// selection (a focused row, a sheet's chosen action). A destructive action is bold, and bold alone read as
    /// the selected one (issue 50).
    public func drawnAttributes(_ style: Style) -> Attributes {
        guard !usesColor, style.background == .selection else { return style.attributes }
        return style.attributes.symmetricDifference(.reverse)
    }

    public static func named(_ name: Name) -> Theme {
        switch name {
        case .dark: return .dark
        case .light: return .light
        case .mono: return .mono
        }
    }

    /// Every text colour at least 4.5:1 and every border 3:1 on each background it is drawn on (WCAG 2 AA;
    /// ContrastTests checks every cell of every gallery state). Issue 50: muted on the selection bar was 2.8:1.
    public static let dark = Theme(
        name: .dark,
        colors: [
            .text: .palette(252), .muted: .palette(248), .accent: .palette(75), .danger: .palette(210),
            .success: .palette(114), .warning: .palette(221), .border: .palette(245),
            .background: .palette(233), .surface: .palette(236), .selection: .palette(237),
            .onAccent: .palette(16), .ink: .palette(16), .paper: .palette(231),
        ],
        basic: [
            .text: 7, .muted: 7, .accent: 6, .danger: 1, .success: 2, .warning: 3, .border: 7,
            .background: 0, .surface: 0, .selection: 4, .onAccent: 0, .ink: 0, .paper: 7,
        ])

    public static let light = Theme(
        name: .light,
        colors: [
            .text: .palette(235), .muted: .palette(240), .accent: .palette(25), .danger: .palette(124),
            .success: .palette(28), .warning: .palette(130), .border: .palette(243),
            .background: .palette(231), .surface: .palette(255), .selection: .palette(253),
            .onAccent: .palette(231), .ink: .palette(16), .paper: .palette(231),
        ],
        basic: [
            .text: 0, .muted: 0, .accent: 4, .danger: 1, .success: 2, .warning: 5, .border: 0,
            .background: 7, .surface: 7, .selection: 6, .onAccent: 7, .ink: 0, .paper: 7,
        ])

    public static let mono = Theme(name: .mono, colors: [:], basic: [:])
}
