import ChildProcess
import Foundation
import QRCode
import Testing

/// libqrencode through CQRencode: the version it picks at level M in byte mode, and the modules read
/// back by an independent decoder (zbarimg, Debian's zbar-tools) from a picture of nothing but them.
@Suite struct QRMatrixTests {
    /// The byte-mode capacities of level M (ISO/IEC 18004 table 7): the last text of each length that fits.
    @Test(arguments: [(1, 14, 21), (2, 15, 25), (2, 26, 25), (3, 27, 29), (8, 152, 49), (40, 2331, 177)])
    func theSmallestVersionThatHoldsTheTextAtLevelM(version: Int, bytes: Int, size: Int) throws {
        let matrix = try #require(QRMatrix(text: String(repeating: "a", count: bytes)))
        #expect(matrix.version == version)
        #expect(matrix.size == size)
        #expect(matrix.size == 17 + 4 * matrix.version)
    }

    @Test func aTextTooLongForVersion40OrEmptyHasNoCode() {
        #expect(QRMatrix(text: String(repeating: "a", count: 2332)) == nil)
        #expect(QRMatrix(text: "") == nil)
    }

    /// The top-left finder pattern: a dark 7×7 ring with a dark 3×3 centre, the separator light; outside
    /// the symbol every module is light (what a quiet zone is made of).
    @Test func theFinderPatternIsWhereTheSpecPutsIt() throws {
        let matrix = try #require(QRMatrix(text: "otpauth://totp/AccessDeck"))
        for i in 0..<7 {
            #expect(matrix.isDark(x: i, y: 0) && matrix.isDark(x: 0, y: i) && matrix.isDark(x: i, y: 6))
        }
        #expect(!matrix.isDark(x: 1, y: 1) && matrix.isDark(x: 2, y: 2) && matrix.isDark(x: 4, y: 4))
        #expect(!matrix.isDark(x: 7, y: 0) && !matrix.isDark(x: 0, y: 7))
        #expect(!matrix.isDark(x: -1, y: 0) && !matrix.isDark(x: matrix.size, y: 0))
    }

    @Test(
        .enabled(if: zbarimg != nil, zbarMissing),
        arguments: [
            "HELLO WORLD",
            "otpauth://totp/AccessDeck:alex@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=AccessDeck"
                + "&algorithm=SHA1&digits=6&period=30",
        ])
    func zbarimgReadsTheTextBack(text: String) throws {
        let matrix = try #require(QRMatrix(text: text))
        #expect(try Self.decode(matrix) == text)
    }

    // MARK: - zbarimg

    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let zbarMissing: Comment =
        "skipped: zbarimg is missing; `make deps` installs Debian's zbar-tools (sudo apt-get install zbar-tools)"

    /// The matrix as a plain PBM (1 is black), 4 px a module with a 4-module quiet zone, read by zbarimg.
    static func decode(_ matrix: QRMatrix) throws -> String {
        let scale = 4
        let quiet = 4
        let side = (matrix.size + 2 * quiet) * scale
        var pbm = "P1\n\(side) \(side)\n"
        for py in 0..<side {
            let row = (0..<side).map { px in
                matrix.isDark(x: px / scale - quiet, y: py / scale - quiet) ? "1" : "0"
            }
            pbm += row.joined(separator: " ") + "\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try pbm.write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try ChildProcess.run(zbarimg!, ["--raw", "-q", file.path])
        try #require(outcome.status == 0, "zbarimg: \(String(decoding: outcome.errors, as: UTF8.self))")
        var text = String(decoding: outcome.output, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
