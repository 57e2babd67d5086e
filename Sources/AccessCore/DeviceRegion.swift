import Foundation

/// The device's country for the country picker's first row (seed 000: "device locale country
/// on top"), read from the POSIX locale variables, and the `--region` flag that overrides it.
///
/// Pure over an environment dictionary (not `Locale.current`), so the rule is the one written
/// here and tests need not change the process's environment.
public enum DeviceRegion {
    /// The variables that can name the region, in the order they count.
    public static let variables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The first of `LC_ALL`, `LC_MESSAGES`, `LANG` that names a known country
    /// (`de_DE.UTF-8` → "DE", `sr_RS@latin` → "RS"). A value with no region (`C`, `POSIX`,
    /// `C.UTF-8`, `de`, `es_419`) or an unknown one is passed over, not taken as "none":
    /// people set `LC_ALL=C` or `LC_MESSAGES=C` for English messages or stable script output,
    /// which says nothing about where their phone number is from. Nil when none names one.
    public static func fromEnvironment(
        _ environment: [String: String], catalog: CountryCatalog = .bundled
    ) -> String? {
        for variable in variables {
            if let value = environment[variable], let region = region(ofLocale: value, catalog: catalog) {
                return region
            }
        }
        return nil
    }

    /// The region of one locale name: language, then `_` (or `-`) and the territory, then an
    /// optional `.codeset` and `@modifier`.
    public static func region(ofLocale value: String, catalog: CountryCatalog = .bundled) -> String? {
        let name = value.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        let base = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard parts.count >= 2 else { return nil }
        return known(String(parts[1]), catalog: catalog)
    }

    /// The `--region` flag's value as an ISO code ("de" → "DE"), or a one-line reason.
    public static func parseFlag(_ value: String, catalog: CountryCatalog = .bundled) -> Result<String, FlagProblem> {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == 2, trimmed.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return .failure(.notTwoLetters(value))
        }
        guard let iso = known(trimmed, catalog: catalog) else { return .failure(.unknown(trimmed.uppercased())) }
        return .success(iso)
    }

    /// The region the app uses: the flag when given, else the environment's.
    public static func resolve(
        flag: String?, environment: [String: String], catalog: CountryCatalog = .bundled
    ) -> Result<String?, FlagProblem> {
        guard let flag else { return .success(fromEnvironment(environment, catalog: catalog)) }
        return parseFlag(flag, catalog: catalog).map { $0 }
    }

    public enum FlagProblem: Error, Hashable, Sendable, CustomStringConvertible {
        case notTwoLetters(String)
        case unknown(String)

        public var description: String {
            switch self {
            case .notTwoLetters(let value):
                return "--region takes a country's two-letter code, such as DE or GE, not '\(value)'"
            case .unknown(let code):
                return "--region: no country has the code '\(code)' (two letters, such as DE or GE)"
            }
        }
    }

    static func known(_ code: String, catalog: CountryCatalog) -> String? {
        guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return catalog.country(iso: code)?.iso
    }
}
