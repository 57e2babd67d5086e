import Foundation
import TerminalKit

/// Everything the app shows, in one value: rendering is a pure function of it.
public struct AppState: Equatable, Sendable {
    /// The navigation stack; never empty, the root first.
    public var stack: [Screen]
    /// At most one overlay (a bottom sheet or the help) drawn over the dimmed screen below.
    public var overlay: Overlay?
    public var toast: Toast?
    public var banner: Banner?
    /// The app clock's time when the last action arrived; countdowns are drawn from it.
    public var now: Date
    public var options: AppOptions

    public init(stack: [Screen] = [.settings(.init())], now: Date, options: AppOptions = .init()) {
        self.stack = stack
        self.now = now
        self.options = options
    }

    public var top: Screen {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    public var canGoBack: Bool { stack.count > 1 }
}

/// What the command line decided about the app's looks and platform.
public struct AppOptions: Equatable, Sendable {
    public enum Platform: String, CaseIterable, Sendable { case ios, android }
    public var platform: Platform
    public var appVersion: String

    public init(platform: Platform = .ios, appVersion: String = AppVersion.current) {
        self.platform = platform
        self.appVersion = appVersion
    }
}

public enum AppVersion {
    public static let current = "0.1.0"
}

public enum Overlay: Equatable, Sendable {
    /// The `?` help, listing the keymap of the screen below.
    case help
}

/// A short confirmation that disappears by itself.
public struct Toast: Equatable, Sendable {
    public var message: String
    public var expiresAt: Date
    public static let lifetime: TimeInterval = 3
}

/// A line above the content that stays until its cause goes away.
public enum Banner: Equatable, Sendable {
    case offline
    case rateLimited(until: Date)
}
