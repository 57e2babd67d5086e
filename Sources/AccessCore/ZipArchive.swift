import Foundation

/// A zip archive of stored (uncompressed) entries, written and read in memory: the bug report's one file
/// (issue 51 item 5). Stored entries with their CRC-32 open in every unzip, Finder and Explorer; the report's
/// largest part, the world's database, is some hundred KiB, so compression would buy little for a dependency.
/// The reader takes only what the writer makes (stored, no encryption, no zip64, one disk) and refuses the
/// rest with a `Problem` naming it, never trapping on a cut or a lie in the file.
public enum ZipArchive {
    public struct Entry: Equatable, Sendable {
        /// A relative path with `/` between folders: no leading `/`, no `..`, no backslash.
        public var name: String
        public var data: Data

        public init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Past these sizes an entry needs zip64, which this writer does not make.
    static let largestSize = Int(UInt32.max) - 1
    static let mostEntries = Int(UInt16.max)
    /// Version 2.0: what stored entries and folders need (APPNOTE 4.4.3.2).
    static let version: UInt16 = 20
    /// General purpose bit 11: the names are UTF-8.
    static let utf8Flag: UInt16 = 1 << 11
    static let localSignature: UInt32 = 0x0403_4b50
    static let centralSignature: UInt32 = 0x0201_4b50
    static let endSignature: UInt32 = 0x0605_4b50
    static let localHeaderSize = 30
    static let centralHeaderSize = 46
    static let endRecordSize = 22

    /// The archive of `entries`, in their order. Dated 1980-01-01 00:00 (DOS time's first day), so the same
    /// entries make the same bytes.
    public static func write(_ entries: [Entry]) throws(Problem) -> Data {
        guard entries.count <= mostEntries else { throw Problem("more than \(mostEntries) entries") }
        var names = Set<String>()
        var body = Data()
        var central = Data()
        for entry in entries {
            try checkName(entry.name)
            guard names.insert(entry.name).inserted else { throw Problem("two entries named '\(entry.name)'") }
            guard entry.data.count <= largestSize, body.count <= largestSize else {
                throw Problem("'\(entry.name)' does not fit in a zip without zip64")
            }
            let name = Data(entry.name.utf8)
            let crc = CRC32.checksum(entry.data)
            let offset = UInt32(body.count)
            body.append(le32: localSignature)
            body.append(le16: version)
            body.append(le16: utf8Flag)
            body.append(le16: 0)  // stored
            body.append(le16: 0)  // time 00:00
            body.append(le16: dosDay)
            body.append(le32: crc)
            body.append(le32: UInt32(entry.data.count))
            body.append(le32: UInt32(entry.data.count))
            body.append(le16: UInt16(name.count))
            body.append(le16: 0)  // extra
            body.append(name)
            body.append(entry.data)

            central.append(le32: centralSignature)
            central.append(le16: (3 << 8) | version)  // made by Unix, so the mode below counts
            central.append(le16: version)
            central.append(le16: utf8Flag)
            central.append(le16: 0)
            central.append(le16: 0)
            central.append(le16: dosDay)
            central.append(le32: crc)
            central.append(le32: UInt32(entry.data.count))
            central.append(le32: UInt32(entry.data.count))
            central.append(le16: UInt16(name.count))
            central.append(le16: 0)  // extra
            central.append(le16: 0)  // comment
            central.append(le16: 0)  // disk
            central.append(le16: 0)  // internal attributes
            central.append(le32: UInt32(0o100600) << 16)  // a regular file, the owner's alone
            central.append(le32: offset)
            central.append(name)
        }
        guard body.count <= largestSize else { throw Problem("the archive does not fit in a zip without zip64") }
        var archive = body
        archive.append(central)
        archive.append(le32: endSignature)
        archive.append(le16: 0)
        archive.append(le16: 0)
        archive.append(le16: UInt16(entries.count))
        archive.append(le16: UInt16(entries.count))
        archive.append(le32: UInt32(central.count))
        archive.append(le32: UInt32(body.count))
        archive.append(le16: 0)  // comment
        return archive
    }

