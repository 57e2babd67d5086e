/// The client's phone format check (seed 000: "valid phone length for selected country, no
/// libphonenumber": digits only, the country's length). The server checks again.
public enum PhoneNumberRules {
    /// The digits a person typed, without spaces, dashes, dots or brackets; nil if anything
    /// else is in it.
    public static func digits(of typed: String) -> String? {
        var digits = ""
        for character in typed {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if !" -.()".contains(character) {
                return nil
            }
        }
        return digits
    }

    /// The number in E.164 ("+995511100000") when what was typed fits the country's rule,
    /// else nil. A leading trunk prefix ("0 511 …") is accepted and dropped.
    public static func e164(typed: String, country: Country) -> String? {
        guard var national = digits(of: typed), !national.isEmpty else { return nil }
        if !country.lengths.contains(national.count), let prefix = country.nationalPrefix,
            national.hasPrefix(prefix), country.lengths.contains(national.count - prefix.count)
        {
            national.removeFirst(prefix.count)
        }
        guard country.lengths.contains(national.count) else { return nil }
        return country.dialCode + national
    }

    /// A full international number as people type it ("+995 511-100 000") in E.164, or nil
    /// unless its dial code is a known one and the rest fits that country's length rule
    /// (for a shared code such as +1 or +7, any of its countries' rules). The server's check.
    public static func normalizeE164(_ typed: String, catalog: CountryCatalog = .bundled) -> String? {
        let compact = typed.filter { !" -.()".contains($0) }
        guard compact.hasPrefix("+") else { return nil }
        let digits = compact.dropFirst()
        guard (8...15).contains(digits.count), digits.first != "0",
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let number = "+" + digits
        // The longest dial code that matches decides: "+1 …" never shadows "+1 242 …".
        for codeLength in stride(from: 4, through: 1, by: -1) {
            let dialCode = String(number.prefix(codeLength + 1))
            let countries = catalog.all.filter { $0.dialCode == dialCode }
            guard !countries.isEmpty else { continue }
            let national = digits.count - codeLength
            return countries.contains { $0.lengths.contains(national) } ? number : nil
        }
        return nil
    }

    /// What a pasted (or typed) number means for the phone screen: its country and national
    /// digits ("+995 (511) 30-04-00" is Georgia, "511300400"). Spaces, dashes, dots, slashes,
    /// brackets, a "tel:" in front and the invisible direction marks phones wrap copied numbers
    /// in are dropped. A leading "+CC" or "00CC" picks the country by dial code; without one the
    /// number is the current country's. A trunk prefix is dropped ("+44 (0)7911 123456",
    /// "07911 123456"), and so is the current country's dial code pasted without its "+"
    /// ("995 511 300 400") when only then the rest fits. The length is not checked here: a
    /// number one digit short still lands in the field for the person to finish, and
    /// `e164(typed:country:)` keeps the button off until it fits.
    public static func normalize(
        pasted text: String, current: Country, catalog: CountryCatalog = .bundled
    ) -> Result<PhoneNumberInput, PhoneNumberInputProblem> {
        var body = Substring(text)
        while let first = body.first, isIgnorable(first) { body.removeFirst() }
        if body.prefix(4).lowercased() == "tel:" { body = body.dropFirst(4) }
        // Letters first: "ext. 12" or a name pasted with the number say more than its dot does.
        if body.contains(where: \.isLetter) { return .failure(.letters) }
        var digits = ""
        var international = false
        for character in body {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character == "+", digits.isEmpty, !international {
                international = true
            } else if !isIgnorable(character) {
                return .failure(.symbol(character))
            }
        }
        // "00" is how most of the world dials abroad: "00995 …" is "+995 …".
        if !international, digits.hasPrefix("00") {
            international = true
            digits.removeFirst(2)
        }
        guard !digits.isEmpty else { return .failure(.empty) }
        guard international else {
            return .success(PhoneNumberInput(country: current, national: national(digits, current: current)))
        }
        // Dial codes are a prefix code (no code starts another), at most three digits long.
        guard
            let dialCode = (1...3).map({ "+" + digits.prefix($0) }).first(where: {
                !catalog.countries(dialCode: $0).isEmpty
            })
        else { return .failure(.unknownDialCode("+" + digits.prefix(3))) }
        let rest = String(digits.dropFirst(dialCode.count - 1))
        let countries = catalog.countries(dialCode: dialCode)
        let preferred = catalog.preferred(dialCode: dialCode)
        let fitting = countries.compactMap { country in fit(rest, in: country).map { (country, $0) } }
        // A shared code (+1, +7, +44): the countries whose rules the number fits; of those the
        // current one (a Kazakh number stays Kazakh), else the usual one (+1 is the US).
        if let (country, national) = fitting.first(where: { $0.0.iso == current.iso })
            ?? fitting.first(where: { $0.0.iso == preferred?.iso }) ?? fitting.first
        {
            return .success(PhoneNumberInput(country: country, national: national))
        }
        let country = countries.first { $0.iso == current.iso } ?? preferred ?? countries[0]
        return .success(PhoneNumberInput(country: country, national: withoutTrunkZero(rest, country)))
    }

