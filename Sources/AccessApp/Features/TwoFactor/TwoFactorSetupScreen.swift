import AccessAPI
import AccessCore
import Foundation
import QRCode
import TerminalKit

/// Setting up two-factor (after "Verify it's you"), in two steps so each has the room it needs. Scan: the
/// `otpauth://` URI as a QR code alone on the screen, since a typical one (version 6–8 with its quiet zone)
/// is 25–29 rows high and an 80×24 terminal has no room for anything beside it; "k" shows the secret in
/// groups of four instead, and "c" copies it (OSC 52). A terminal too short for the code gets the key at
/// once and says how tall it must be; a wide one shows both side by side. Confirm: the six boxes for the
/// app's first code, wrong codes inline with the attempts left (the code-entry core, `CodeEntry`). The pending set-up's expiry is counted
/// from the clock on both steps; once it is over (or five wrong codes killed it), "r" starts again.
public struct TwoFactorSetupScreen: ScreenModel {
    public enum Stage: Equatable, Sendable { case scan, confirm }

    /// What the backend made, pending until its first code: masked in every dump of the state.
    public struct Pending: Equatable, Sendable {
        public var secret: Secret
        public var uri: Secret
        public var expiresAt: Date

        public init(secret: String, uri: String, expiresAt: Date) {
            self.secret = Secret(secret)
            self.uri = Secret(uri)
            self.expiresAt = expiresAt
        }

        /// The secret in groups of four (the backend's Base32, read as an app would).
        var grouped: String { TOTP(base32: secret.value)?.base32Grouped ?? secret.value }
    }

    public var pending: Pending?
    public var stage: Stage
    /// The key in place of the QR code ("Can't scan?").
    public var showsKey: Bool
    /// The first code's boxes and what its answer said; `isWorking` while the set-up is made, too.
    public var entry: CodeEntry
    /// Making the set-up failed, in words.
    public var error: String?
    /// The pending set-up is gone on the server (five wrong codes, or not found): only "r" goes on.
    public var isDead: Bool
    /// The QR code and the key are drawn hidden (recordings, `play`).
    public var isConcealed = false

    public init(
        pending: Pending? = nil, stage: Stage = .scan, showsKey: Bool = false, digits: String = "",
        refusal: CodeEntry.Refusal? = nil, error: String? = nil, isWorking: Bool = true, isDead: Bool = false
    ) {
        self.pending = pending
        self.stage = stage
        self.showsKey = showsKey
        entry = CodeEntry(digits: digits, refusal: refusal, isWorking: isWorking)
        self.error = error
        self.isDead = isDead
    }

    var isWorking: Bool { entry.isWorking }