    /// The entries of an archive, checked: every local header agrees with its central one, every CRC-32 holds,
    /// nothing overlaps or reaches past the file.
    public static func read(_ archive: Data) throws(Problem) -> [Entry] {
        let bytes = [UInt8](archive)
        // The end record, with no comment: it is the file's last 22 bytes.
        guard bytes.count >= endRecordSize else { throw Problem("too short to be a zip file") }
        let end = bytes.count - endRecordSize
        guard le32(bytes, end) == endSignature else {
            throw Problem("no end of central directory at the end (a zip with a comment is not one this wrote)")
        }
        guard le16(bytes, end + 4) == 0, le16(bytes, end + 6) == 0 else { throw Problem("a zip split over disks") }
        guard le16(bytes, end + 20) == 0 else { throw Problem("the end record announces a comment it does not hold") }
        let count = Int(le16(bytes, end + 8))
        guard Int(le16(bytes, end + 10)) == count else { throw Problem("the entry counts disagree") }
        let centralSize = Int(le32(bytes, end + 12))
        let centralStart = Int(le32(bytes, end + 16))
        guard centralStart <= end, centralSize == end - centralStart else {
            throw Problem("the central directory is not where the end record says")
        }
        var entries: [Entry] = []
        var names = Set<String>()
        var position = centralStart
        // Where the next local entry must start: entries follow one another from 0, as the writer lays them.
        var nextLocal = 0
        for index in 0..<count {
            guard position + centralHeaderSize <= end, le32(bytes, position) == centralSignature else {
                throw Problem("central entry \(index + 1) is cut or damaged")
            }
            let flags = le16(bytes, position + 8)
            guard flags & 0x0001 == 0 else { throw Problem("entry \(index + 1) is encrypted") }
            guard flags & 0x0008 == 0 else { throw Problem("entry \(index + 1) has a data descriptor") }
            guard le16(bytes, position + 10) == 0 else { throw Problem("entry \(index + 1) is compressed") }
            let crc = le32(bytes, position + 16)
            let size = Int(le32(bytes, position + 20))
            guard Int(le32(bytes, position + 24)) == size else { throw Problem("entry \(index + 1)'s sizes differ") }
            let nameLength = Int(le16(bytes, position + 28))
            let extraLength = Int(le16(bytes, position + 30))
            let commentLength = Int(le16(bytes, position + 32))
            let offset = Int(le32(bytes, position + 42))
            let nameStart = position + centralHeaderSize
            position = nameStart + nameLength + extraLength + commentLength
            guard position <= end else { throw Problem("central entry \(index + 1) is cut") }
            guard let name = String(validating: bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self) else {
                throw Problem("entry \(index + 1)'s name is not UTF-8")
            }
            try checkName(name)
            guard names.insert(name).inserted else { throw Problem("two entries named '\(name)'") }
            guard offset == nextLocal else { throw Problem("'\(name)' is not where the entry before it ends") }
            let local = offset
            guard local + localHeaderSize <= centralStart, le32(bytes, local) == localSignature else {
                throw Problem("'\(name)''s local header is cut or damaged")
            }
            guard le16(bytes, local + 8) == 0, le32(bytes, local + 14) == crc,
                Int(le32(bytes, local + 18)) == size, Int(le32(bytes, local + 22)) == size,
                Int(le16(bytes, local + 26)) == nameLength
            else { throw Problem("'\(name)''s local header disagrees with the central directory") }
            let dataStart = local + localHeaderSize + nameLength + Int(le16(bytes, local + 28))
            guard dataStart <= centralStart, size <= centralStart - dataStart else {
                throw Problem("'\(name)' reaches past the end of its data")
            }
            guard
                bytes[(local + localHeaderSize)..<(local + localHeaderSize + nameLength)]
                    .elementsEqual(bytes[nameStart..<(nameStart + nameLength)])
            else { throw Problem("'\(name)''s local header names another file") }
            let data = Data(bytes[dataStart..<(dataStart + size)])
            guard CRC32.checksum(data) == crc else { throw Problem("'\(name)' fails its CRC-32 check") }
            entries.append(Entry(name: name, data: data))
            nextLocal = dataStart + size
        }
        guard position == end else { throw Problem("the central directory holds more than its entries") }
        guard nextLocal == centralStart else { throw Problem("bytes between the last entry and the directory") }
        return entries
    }

    /// A name that unpacks inside the folder it is unpacked in, and nowhere else.
    static func checkName(_ name: String) throws(Problem) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0"),
            !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { throw Problem("'\(name)' is not a plain relative path") }
    }

    /// 1980-01-01 in DOS date form: (year - 1980) << 9 | month << 5 | day.
    static let dosDay: UInt16 = (1 << 5) | 1

    static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16
    }
}

/// CRC-32 as zip, gzip and PNG use it (IEEE 802.3, reflected, polynomial 0xEDB88320).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    fileprivate mutating func append(le32 value: UInt32) {
        append(le16: UInt16(value & 0xFFFF))
        append(le16: UInt16(value >> 16))
    }
}
