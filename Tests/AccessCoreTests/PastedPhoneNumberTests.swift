import Testing

@testable import AccessCore

/// Issue 10 item 7: a number pasted into the phone screen is normalised, a leading +CC picks
/// the country, letters are refused with a reason.
@Suite struct PastedPhoneNumberTests {
    let catalog = CountryCatalog.bundled
    var georgia: Country { catalog.country(iso: "GE")! }
    var unitedStates: Country { catalog.country(iso: "US")! }
    var kazakhstan: Country { catalog.country(iso: "KZ")! }

    func parsed(_ text: String, current: String = "GE") -> String? {
        PhoneNumberRules.parse(pasted: text, current: catalog.country(iso: current)!).map {
            "\($0.country.iso) \($0.national)"
        }
    }

    func problem(_ text: String) -> PhoneNumberInputProblem? {
        if case .failure(let problem) = PhoneNumberRules.normalize(pasted: text, current: georgia) { return problem }
        return nil
    }

    @Test func theIssuesExampleIsGeorgia() {
        #expect(parsed("+995 (511) 30-04-00", current: "US") == "GE 511300400")
    }

    @Test(arguments: [
        ("+995 511 30 04 00", "GE 511300400"),
        ("+995.511.300.400", "GE 511300400"),
        ("00995 511 300 400", "GE 511300400"),
        ("tel:+995-511-300-400", "GE 511300400"),
        (" +995 511 300 400\n", "GE 511300400"),
        ("+995\u{00A0}511\u{2009}300\u{2011}400", "GE 511300400"),  // no-break and thin spaces, a no-break hyphen
        ("\u{202A}+995 511 300 400\u{202C}", "GE 511300400"),  // how iOS wraps a copied number
        ("+1 (555) 123-4567", "US 5551234567"),
        ("+44 7911 123456", "GB 7911123456"),
        ("+44 (0)7911 123456", "GB 7911123456"),  // the UK's written "(0)" trunk prefix
        ("+49 1512 3456789", "DE 15123456789"),
    ])
    func internationalNumbersPickTheirCountry(text: String, expected: String) {
        #expect(parsed(text) == expected)
    }

    @Test func numbersWithoutADialCodeBelongToTheCurrentCountry() {
        #expect(parsed("511-300-400") == "GE 511300400")
        #expect(parsed("0511 300 400") == "GE 511300400")  // trunk prefix
        #expect(parsed("995 511 300 400") == "GE 511300400")  // its own dial code without the +
        #expect(parsed("07911 123456", current: "GB") == "GB 7911123456")
        #expect(parsed("1 (555) 123-4567", current: "US") == "US 5551234567")
        #expect(parsed("(555) 123-4567", current: "US") == "US 5551234567")
    }

    @Test func aNumberThatDoesNotFitStillLandsForThePersonToFinish() {
        // One digit short: the field shows it, and e164 keeps "Send code" off.
        #expect(parsed("+995 511 300 40", current: "US") == "GE 51130040")
        #expect(PhoneNumberRules.e164(typed: "51130040", country: georgia) == nil)
        // A leading 0 after +44 is the trunk prefix even when the rest is short.
        #expect(parsed("+44 (0)7911 12345", current: "US") == "GB 791112345")
    }

    @Test func sharedCodesPreferTheCountryTheNumberFitsThenTheCurrentThenTheUsualOne() {
        // +7: Russia and Kazakhstan share the rules; the current one wins when it shares the code.
        #expect(parsed("+7 701 123 45 67", current: "KZ") == "KZ 7011234567")
        #expect(parsed("+7 916 123 45 67", current: "GE") == "RU 9161234567")
        // +1 is the United States, not American Samoa (the first +1 country by name).
        #expect(parsed("+1 555 123 4567", current: "GE") == "US 5551234567")
        #expect(parsed("+1 555 123 4567", current: "CA") == "CA 5551234567")
        // +290: Saint Helena numbers have 5 digits, Tristan da Cunha's 4.
        #expect(parsed("+290 1234", current: "SH") == "TA 1234")
        // Russia's trunk prefix 8 is also a first digit: +7 812 is St Petersburg, not a prefix.
        #expect(parsed("+7 812 123 45 67") == "RU 8121234567")
    }

    @Test func lettersAndSymbolsAreRefusedWithAReason() {
        #expect(problem("+995 511 3OO 400") == .letters)
        #expect(problem("+995 511 300 400 ext. 12") == .letters)
        #expect(problem("call me") == .letters)
        #expect(problem("511#300") == .symbol("#"))
        #expect(problem("511+300") == .symbol("+"))
        #expect(problem("٥١١٣٠٠٤٠٠") == .symbol("٥"))
        #expect(problem(" - ") == .empty)
        #expect(problem("+") == .empty)
        #expect(problem("+999 123 456") == .unknownDialCode("+999"))
        #expect(PhoneNumberRules.parse(pasted: "abc", current: georgia) == nil)
        #expect(
            PhoneNumberInputProblem.letters.message == "A phone number has no letters. Paste or type just the number.")
        #expect(PhoneNumberInputProblem.unknownDialCode("+999").message == "No country has the dial code +999.")
    }

    @Test func typedNumbersStillWorkAsBefore() {
        #expect(PhoneNumberRules.e164(typed: "511 300 400", country: georgia) == "+995511300400")
        #expect(PhoneNumberRules.e164(typed: "(555) 123-4567", country: unitedStates) == "+15551234567")
    }
}

/// Seed 000: "Georgia: 9 digits, US: 10, UK: 10-11". The UK's 11 is the 0 dialled at home in front
/// of the 10 digits that follow +44.
@Suite struct SeedLengthRuleTests {
    let catalog = CountryCatalog.bundled

    @Test func theUKTakesTenDigitsOrElevenWithItsTrunkZero() throws {
        let uk = try #require(catalog.country(iso: "GB"))
        #expect(uk.typedLengths == [10, 11])
        #expect(PhoneNumberRules.e164(typed: "7911 123456", country: uk) == "+447911123456")
        #expect(PhoneNumberRules.e164(typed: "07911 123456", country: uk) == "+447911123456")
        #expect(PhoneNumberRules.e164(typed: "+44 (0)7911 123456", country: uk) == nil)  // a paste: see parse
        #expect(PhoneNumberRules.parse(pasted: "+44 (0)7911 123456", current: uk)?.national == "7911123456")
        #expect(PhoneNumberRules.e164(typed: "791 112 345", country: uk) == nil)
        #expect(PhoneNumberRules.e164(typed: "07911 1234567", country: uk) == nil)
    }

    @Test func georgiaAndTheUSKeepTheirSingleLength() throws {
        #expect(try #require(catalog.country(iso: "GE")).lengths == [9])
        #expect(try #require(catalog.country(iso: "US")).lengths == [10])
    }

    @Test func theUsualCountryOfASharedDialCode() {
        #expect(catalog.preferred(dialCode: "+1")?.iso == "US")
        #expect(catalog.preferred(dialCode: "+7")?.iso == "RU")
        #expect(catalog.preferred(dialCode: "+995")?.iso == "GE")
        #expect(catalog.preferred(dialCode: "+999") == nil)
        #expect(catalog.countries(dialCode: "+44").map(\.iso).sorted() == ["GB", "GG", "IM", "JE"])
    }
}
