import TerminalKit

/// What a bracketed paste may put into a field: printable text only.
public enum PasteSanitizer {
    /// Drops control characters (newlines, tabs, Esc, C1 codes), bidi controls and line/paragraph separators,
    /// so a pasted code or address cannot submit a form or inject an escape sequence.
    public static func sanitize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isDropped(scalar) { scalars.append(scalar) }
        return String(scalars)
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacters.isUnsafe(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

/// Collects what arrives between the paste markers into one event.
///
/// Inside a paste every input is text: keys that a pasted escape sequence happens to spell
/// (arrows, F-keys) are dropped rather than acted on.
public struct PasteAssembler: Sendable {
    public enum Input: Hashable, Sendable {
        case character(UInt32)
        case keyCode(Int32)
    }

    private var buffer: String.UnicodeScalarView?

    public init() {}

    public var isCollecting: Bool { buffer != nil }

    /// Returns `.consumed` for input that belongs to a paste, `.paste` when one completes,
    /// and `.passThrough` for input outside a paste.
    public mutating func feed(_ input: Input) -> Outcome {
        switch input {
        case .keyCode(KeyDecoder.Code.pasteStart):
            buffer = String.UnicodeScalarView()
            return .consumed
        case .keyCode(KeyDecoder.Code.pasteEnd):
            guard let collected = buffer else { return .consumed }
            buffer = nil
            return .paste(PasteSanitizer.sanitize(String(collected)))
        case .character(let code):
            guard buffer != nil else { return .passThrough }
            if let scalar = Unicode.Scalar(code) { buffer?.append(scalar) }
            return .consumed
        case .keyCode:
            return buffer == nil ? .passThrough : .consumed
        }
    }

    public enum Outcome: Hashable, Sendable {
        case passThrough
        case consumed
        case paste(String)
    }
}
