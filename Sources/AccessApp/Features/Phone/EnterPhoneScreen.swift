import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "New phone number" / "Add phone number" (seed 001), "Verify your phone number" (seed 003) and
/// "Continue with phone" (seed 004): a country chip, the national number and "Send code". The CTA stays off until the number fits the country's length rule (seed 000);
/// the server checks again and its answers show inline under the field.
public struct EnterPhoneScreen: ScreenModel {
    /// `displayName` only on Continue with phone: after the number, so Tab from the number reaches it and
    /// Enter from the number still sends.
    public enum Focus: Equatable, Sendable { case chip, field, displayName, cta }

    /// What the number is for, and so which code it gets.
    public enum Purpose: Equatable, Sendable {
        /// The account's number: changed, added, or verified again after a recovery.
        case account(PhoneFlow)
        /// Continue with phone (seed 004): nobody is signed in, and the number gets a sign-in code.
        case signIn
    }

    public var purpose: Purpose
    /// The number on the account, E.164, shown as "Current: …" when changing it.
    public var current: String?
    /// ISO code of the chosen country.
    public var countryISO: String
    public var field: TextField
    public var focus: Focus
    /// The code request is under way.
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for one number: sending that number is off until the limit passes;
    /// another number may be sent at once.
    public var limit: RateLimit?
    /// Continue with phone's optional display name (seed 004), sent with the code.
    public var displayName: DisplayNameInput
    /// A challenge whose code was refused only for the display name: sending the same number again goes back
    /// to that code with the corrected name rather than asking for another.
    public var refusedChallenge: SignInChallenge?
    /// The error shown is the hold on a deleted account's number: Contact support is offered beside it.
    public var isHeld = false

    public init(
        purpose: Purpose, current: String?, countryISO: String? = nil, number: String = "", focus: Focus = .field,
        isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil,
        displayName: DisplayNameInput = DisplayNameInput(), refusedChallenge: SignInChallenge? = nil
    ) {
        self.limit = limit
        self.displayName = displayName
        self.refusedChallenge = refusedChallenge
        self.purpose = purpose
        self.current = current
        self.countryISO =
            countryISO ?? current.flatMap { CountryCatalog.bundled.country(forE164: $0)?.iso } ?? Self.defaultISO
        field = TextField(value: number, placeholder: "Phone number", maxLength: Self.maxTyped)
        self.focus = focus
        self.isWorking = isWorking
        self.error = error
    }

    /// The account's number, in one of the phone flows.
    public init(
        flow: PhoneFlow, current: String?, countryISO: String? = nil, number: String = "", focus: Focus = .field,
        isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil
    ) {
        self.init(
            purpose: .account(flow), current: current, countryISO: countryISO, number: number, focus: focus,
            isWorking: isWorking, error: error, limit: limit)
    }

    /// Continue with phone, the country chip starting at the device's region.
    public static func signIn(region: String?, number: String = "") -> EnterPhoneScreen {
        EnterPhoneScreen(purpose: .signIn, current: nil, countryISO: country(ofRegion: region), number: number)
    }

    /// Tab's order: the display name's field only where there is one.
    var focusOrder: [Focus] { purpose == .signIn ? [.chip, .field, .displayName, .cta] : [.chip, .field, .cta] }

    static let defaultISO = "GE"

    /// The country of the device's region, when the catalog has it: where a number with no country yet starts.
    static func country(ofRegion region: String?) -> String? {
        region.flatMap { CountryCatalog.bundled.country(iso: $0)?.iso }
    }
    /// E.164 allows 15 digits; a little room is left for the spaces and dashes people type.
    static let maxDigits = 15
    static let maxTyped = 20
    static let signUpNote = "New here? This creates your account."
    static let textsCodeText = "We'll text you a code."
    static let tooLongText = "A phone number has at most \(maxDigits) digits: the rest was cut."
    static let takenText = "This number is already in use by another account."
    static let invalidText = "Enter a valid phone number."
    static let unchangedText = "This is already your number. Enter a new one."
    static let offlineText = OnScreenMessage.offline.text

    public var id: String { "enter-phone" }
    public var takesText: Bool { true }

    public var country: Country {
        CountryCatalog.bundled.country(iso: countryISO) ?? CountryCatalog.bundled.country(iso: Self.defaultISO)!
    }

    /// The number to send, or nil while what is typed does not fit the country.
    public var e164: String? { PhoneNumberRules.e164(typed: field.value, country: country) }

    /// Why Send code is dim while a typed number does not fit the country: its lengths (issue 28 item 18).
    var lengthHint: String? {
        guard error == nil, !field.value.isEmpty, e164 == nil else { return nil }
        var lengths = country.lengths.map(String.init)
        let last = lengths.popLast() ?? ""
        let count = lengths.isEmpty ? last : lengths.joined(separator: ", ") + " or " + last
        return "Numbers in \(country.name) have \(count) digits after \(country.dialCode)."
    }
    public func canSubmit(_ context: ScreenContext) -> Bool {
        e164 != nil && !isWorking && !isLimited(context) && displayName.problem == nil
    }

