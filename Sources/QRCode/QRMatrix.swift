import CQRencode

/// The modules of a QR code for a text, as libqrencode encodes it: byte mode (the UTF-8 of the text),
/// error correction level M (15 % of the symbol can be lost to a glare or a cell gap), the smallest
/// version that holds it. No quiet zone: whoever draws it adds one.
public struct QRMatrix: Sendable, Equatable {
    /// Modules on a side: 21 for version 1, four more for each version after it.
    public let size: Int
    /// The QR version libqrencode chose (1–40).
    public let version: Int
    /// Row by row, `true` for a dark module.
    private let modules: [Bool]

    /// nil when the text does not fit in a version 40 symbol at level M (2,331 bytes) or is empty.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        // Version 0 asks for the smallest version that fits; the encoder answers NULL (errno ERANGE)
        // when none does.
        guard let code = QRcode_encodeData(Int32(bytes.count), bytes, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        version = Int(code.pointee.version)
        // Each byte's lowest bit is the module's colour; the other bits say what kind of module it is.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) it is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}
