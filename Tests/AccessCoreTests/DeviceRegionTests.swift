import Testing

@testable import AccessCore

/// Issue 10 item 11: the picker's first row is the region of LC_ALL, LC_MESSAGES or LANG, or
/// of `--region`.
@Suite struct DeviceRegionTests {
    @Test(arguments: [
        ("de_DE.UTF-8", "DE"), ("en_GB", "GB"), ("ka_GE.utf8", "GE"), ("sr_RS@latin", "RS"),
        ("pt_BR.ISO-8859-1@euro", "BR"), ("en-US", "US"), ("fr_ca.UTF-8", "CA"),
    ])
    func aLocaleWithATerritoryNamesItsRegion(locale: String, region: String) {
        #expect(DeviceRegion.region(ofLocale: locale) == region)
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "", "de", "es_419", "en_XX", "en_USA"])
    func aLocaleWithoutAKnownTerritoryNamesNone(locale: String) {
        #expect(DeviceRegion.region(ofLocale: locale) == nil)
    }

    @Test func lcAllThenLcMessagesThenLang() {
        #expect(DeviceRegion.fromEnvironment(["LANG": "de_DE.UTF-8"]) == "DE")
        #expect(DeviceRegion.fromEnvironment(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]) == "FR")
        #expect(
            DeviceRegion.fromEnvironment(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR", "LC_ALL": "ka_GE.UTF-8"])
                == "GE")
        // Other categories say nothing about the device's country.
        #expect(DeviceRegion.fromEnvironment(["LC_CTYPE": "de_DE.UTF-8", "LC_TIME": "en_GB"]) == nil)
        #expect(DeviceRegion.fromEnvironment([:]) == nil)
    }

    @Test func aVariableWithoutARegionIsPassedOver() {
        // LC_ALL=C is set for stable output or English messages, not to say "no country".
        #expect(DeviceRegion.fromEnvironment(["LC_ALL": "C", "LANG": "de_DE.UTF-8"]) == "DE")
        #expect(DeviceRegion.fromEnvironment(["LC_MESSAGES": "C.UTF-8", "LANG": "en_GB.UTF-8"]) == "GB")
        #expect(DeviceRegion.fromEnvironment(["LC_ALL": "", "LANG": "POSIX"]) == nil)
    }

    @Test func theFlagWinsAndIsValidated() {
        #expect(DeviceRegion.resolve(flag: "de", environment: ["LANG": "en_GB.UTF-8"]) == .success("DE"))
        #expect(DeviceRegion.resolve(flag: nil, environment: ["LANG": "en_GB.UTF-8"]) == .success("GB"))
        #expect(DeviceRegion.resolve(flag: nil, environment: ["LANG": "C"]) == .success(nil))
        #expect(DeviceRegion.parseFlag("XX") == .failure(.unknown("XX")))
        #expect(DeviceRegion.parseFlag("DEU") == .failure(.notTwoLetters("DEU")))
        #expect(DeviceRegion.parseFlag("4") == .failure(.notTwoLetters("4")))
        #expect(
            "\(DeviceRegion.FlagProblem.unknown("XX"))"
                == "--region: no country has the code 'XX' (two letters, such as DE or GE)")
    }
}
