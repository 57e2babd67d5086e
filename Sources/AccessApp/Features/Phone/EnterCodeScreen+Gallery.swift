import AccessAPI
import Foundation
import TerminalKit

/// Sample values the phone flow's gallery states share.
enum PhoneGallery {
    static let current = SampleData.everyMethod.phone
    static let newPhone = "+995511200300"
    /// `newPhone` as typed; taken-number gives it to another account (`--start-at enter-phone:taken`).
    static let newNational = "511 200 300"
    /// Where `--start-at enter-code:sign-in-wrong` sends its sign-in code: a number no scenario gives anyone.
    static let signInPhone = "+995511123456"
    static let signInNational = "511 123 456"
    /// Where `--start-at enter-code:sign-in-email` sends its sign-in code: an address no scenario gives anyone.
    static let signInEmail = "new.user@mail.com"
    /// A number no scenario gives anyone (fixtures/scenarios): where `--start-at enter-code` sends its code.
    static let freeNumber = "+995555010203"
    static let freeNational = "555 010 203"
}

extension EnterCodeScreen {
    static func sample(
        _ now: Date, sentAgo: TimeInterval = 3, digits: String = "", problem: EnterCodeScreen.Problem? = nil,
        isDead: Bool = false
    ) -> EnterCodeScreen {
        EnterCodeScreen(
            flow: .changePhone, phone: PhoneGallery.newPhone, requestId: "otp_sample", expiresAt: now - sentAgo + 300,
            resendAfter: now - sentAgo + 30, digits: digits, problem: problem, isDead: isDead)
    }

    public static var defaultGalleryState: String { "empty" }

    /// "Verify it's you" passed, then Send code for `PhoneGallery.freeNumber`: the code is in the outbox and its
    /// countdowns are the backend's answer.
    static let newNumberRoad = Roads.verifiedForNewPhone.then(["POST /auth/phone/request-otp"]) { api, typed in
        let sent = try await Endpoint.RequestOtp(
            phone: PhoneGallery.freeNumber, purpose: .changePhone, reauthToken: typed.grant?.reauthToken
        ).perform(api)
        var arrived = typed
        arrived.stack.removeLast()
        let current = typed.methods?.phone
        return arrived.pushing(
            EnterPhoneScreen(flow: .changePhone, current: current, number: PhoneGallery.freeNational)
        ).pushing(EnterCodeScreen(flow: .changePhone, accepted: sent))
    }

    /// Signed out: Get started, Continue with phone, Send code for `PhoneGallery.signInPhone`, then a code that
    /// differs in every digit from the one in the outbox.
    static let wrongSignInCodeRoad = Road(
        ["POST /auth/sign-in/code", "GET /_admin/outbox", "POST /auth/sign-in/code/verify 401"], signedIn: false
    ) { api in
        try await SendAWrongSignInCode(phone: PhoneGallery.signInPhone, national: PhoneGallery.signInNational)
            .perform(api)
    }

    /// Signed out: Get started, Continue with email, Send code for `PhoneGallery.signInEmail`; the boxes are empty.
    static let emailedSignInCodeRoad = Road(["POST /auth/sign-in/code"], signedIn: false) { api in
        let address = PhoneGallery.signInEmail
        let challenge = try await Endpoint.StartSignInCode(channel: .email, email: address).perform(api)
        return Arrival(
            [
                WelcomeScreen(), SignInScreen(), SignInEmailScreen(email: address),
                EnterCodeScreen(signIn: challenge, channel: .email),
            ],
            methods: nil)
    }

    public static var gallery: [GalleryEntry] {
        accountGallery + signInGallery
    }

    static var accountGallery: [GalleryEntry] {
        [
            GalleryEntry("enter-code:empty", "Just sent: empty boxes, resend counting down", road: newNumberRoad) {
                SampleData.state([sample($0)], now: $0)
            },
            GalleryEntry("enter-code:partial", "Three digits typed") {
                SampleData.state([sample($0, digits: "482")], now: $0)
            },
            GalleryEntry("enter-code:incorrect", "Wrong code: red boxes, digits kept") {
                SampleData.state([sample($0, digits: "482111", problem: .incorrect(attemptsRemaining: 4))], now: $0)
            },
            GalleryEntry("enter-code:expired", "Expired: Resend is the only way on") {
                SampleData.state([sample($0, sentAgo: 301, digits: "482915")], now: $0)
            },
            GalleryEntry("enter-code:resend-countdown", "Resend in 0:27") {
                SampleData.state([sample($0, sentAgo: 3)], now: $0)
            },
            GalleryEntry("enter-code:resend-ready", "The cooldown is over: Resend code") {
                SampleData.state([sample($0, sentAgo: 45)], now: $0)
            },
            GalleryEntry("enter-code:rate-limited", "Too many resends: the banner counts down") { now in
                var screen = sample(now, sentAgo: 45)
                screen.resendAfter = now + 27
                screen.limit = RateLimit(until: now + 27, kind: .resendWindow)
                return SampleData.state([screen], now: now)
            },
        ]
    }

    /// Continue with phone or email (seed 004), served by the same screen.
    static var signInGallery: [GalleryEntry] {
        [
            GalleryEntry(
                "enter-code:sign-in-email", "The code emailed to continue with email", road: emailedSignInCodeRoad
            ) { now in
                let sent = SignInCodeChallenge(channel: .email, destination: "new.user@mail.com", challengeId: "chl_1")
                return AppState(
                    root: EnterCodeScreen(
                        step: .signIn(sent), expiresAt: now.addingTimeInterval(300),
                        resendAfter: now.addingTimeInterval(27), digits: "13"),
                    now: now)
            },
            GalleryEntry(
                "enter-code:sign-in-wrong", "A wrong sign-in code: attempts left", road: wrongSignInCodeRoad
            ) { now in
                let sent = SignInCodeChallenge(channel: .phone, destination: "+995511123456", challengeId: "chl_1")
                return AppState(
                    root: EnterCodeScreen(
                        step: .signIn(sent), expiresAt: now.addingTimeInterval(240), resendAfter: now,
                        digits: "000000", problem: .incorrect(attemptsRemaining: 3)),
                    now: now)
            },
            GalleryEntry("enter-code:reverify", "Limited access: the code that gives everything back") { now in
                var screen = sample(now, digits: "48")
                screen.step = .reverify(PhoneCodeRequest(phone: PhoneGallery.newPhone, requestId: "otp_sample"))
                return SampleData.limitedState(
                    [EnterPhoneScreen(flow: .reverifyPhone, current: PhoneGallery.current), screen], now: now)
            },
        ]
    }
}