    public var id: String { "two-factor-setup" }
    public var takesText: Bool { stage == .confirm }
    /// The first code, from the pending secret on screen: a tape's `code` types it.
    public var secretEntry: SecretEntry? {
        stage == .confirm ? .authenticator(setupSecret: pending?.secret) : nil
    }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.isConcealed = true
        copy.entry.otp.isConcealed = true
        return copy
    }

    public var needsClock: Bool { pending != nil && !isDead }

    public func banner(_ context: ScreenContext) -> Banner? { entry.banner(at: context.now) }

    func isExpired(_ context: ScreenContext) -> Bool {
        isDead || pending.map { context.now >= $0.expiresAt } ?? false
    }

    public enum Intent: Sendable { case next, back, toggleKey, copy, restart, verify }
    public enum Reply: Equatable, Sendable {
        case started(Result<TwoFactorSetup, APIError>)
        case confirmed(Result<RecoveryCodes, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        guard pending != nil, !isWorking || stage == .confirm else { return [] }
        if isExpired(context) { return isWorking ? [] : [KeyBinding([.character("r")], "Start again", .restart)] }
        switch stage {
        case .scan:
            return [
                KeyBinding([.enter], "Next", .next),
                KeyBinding([.character("k")], showsKey ? "Show the QR code" : "Show the key", .toggleKey),
                KeyBinding([.character("c")], "Copy key", .copy),
            ]
        case .confirm:
            var bindings = [KeyBinding([.escape], "Back", Intent.back)]
            if entry.canSend(at: context.now) { bindings.insert(KeyBinding([.enter], "Verify", .verify), at: 0) }
            return bindings
        }
    }

    public func onAppear(_ context: ScreenContext) -> [Command] { start(context) }

    private func start(_ context: ScreenContext) -> [Command] {
        [.call(Endpoint.StartTwoFactorSetup(reauthToken: context.reauth?.reauthToken), Reply.started)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next:
            stage = .confirm
        case .back:
            stage = .scan
        case .toggleKey:
            showsKey.toggle()
        case .copy:
            guard let pending else { return [] }
            return [.run(.copy(pending.secret.value)), .showToast("Copied the key")]
        case .restart:
            entry.otp.clear()
            entry.refusal = nil
            entry.isWorking = true
            isDead = false
            error = nil
            stage = .scan
            return start(context)
        case .verify:
            return verify(context)
        }
        return []
    }

    /// Typing and pasting the first code (the confirm step).
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard stage == .confirm else { return nil }
        guard let typed = entry.type(event, closed: isExpired(context), at: context.now) else { return nil }
        return typed == .full ? verify(context) : []
    }

    private mutating func verify(_ context: ScreenContext) -> [Command] {
        guard entry.canSend(closed: isExpired(context), at: context.now) else { return [] }
        entry.sending()
        return [.call(Endpoint.ConfirmTwoFactorSetup(code: entry.otp.code), Reply.confirmed)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        entry.isWorking = false
        switch reply {
        case .started(.success(let setup)):
            pending = Pending(secret: setup.secret, uri: setup.otpauthUri, expiresAt: setup.expiresAt)
            return []
        case .started(.failure(.reauthRequired)):
            // The 15-minute window closed on the way here: verify again, which opens this screen anew.
            return [.push(ReauthPickerScreen(flow: .setUpTwoFactor))]
        case .started(.failure(.server(409, _, _))):
            error = "Two-factor authentication is already on."
            return TwoFactor.methods(context.methods, on: true)
        case .started(.failure(let failure)):
            error = failure.message
            return []
        case .confirmed(.success(let codes)):
            return TwoFactor.methods(context.methods, on: true) + [
                .replaceTop(RecoveryCodesScreen(purpose: .setUp, codes: codes.recoveryCodes))
            ]
        case .confirmed(.failure(let failure)):
            switch entry.refused(failure, now: context.now) {
            case nil:
                break
            case .codeIncorrect?, .server(404, _, _)?:
                // Five wrong codes killed the pending set-up (or it was gone): a new one is the way on.
                isDead = true
                entry.refusal = .message(Self.deadText)
            case let other?:
                entry.otp.startsOver = true
                entry.refusal = .message(other.message)
            }
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        entry.tick(at: context.now)
        return []
    }

    static let deadText = "This set-up is no longer valid. Press r to start again."
    static let expiredText = "This set-up expired. Press r to start again."

    // MARK: - View

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Set up two-factor", subtitle: TwoFactor.subtitle)
        guard let pending else {
            if let error {
                canvas.paragraph(error, style: .danger)
            } else {
                canvas.paragraph("Making your key…", style: .muted)
            }
            return
        }
        if isExpired(context) {
            canvas.paragraph(isDead ? (entry.refusalText ?? Self.deadText) : Self.expiredText, style: .danger)
            if isWorking { canvas.paragraph("Working…", style: .muted) }
            return
        }
        switch stage {
        case .scan: scan(pending, into: &canvas, context)
        case .confirm: confirm(pending, into: &canvas, context)
        }
    }

    private func expiry(_ pending: Pending, _ context: ScreenContext) -> String {
        let left = Banner.secondsLeft(until: pending.expiresAt, now: context.now)
        return "Set-up expires in \(TextLayout.countdown(seconds: left))"
    }

    /// The QR code alone (with one line under it), the key in its place, or both side by side.
    private func scan(_ pending: Pending, into canvas: inout Canvas, _ context: ScreenContext) {
        let block = SetupQR.block(pending.uri.value)
        let cells = block?.size(glyphs: context.glyphs)
        let keyLines = Self.keyLines(pending, concealed: isConcealed)
        // Beside the QR code: the words of the key view, at most this wide.
        let sideWidth = 36
        if !showsKey, let block, let cells, cells.rows + 1 <= canvas.remaining.height, cells.cols <= canvas.innerWidth {
            if canvas.innerWidth >= cells.cols + 2 + sideWidth {
                let top = canvas.cursorY
                let right = canvas.left + cells.cols + 2
                drawQR(block, at: Point(x: canvas.left, y: top), into: &canvas, glyphs: context.glyphs)
                var y = top + 1
                let side =
                    ["Scan this with your", "authenticator app.", "", "Can't scan? Type this key:"] + keyLines + [
                        "", expiry(pending, context), "", "Enter when your app shows a code.",
                    ]
                for line in side {
                    let style: Style = keyLines.contains(line) ? Style.accent.with(.bold) : .plain
                    canvas.grid.put(line, at: Point(x: right, y: y), style: style, maxX: canvas.area.maxX)
                    y += 1
                }
                canvas.skip(max(cells.rows, side.count + 1))
                return
            }
            let x = canvas.area.x + max(0, (canvas.area.width - cells.cols) / 2)
            drawQR(block, at: Point(x: x, y: canvas.cursorY), into: &canvas, glyphs: context.glyphs)
            canvas.skip(cells.rows)
            canvas.centered(
                "Scan with your authenticator app · k shows the key · \(expiry(pending, context))", style: .muted,
                spacing: 0)
            return
        }
        canvas.paragraph("Type this key into your authenticator app (time-based, \(TOTP.digits) digits):")
        for line in keyLines { canvas.centered(line, style: Style.accent.with(.bold), spacing: 0) }
        canvas.skip(1)
        if !showsKey, let cells {
            // The title bar, the line under the code and the footer: what the code needs besides its rows.
            canvas.paragraph(
                "This window is too small for the QR code: make it at least \(cells.cols + 4)×\(cells.rows + 5)"
                    + " to scan it.",
                style: .muted)
        }
        canvas.paragraph("It shows as AccessDeck in your app. c copies the key.", style: .muted)
        canvas.centered(expiry(pending, context), style: .muted)
        canvas.paragraph("Press Enter when your app shows a 6-digit code.")
    }

    private func drawQR(_ block: QRCodeBlock, at origin: Point, into canvas: inout Canvas, glyphs: Glyphs) {
        if isConcealed {
            canvas.grid.put("[QR code hidden in recordings]", at: origin, style: .muted, maxX: canvas.area.maxX)
            return
        }
        block.render(into: &canvas.grid, at: origin, glyphs: glyphs)
    }

    /// The grouped key, split in lines of four groups so it reads like an app's own key screen.
    static func keyLines(_ pending: Pending, concealed: Bool) -> [String] {
        let groups = pending.grouped.split(separator: " ").map { concealed ? "••••" : String($0) }
        return stride(from: 0, to: groups.count, by: 4).map {
            groups[$0..<min($0 + 4, groups.count)].joined(separator: " ")
        }
    }

    private func confirm(_ pending: Pending, into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.paragraph("Enter the 6-digit code your authenticator app shows for AccessDeck.")
        entry.draw(into: &canvas, context)
        if isWorking { canvas.centered("Verifying…", style: .muted) }
        canvas.centered(expiry(pending, context), style: .muted)
        canvas.paragraph("Esc goes back to the QR code and the key.", style: .muted)
    }
}

/// The set-up's QR code: libqrencode's modules (`QRMatrix`) drawn in half blocks (`QRCodeBlock`).
enum SetupQR {
    static func block(_ uri: String) -> QRCodeBlock? {
        guard let matrix = QRMatrix(text: uri) else { return nil }
        return QRCodeBlock(modules: matrix.size) { matrix.isDark(x: $0, y: $1) }
    }
}