    func isLimited(_ context: ScreenContext) -> Bool { limit?.applies(to: e164, at: context.now) ?? false }

    public var needsClock: Bool { limit != nil }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(for: e164, at: context.now) }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        return []
    }

    var title: String {
        switch purpose {
        case .signIn: "Continue with phone"
        case .account(.reverifyPhone): "Verify your phone number"
        case .account(.addPhone): "Add phone number"
        case .account(.changePhone): "New phone number"
        }
    }

    var subtitle: String {
        switch purpose {
        case .signIn:
            return Self.signUpNote
        case .account(.addPhone):
            return "Use it to sign in and recover your account."
        case .account(.reverifyPhone):
            let old = current.map { " (\(PhoneNumberRules.display(e164: $0)))" } ?? ""
            return "Your old number\(old) or a new one: we'll text it a code."
        case .account(.changePhone):
            return current.map { "Current: \(PhoneNumberRules.display(e164: $0))" } ?? ""
        }
    }

    public enum Intent: Sendable { case next, previous, chooseCountry, send, support }
    public enum Reply: Equatable, Sendable {
        /// A code for the account's new (or re-verified) number.
        case code(Result<OTPRequestAccepted, APIError>)
        /// Continue with phone: a sign-in code.
        case signInCode(Result<SignInChallenge, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .nextField(next: .next, previous: .previous),
            focus == .chip
                ? KeyBinding([.enter], "Choose country", .chooseCountry) : KeyBinding([.enter], "Send code", .send),
        ] + (isHeld && error != nil ? [KeyBinding([.control("s")], "Contact support", .support)] : [])
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next, .previous:
            focus = FocusOrder.step(focusOrder, from: focus, forward: intent == .next) {
                $0 != .cta || canSubmit(context)
            }
        case .chooseCountry: return [.push(CountryPickerScreen(localeRegion: context.options.deviceRegion))]
        case .send: return submit(context)
        case .support: return [.contactSupport(typed: e164.map(SupportTicket.Who.phone))]
        }
        return []
    }

    /// Typing and pasting the number.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        if focus == .displayName { return displayName.handle(event) ? [] : nil }
        // Typing on the chip or the button still means the number: it goes to the field.
        if focus != .field, case .key(.character) = event { focus = .field }
        if focus != .field, case .paste = event { focus = .field }
        guard focus == .field else { return nil }
        if case .paste(let text) = event { return paste(text) }
        // Letters are never part of a number: refused with a word, not typed in.
        if case .key(.character(let c)) = event, c.isLetter {
            error = PhoneNumberInputProblem.letters.message
            return []
        }
        let before = field.value
        guard field.handle(event) else { return nil }
        // Backspace right after a group's space takes the digit before it, as a person means.
        if event == .key(.backspace), PhoneNumberRules.digits(of: field.value) == PhoneNumberRules.digits(of: before) {
            field.backspace()
        }
        regroup()
        if field.value != before { error = nil }
        return []
    }

    /// Shows the digits grouped as they are typed ("511 200 30"), the caret staying after the same digit: in
    /// threes while the number is short of its country's length, so a digit typed never moves a space, then as
    /// every screen shows it ("201 555 0123"). At most `maxDigits`. Anything but digits and separators is left as
    /// typed, for the send check to refuse.
    private mutating func regroup() {
        guard let typed = PhoneNumberRules.digits(of: field.value) else { return }
        let digits = String(typed.prefix(Self.maxDigits))
        let digitsBeforeCaret = min(field.value.prefix(field.cursor).filter(\.isNumber).count, digits.count)
        let grouped =
            PhoneNumberRules.e164(typed: digits, country: country) == nil
            ? PhoneNumberRules.groupedAsTyped(digits) : PhoneNumberRules.grouped(digits)
        var caret = 0
        var passed = 0
        for character in grouped where passed < digitsBeforeCaret {
            caret += 1
            if character.isNumber { passed += 1 }
        }
        field.setValue(grouped, cursor: caret)
    }

    /// A pasted number is cleaned (spaces, dashes, brackets) and a leading +CC picks the
    /// country; what cannot be a number is refused with the reason, the field kept.
    private mutating func paste(_ text: String) -> [Command] {
        switch PhoneNumberRules.normalize(pasted: text, current: country) {
        case .success(let input):
            countryISO = input.iso
            // A runaway paste (thousands of digits) is cut to what a number can hold, and says so.
            field.setValue(String(input.national.prefix(Self.maxDigits)))
            regroup()
            error = input.national.count > Self.maxDigits ? Self.tooLongText : nil
        case .failure(let problem):
            error = problem.message
        }
        return []
    }

    private mutating func submit(_ context: ScreenContext) -> [Command] {
        // Enter on a number that does not fit says so rather than nothing (issue 28 item 18).
        if e164 == nil, !field.value.isEmpty, !isWorking {
            error = Self.invalidText
            return []
        }
        guard canSubmit(context), let phone = e164 else { return [] }
        if purpose == .account(.changePhone), phone == current {
            error = Self.unchangedText
            return []
        }
        isWorking = true
        error = nil
        guard case .account(let flow) = purpose else {
            if let challenge = refusedChallenge, challenge.destination == phone, context.now < challenge.expiresAt {
                isWorking = false
                refusedChallenge = nil
                return [.push(EnterCodeScreen(signIn: challenge, channel: .phone, displayName: displayName.name))]
            }
            return [.call(Endpoint.StartSignInCode(channel: .phone, phone: phone), Reply.signInCode)]
        }
        // The limited session is the proof for re-verification; no re-auth token goes with it.
        let reauthToken = flow == .reverifyPhone ? nil : context.reauth?.reauthToken
        return [.call(Endpoint.RequestOtp(phone: phone, purpose: flow.purpose, reauthToken: reauthToken), Reply.code)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .code(.success(let accepted)):
            error = nil
            limit = nil
            guard case .account(let flow) = purpose else { return [] }
            return [.push(EnterCodeScreen(flow: flow, accepted: accepted))]
        case .signInCode(.success(let challenge)):
            error = nil
            limit = nil
            refusedChallenge = nil
            return [.push(EnterCodeScreen(signIn: challenge, channel: .phone, displayName: displayName.name))]
        case .code(.failure(let failure)), .signInCode(.failure(let failure)):
            return fail(failure, context)
        }
    }

    private mutating func fail(_ failure: APIError, _ context: ScreenContext) -> [Command] {
        isHeld = SupportTicket.isHold(failure)
        switch failure {
        case .taken:
            error = Self.takenText
        case .invalid:
            error = Self.invalidText
        case .server(_, ErrorCode.phoneUnchanged.rawValue, _):
            error = Self.unchangedText
        case .rateLimited(nil, let message, _):
            // No wait from the server: none is invented, and the button stays live.
            error = message
        case .rateLimited(let retryAfter?, let message, let kind):
            error = nil
            limit = RateLimit(target: e164, until: context.now + TimeInterval(retryAfter), kind: kind, message: message)
        case .reauthRequired:
            // Nobody is signed in on the way in: there is no "Verify it's you" to open.
            guard case .account(let flow) = purpose else {
                error = failure.message
                return []
            }
            error = nil
            return [.push(ReauthPickerScreen(flow: AnyFlow(flow)))]
        case .offline:
            error = Self.offlineText
        default:
            error = failure.message
        }
        return []
    }

    /// What comes back to this screen: a country from the picker, or the code screen's refused display name.
    public enum Choice: Equatable, Sendable {
        case country(CountryChoice)
        case displayNameRefused(DisplayNameRefused)
    }

    public mutating func receiveChoice(_ choice: Choice, _ context: ScreenContext) -> [Command] {
        let iso: String
        switch choice {
        case .displayNameRefused(let refused):
            displayName.serverError = refused.message
            refusedChallenge = refused.challenge
            focus = .displayName
            return []
        case .country(let country):
            guard CountryCatalog.bundled.country(iso: country.iso) != nil else { return [] }
            iso = country.iso
        }
        countryISO = iso
        // The old error was about the number in the old country.
        error = nil
        focus = .field
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        if purpose == .signIn {
            // Seed 003: a new account's onboarding counts this as step 1 of 4 (the number and its code).
            OnboardingProgress(step: 1).title(title, note: subtitle, into: &canvas)
            canvas.paragraph(Self.textsCodeText)
        } else {
            canvas.title(title, subtitle: subtitle)
        }
        let glyphs = context.glyphs
        let chipText = (glyphs == .ascii ? country.iso : country.flag) + " " + country.dialCode
        let chipWidth = DisplayWidth.of(chipText) + 6
        var number = field
        number.isFocused = focus == .field
        number.isDisabled = isWorking
        number.error = error
        // The number's box sits right of the chip: its error wraps in that width, as tall as it needs.
        canvas.draw(height: number.height(width: canvas.innerWidth - chipWidth - 1)) { grid, rect in
            let left = rect.x + Canvas.margin
            let chip = Rect(x: left, y: rect.y, width: chipWidth, height: 3)
            let chipFocused = focus == .chip
            grid.drawBox(
                chip, lines: chipFocused ? glyphs.focusBox : glyphs.box, style: chipFocused ? .accent : .border)
            let end = grid.put(
                chipText, at: Point(x: chip.x + 2, y: chip.y + 1), style: chipFocused ? .bold : .plain,
                maxX: chip.maxX - 1)
            grid.put(
                glyphs == .ascii ? "v" : "▾", at: Point(x: end + 1, y: chip.y + 1), style: .muted, maxX: chip.maxX - 1)
            let fieldX = chip.maxX + 1
            number.render(
                into: &grid,
                in: Rect(x: fieldX, y: rect.y, width: rect.maxX - Canvas.margin - fieldX, height: rect.height),
                glyphs: glyphs)
        }
        if let lengthHint { canvas.paragraph(lengthHint, style: .muted, spacing: 0) }
        if purpose == .signIn {
            canvas.field(displayName.shown(isFocused: focus == .displayName, isDisabled: isWorking))
        }
        canvas.button(
            "Send code", working: "Sending code…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: isWorking)
    }
}
