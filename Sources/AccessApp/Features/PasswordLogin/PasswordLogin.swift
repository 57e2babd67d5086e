import AccessAPI
import Foundation
import TerminalKit

/// Email & password (seed 002): log in and register on one screen. Being built (issue 14).
enum PasswordLoginFeature: Feature {
    static let screens: [any ScreenModel.Type] = [PasswordLoginScreen.self]
}