    /// `normalize(pasted:current:catalog:)` without the reason: nil when the text is no number.
    public static func parse(
        pasted: String, current: Country, catalog: CountryCatalog = .bundled
    ) -> (country: Country, national: String)? {
        guard case .success(let input) = normalize(pasted: pasted, current: current, catalog: catalog) else {
            return nil
        }
        return (input.country, input.national)
    }

    /// Spaces of every kind, dashes of every kind, dots, slashes, brackets, and format
    /// characters (iOS wraps a copied number in U+202A…U+202C; web pages add U+200E).
    static func isIgnorable(_ character: Character) -> Bool {
        if character.isWhitespace || "-.()/\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2212}".contains(character) {
            return true
        }
        return character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .format }
    }

    /// The national number when `digits` fits the country as they are or without its trunk
    /// prefix ("0" + 10 digits in the UK); nil when neither fits.
    static func fit(_ digits: String, in country: Country) -> String? {
        let candidate = withoutTrunkZero(digits, country)
        if country.lengths.contains(candidate.count) { return candidate }
        if let prefix = country.nationalPrefix, candidate.hasPrefix(prefix),
            country.lengths.contains(candidate.count - prefix.count)
        {
            return String(candidate.dropFirst(prefix.count))
        }
        return nil
    }

    /// Where the trunk prefix is "0" no national number starts with 0, so a leading 0 is always
    /// the prefix, whatever the length ("+44 (0)7911 12345" is one digit short, not 10 digits).
    /// Other prefixes are digits numbers start with (Russia's 8: "+7 812 …" is St Petersburg).
    static func withoutTrunkZero(_ digits: String, _ country: Country) -> String {
        guard country.nationalPrefix == "0", digits.hasPrefix("0") else { return digits }
        return String(digits.dropFirst())
    }

    /// Digits typed or pasted without a "+": the current country's national number, with a
    /// trunk prefix or the country's own dial code in front dropped when only then it fits.
    static func national(_ digits: String, current: Country) -> String {
        if let national = fit(digits, in: current) { return national }
        let dialDigits = current.dialCode.dropFirst()
        if digits.hasPrefix(dialDigits), let national = fit(String(digits.dropFirst(dialDigits.count)), in: current) {
            return national
        }
        return withoutTrunkZero(digits, current)
    }

    /// "+995 511 100 000": the dial code, then the national number in groups of three (a
    /// last group of one joins the one before: "+1 555 123 4567").
    public static func display(e164 number: String, catalog: CountryCatalog = .bundled) -> String {
        guard let country = catalog.country(forE164: number) else { return number }
        return country.dialCode + " " + grouped(String(number.dropFirst(country.dialCode.count)))
    }

    /// National digits as every screen shows them (seed 001's "+995 511 100 000"): groups of three, a last group of
    /// one joining the one before.
    public static func grouped(_ digits: String) -> String {
        var groups = threes(digits)
        if groups.count > 1, groups.last?.count == 1 {
            let last = groups.removeLast()
            groups[groups.count - 1] += last
        }
        return groups.joined(separator: " ")
    }

    /// National digits as the phone field shows them while they are typed: groups of three from the left, so a
    /// digit typed never moves a space already shown. With the join of `grouped` they jumped about as a number
    /// grew (5111, 511 12, 511 1234, 511 123 45: issue 50).
    public static func groupedAsTyped(_ digits: String) -> String { threes(digits).joined(separator: " ") }

    private static func threes(_ digits: String) -> [String] {
        let digits = Array(digits)
        return stride(from: 0, to: digits.count, by: 3).map { String(digits[$0..<min($0 + 3, digits.count)]) }
    }
}

/// A phone number read from a paste: the country it belongs to and the national digits the
/// phone screen's field holds.
public struct PhoneNumberInput: Hashable, Sendable {
    public var country: Country
    /// ASCII digits only, without the dial code or a trunk prefix.
    public var national: String

    public init(country: Country, national: String) {
        self.country = country
        self.national = national
    }

    public var iso: String { country.iso }
}

/// Why a paste is not a phone number. `message` is the one line a screen shows under the field.
public enum PhoneNumberInputProblem: Error, Hashable, Sendable {
    /// No digits at all (only spaces, dashes or a lone "+").
    case empty
    /// Letters: a name, "ext. 12", or a code pasted into the wrong field.
    case letters
    /// A character no phone number has ("#", "*", ",", a digit of another script).
    case symbol(Character)
    /// "+" followed by digits no country dials, e.g. "+999".
    case unknownDialCode(String)

    public var message: String {
        switch self {
        case .empty: return "There is no phone number in what you pasted."
        case .letters: return "A phone number has no letters. Paste or type just the number."
        case .symbol(let character): return "A phone number can't contain \"\(character)\"."
        case .unknownDialCode(let code): return "No country has the dial code \(code)."
        }
    }
}
