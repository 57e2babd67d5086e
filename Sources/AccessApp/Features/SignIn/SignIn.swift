import AccessAPI
import Foundation
import TerminalKit

/// The way in (seed 004): one combined sign-in/sign-up. Being built (issue 14).
enum SignInFeature: Feature {
    static let screens: [any ScreenModel.Type] = [SignInScreen.self]
}
