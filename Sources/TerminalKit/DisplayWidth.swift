/// How many terminal columns text occupies, by wcwidth-style rules.
///
/// `String.count` counts grapheme clusters, not columns: 🇬🇪 is one character and two columns,
/// 日 is one character and two columns, a combining mark is part of a character and zero columns.
public enum DisplayWidth {
    /// Columns taken by a whole string: the sum over its grapheme clusters.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns taken by one grapheme cluster.
    ///
    /// A cluster is drawn as its first spacing scalar plus the zero-width scalars that follow
    /// (see `drawableScalars`), so its width is that scalar's width. Two regional indicators
    /// make a flag: each is one column in glibc and tmux, two together.
    public static func of(_ character: Character) -> Int {
        // Most text is ASCII, and Unicode's scalar properties are slow to ask.
        if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
        let scalars = character.unicodeScalars
        if scalars.count >= 2, scalars.allSatisfy(isRegionalIndicator) { return 2 }
        for scalar in scalars {
            let width = of(scalar)
            if width > 0 { return width }
        }
        return 0
    }

    /// Columns taken by one scalar on its own, as glibc's wcwidth reports it for printable
    /// text (control characters count as zero: the grid never draws them).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if ControlCharacters.isControl(scalar) { return 0 }
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if isRegionalIndicator(scalar) { return 1 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// The scalars the driver hands to the terminal for a cluster: the regional-indicator pair
    /// of a flag, or the first spacing scalar and the zero-width scalars right after it. Later
    /// spacing scalars of a ZWJ sequence are dropped so the terminal cannot draw the cluster
    /// wider than the grid reserved.
    public static func drawableScalars(_ character: Character) -> [Unicode.Scalar] {
        let scalars = Array(character.unicodeScalars)
        if scalars.count >= 2, scalars.allSatisfy(isRegionalIndicator) { return Array(scalars.prefix(2)) }
        var result: [Unicode.Scalar] = []
        for scalar in scalars {
            let width = of(scalar)
            if result.isEmpty {
                if width > 0 { result.append(scalar) }
            } else if width == 0, scalar.value != 0x200D {
                result.append(scalar)
            } else {
                break
            }
        }
        return result
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x00AD { return false }  // soft hyphen: glibc gives it a column
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// East Asian Wide and Fullwidth blocks (as in glibc's tables).
    static func isWide(_ value: UInt32) -> Bool {
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
        0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
        0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
        0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
