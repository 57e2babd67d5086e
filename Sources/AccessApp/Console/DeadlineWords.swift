import AccessAPI

/// What a clock move fired, in words: "code expired, re-auth window closed". Several of a kind count once.
enum DeadlineWords {
    static func describe(_ events: [DeadlineEvent]) -> String {
        var seen: [String] = []
        for event in events {
            let words = phrase(event.kind)
            if !seen.contains(words) { seen.append(words) }
        }
        return seen.isEmpty ? "nothing fell due" : seen.joined(separator: ", ")
    }

    static func phrase(_ kind: String) -> String {
        switch kind {
        case "otp_expired": return "code expired"
        case "resend_cooldown_over": return "resend allowed again"
        case "resend_slot_freed": return "a resend freed"
        case "daily_slot_freed": return "a daily send freed"
        case "password_slot_freed": return "a password try freed"
        case "reauth_expired": return "re-auth window closed"
        case "link_expired": return "link expired"
        case "access_token_expired": return "access token expired"
        case "refresh_token_expired": return "session expired"
        case "account_purged": return "account purged"
        case "identity_hold_released": return "phone/email released"
        case "payout_hold_released": return "payout released"
        case "automatic_payout": return "payout paid"
        case "scheduled_item_started": return "a session started"
        default: return kind.replacingOccurrences(of: "_", with: " ")
        }
    }
}
