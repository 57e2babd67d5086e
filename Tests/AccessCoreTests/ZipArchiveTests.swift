import AccessCore
import ChildProcess
import Foundation
import Testing

/// The bug report's zip (issue 51 item 5): what the writer makes, the reader and Info-ZIP's unzip read back;
/// what the reader is handed cut, flipped or forged, it refuses with a problem and never traps.
@Suite struct ZipArchiveTests {
    static let entries = [
        ZipArchive.Entry(name: "README.md", data: Data("# A bug report\n".utf8)),
        ZipArchive.Entry(name: "empty.txt", data: Data()),
        ZipArchive.Entry(name: "world/start.sqlite", data: Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) })),
        ZipArchive.Entry(name: "Bildschirm-ä.txt", data: Data("Телефон обновлён\n".utf8)),
    ]

    @Test func crc32IsTheOneZipUses() {
        // The check value of CRC-32/ISO-HDLC (the catalogue of parametrised CRC algorithms).
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Data()) == 0)
    }

    @Test func whatIsWrittenReadsBackTheSame() throws {
        let archive = try ZipArchive.write(Self.entries)
        #expect(try ZipArchive.read(archive) == Self.entries)
        // The same entries make the same bytes: no time of day in them.
        #expect(try ZipArchive.write(Self.entries) == archive)
        #expect(try ZipArchive.read(ZipArchive.write([])) == [])
    }

    @Test func infoZipsUnzipTestsAndExtractsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.zip")
        try ZipArchive.write(Self.entries).write(to: file)
        let tested = try ChildProcess.run("/usr/bin/unzip", ["-tq", file.path])
        #expect(tested.status == 0, "\(String(decoding: tested.output + tested.errors, as: UTF8.self))")
        let out = folder.appendingPathComponent("out")
        let extracted = try ChildProcess.run("/usr/bin/unzip", ["-q", file.path, "-d", out.path])
        #expect(extracted.status == 0, "\(String(decoding: extracted.errors, as: UTF8.self))")
        for entry in Self.entries {
            #expect(FileManager.default.contents(atPath: out.appendingPathComponent(entry.name).path) == entry.data)
        }
        let mode =
            try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("README.md").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func everyCutIsRefused() throws {
        let archive = try ZipArchive.write(Self.entries)
        for length in 0..<archive.count {
            #expect(throws: ZipArchive.Problem.self, "cut at \(length)") {
                try ZipArchive.read(archive.prefix(length))
            }
        }
    }

    /// A flipped bit anywhere is refused, or lands where it changes nothing read (the date, the version made by,
    /// the attributes): never a different entry.
    @Test func aFlippedBitIsRefusedOrChangesNothingRead() throws {
        let archive = try ZipArchive.write(Array(Self.entries.prefix(2)))
        var accepted = 0
        for index in 0..<archive.count {
            var flipped = archive
            flipped[index] ^= 0x10
            if let entries = try? ZipArchive.read(flipped) {
                #expect(entries == Array(Self.entries.prefix(2)), "byte \(index)")
                accepted += 1
            }
        }
        // Per entry, the local version, flags, time and date (8 bytes) and the central version made by and
        // needed, flags, time, date, disk, internal and external attributes (18): nothing the reader acts on.
        #expect(accepted <= 2 * 26)
    }

    @Test func anEntryThatFailsItsChecksumIsRefused() throws {
        var archive = try ZipArchive.write([ZipArchive.Entry(name: "a.txt", data: Data("hello".utf8))])
        // The data starts after the 30-byte local header and the 5-byte name.
        archive[35] = UInt8(ascii: "j")
        #expect(throws: ZipArchive.Problem("'a.txt' fails its CRC-32 check")) { try ZipArchive.read(archive) }
    }

    @Test func aNameThatLeavesTheFolderIsRefusedBothWays() throws {
        for name in ["../evil", "/etc/passwd", "a/../../b", "a\\b", "", "a//b", "./a"] {
            #expect(throws: ZipArchive.Problem.self, "\(name)") {
                try ZipArchive.write([ZipArchive.Entry(name: name, data: Data())])
            }
        }
        // Forged after writing: the same length in both headers.
        let archive = try ZipArchive.write([ZipArchive.Entry(name: "xx/evil", data: Data("x".utf8))])
        let forged = archive.replacing(Data("xx/evil".utf8), with: Data("../evil".utf8))
        #expect(forged != archive)
        #expect(throws: ZipArchive.Problem("'../evil' is not a plain relative path")) { try ZipArchive.read(forged) }
    }

    @Test func compressedEncryptedCommentedAndDuplicateArchivesAreRefused() throws {
        let one = try ZipArchive.write([ZipArchive.Entry(name: "a.txt", data: Data("hello".utf8))])
        let centralStart = 30 + 5 + 5
        var compressed = one
        compressed[8] = 8  // deflate, local
        compressed[centralStart + 10] = 8  // and central
        #expect(throws: ZipArchive.Problem("entry 1 is compressed")) { try ZipArchive.read(compressed) }
        var encrypted = one
        encrypted[centralStart + 8] |= 1
        #expect(throws: ZipArchive.Problem("entry 1 is encrypted")) { try ZipArchive.read(encrypted) }
        var commented = one
        commented[commented.count - 2] = 3
        commented.append(contentsOf: Array("hey".utf8))
        #expect(throws: ZipArchive.Problem.self) { try ZipArchive.read(commented) }
        #expect(throws: ZipArchive.Problem("two entries named 'a.txt'")) {
            try ZipArchive.write([
                ZipArchive.Entry(name: "a.txt", data: Data()), ZipArchive.Entry(name: "a.txt", data: Data()),
            ])
        }
        #expect(throws: ZipArchive.Problem("too short to be a zip file")) { try ZipArchive.read(Data("PK".utf8)) }
        #expect(throws: ZipArchive.Problem.self) { try ZipArchive.read(Data(count: 4096)) }
    }
}
