import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Delete account, in seed 000's order: the info screen, the blocker check (blockers replace
/// "Verify it's you"), "Verify it's you", the final sheet, "Deleting your account…", and the
/// screen that says it is done.
enum DeleteFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        DeleteAccountScreen.self, DeleteBlockersScreen.self, DeletingAccountScreen.self, AccountDeletedScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.deleteGallery }
}

/// "Verify it's you" before deleting: every method the user has is offered (nothing is the target).
public struct DeleteAccountFlow: SensitiveFlow {
    public init() {}

    public var target: ReauthMethod? { nil }

    public var pickerExplanation: String {
        "To delete your account, confirm with one of your active sign-in methods."
    }

    /// Back on the info screen, the last chance: the confirmation sheet.
    public func start(_ context: ScreenContext) -> [Command] {
        [.popTo(DeleteAccountScreen.self), .showSheet(.confirmDeleteAccount)]
    }

    /// What the blocker check's answer leads to: the blocker screen, or "Verify it's you"
    /// (skipped inside its 15-minute window). Blockers never reach re-auth (seed 000).
    static func afterPreflight(_ preflight: DeletePreflight, _ context: ScreenContext) -> [Command] {
        if !preflight.blockers.isEmpty { return [.push(DeleteBlockersScreen(blockers: preflight.blockers))] }
        return Reauth.verifyThen(DeleteAccountFlow(), context)
    }
}

extension AnyFlow {
    public static let deleteAccount = AnyFlow(DeleteAccountFlow())
}

// MARK: - Requests

/// What stands in the way of deleting (seed 000: checked before re-auth).
struct LoadDeletePreflight: APIRequest {
    func perform(_ api: APIContext) async throws -> DeletePreflight { try await api.client.deletePreflight() }
}

struct DeleteAccount: APIRequest {
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> AccountDeleted {
        try await api.client.deleteAccount(reauthToken: reauthToken)
    }
}

extension APIError {
    /// The server's 409 while a blocker still stands (one was added since the check).
    var isDeleteBlocked: Bool {
        if case .server(409, "delete_blocked", _) = self { return true }
        return false
    }

    /// No answer, or the server failed: asking again may work.
    var isWorthRetrying: Bool {
        switch self {
        case .offline: return true
        case .server(let status, _, _): return status >= 500
        default: return false
        }
    }
}

// MARK: - Sheets

extension Sheet {
    /// The last chance, after "Verify it's you" (seed 000): trash can, stark title, one
    /// destructive button.
    public static var confirmDeleteAccount: Sheet {
        Sheet(
            title: "Delete your account forever?",
            body: "This can't be undone. You'll be signed out and your data will be permanently removed.",
            icon: .trash,
            actions: [
                (.init("Delete account", isDestructive: true), [.push(DeletingAccountScreen())]),
                (.init("Cancel"), []),
            ])
    }

    static var deleteGallery: [GalleryEntry] {
        [
            GalleryEntry("delete-account:confirm", "The last chance after Verify it's you") { now in
                var state = SampleData.state([DeleteAccountScreen()], now: now)
                state.overlay = .sheet(.confirmDeleteAccount)
                return state
            },
            GalleryEntry("reauth-picker:delete-account", "Verify it's you before deleting: every method") {
                SampleData.state([DeleteAccountScreen(), ReauthPickerScreen(flow: .deleteAccount)], now: $0)
            },
        ]
    }
}
