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

    /// "+995 511 100 000": the dial code, then the national number in groups of three (a
    /// last group of one joins the one before: "+1 555 123 4567").
    public static func display(e164 number: String, catalog: CountryCatalog = .bundled) -> String {
        guard let country = catalog.country(forE164: number) else { return number }
        let national = Array(number.dropFirst(country.dialCode.count))
        var groups: [String] = stride(from: 0, to: national.count, by: 3).map {
            String(national[$0..<min($0 + 3, national.count)])
        }
        if groups.count > 1, groups.last?.count == 1 {
            let last = groups.removeLast()
            groups[groups.count - 1] += last
        }
        return ([country.dialCode] + groups).joined(separator: " ")
    }
}
