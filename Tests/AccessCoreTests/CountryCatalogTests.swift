import Foundation
import Testing

@testable import AccessCore

@Suite struct CountryCatalogTests {
    let catalog = CountryCatalog.bundled

    @Test func holdsEveryCountryWithADialCodeAndLengths() {
        #expect(catalog.all.count >= 200)
        for country in catalog.all {
            #expect(country.iso.count == 2)
            #expect(country.dialCode.hasPrefix("+"))
            #expect(!country.lengths.isEmpty, "\(country.iso) has no length rule")
            #expect(country.flag.unicodeScalars.count == 2)
        }
    }

    /// Issue 48 item 18: "Åland Islands" sorted after Zimbabwe. The list is in reading order: accents aside.
    @Test func allCountriesAreInReadingOrder() throws {
        let folded = catalog.all.map {
            $0.name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        }
        #expect(folded == folded.sorted())
        let names = catalog.all.map(\.name)
        let aland = try #require(names.firstIndex(of: "Åland Islands"))
        let albania = try #require(names.firstIndex(of: "Albania"))
        #expect(aland < albania)
    }

    @Test func seedLengthRules() throws {
        #expect(try #require(catalog.country(iso: "GE")).lengths == [9])
        #expect(try #require(catalog.country(iso: "US")).lengths == [10])
        #expect(try #require(catalog.country(iso: "GB")).lengths == [10])
        #expect(try #require(catalog.country(iso: "GE")).flag == "🇬🇪")
    }

    @Test func popularPutsTheLocaleFirstWithoutRepeats() {
        #expect(catalog.popular(localeRegion: "DE").map(\.iso) == ["DE", "GE", "US", "GB"])
        #expect(catalog.popular(localeRegion: "US").map(\.iso) == ["GE", "US", "GB"])
        #expect(catalog.popular(localeRegion: nil).map(\.iso) == ["GE", "US", "GB"])
    }

    @Test func findsTheCountryOfANumber() {
        #expect(catalog.country(forE164: "+995511100000")?.iso == "GE")
        #expect(catalog.country(forE164: "+15551234567")?.iso == "US")
        #expect(catalog.country(forE164: "+447911123456")?.iso == "GB")
        #expect(catalog.country(forE164: "+79161234567")?.iso == "RU")
    }
}

@Suite struct PhoneNumberRulesTests {
    let georgia = CountryCatalog.bundled.country(iso: "GE")!
    let uk = CountryCatalog.bundled.country(iso: "GB")!

    @Test func acceptsOnlyTheCountrysLength() {
        #expect(PhoneNumberRules.e164(typed: "511 200 300", country: georgia) == "+995511200300")
        #expect(PhoneNumberRules.e164(typed: "511-200-30", country: georgia) == nil)
        #expect(PhoneNumberRules.e164(typed: "511 200 3001", country: georgia) == nil)
        #expect(PhoneNumberRules.e164(typed: "", country: georgia) == nil)
    }

    @Test func dropsATypedTrunkPrefix() {
        #expect(PhoneNumberRules.e164(typed: "07911 123456", country: uk) == "+447911123456")
        #expect(PhoneNumberRules.e164(typed: "7911 123456", country: uk) == "+447911123456")
    }

    @Test func rejectsLettersAndSymbols() {
        #expect(PhoneNumberRules.e164(typed: "511 2OO 300", country: georgia) == nil)
        #expect(PhoneNumberRules.digits(of: "(511) 200.300") == "511200300")
        #expect(PhoneNumberRules.digits(of: "511#200") == nil)
    }

    @Test func displaysInGroupsOfThree() {
        #expect(PhoneNumberRules.display(e164: "+995511100000") == "+995 511 100 000")
        #expect(PhoneNumberRules.display(e164: "+15551234567") == "+1 555 123 4567")
    }
}

@Suite struct InternationalNumberTests {
    @Test func acceptsKnownDialCodesWithTheRightLength() {
        #expect(PhoneNumberRules.normalizeE164("+995 511-100 000") == "+995511100000")
        #expect(PhoneNumberRules.normalizeE164("+1 (555) 123 4567") == "+15551234567")
        #expect(PhoneNumberRules.normalizeE164("+7 916 123 45 67") == "+79161234567")
    }

    @Test func rejectsWrongLengthsUnknownCodesAndJunk() {
        #expect(PhoneNumberRules.normalizeE164("+99551110000") == nil)  // Georgia needs 9 digits
        #expect(PhoneNumberRules.normalizeE164("+9955111000001") == nil)
        #expect(PhoneNumberRules.normalizeE164("995511100000") == nil)  // no +
        #expect(PhoneNumberRules.normalizeE164("+0995511100000") == nil)
        #expect(PhoneNumberRules.normalizeE164("+995 511 1OO 000") == nil)
        #expect(PhoneNumberRules.normalizeE164("+999 123 456 789") == nil)  // no such dial code
    }
}
