import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owner-only files: the database (accounts, digests, sealed outbox) and its key file (`StoreKey`).
enum PrivateFiles {
    static let fileMode: mode_t = 0o600
    static let directoryMode: mode_t = 0o700

    /// Creates the file 0600 if missing, so that SQLite (which copies the main file's mode onto -wal and
    /// -shm) never makes any of the three readable by others, whatever the umask.
    static func prepareDatabase(at path: String) throws {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard descriptor >= 0 else {
            throw StoreError("cannot create the database file \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        restrictDatabase(at: path)
    }

    /// Copies `source` to a new file at `path`, 0600 from its creation; false (and no file at `path`) when
    /// anything fails.
    static func copy(_ source: String, to path: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard output >= 0 else { return false }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return true }
            let written = count < 0 ? -1 : buffer.withUnsafeBytes { write(output, $0.baseAddress, count) }
            guard written == count else {
                unlink(path)
                return false
            }
        }
    }

    /// The key file's bytes, or nil when there is none. Tightened to 0600 if it was left looser.
    static func readKey(at path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw StoreError("cannot read the key file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        _ = fchmod(descriptor, fileMode)
        var bytes = [UInt8](repeating: 0, count: 256)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                throw StoreError("cannot read the key file \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            total += count
        }
        return Data(bytes[0..<total])
    }

    /// Writes a new key file, 0600 from its creation; never replaces one (O_EXCL).
    static func createKey(_ key: Data, at path: String) throws {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard descriptor >= 0 else {
            throw StoreError("cannot create the key file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == key.count, fsync(descriptor) == 0 else {
            unlink(path)
            throw StoreError("cannot write the key file \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Also tightens files an older version left 0644. A file someone else owns is left as it is:
    /// fchmod would fail, and SQLite will report anything that matters when it opens the file.
    static func restrictDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm"] {
            restrict(path + suffix)
        }
    }

    /// Opened without following a symbolic link and changed through that descriptor: `chmod` on a name follows
    /// one, so a `NAME.sqlite-wal` planted in the data directory pointing elsewhere had that file's mode changed
    /// (issue 45 item 8). Only a regular file is touched; non-blocking, so a FIFO put there cannot hold the open.
    private static func restrict(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        _ = fchmod(descriptor, fileMode)
    }

    /// `--data-dir`: made 0700 when missing; an existing one is tightened to 0700, since whoever may write in it
    /// may plant a file or a link where a world's file will be. Refused when it is a symbolic link (whoever
    /// controls the link decides where every world goes), not a directory, or another user's.
    static func prepareDirectory(at path: String) throws {
        // "dir/" would follow a link named dir despite O_NOFOLLOW.
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard mkdir(path, directoryMode) == 0 || errno == EEXIST else {
            throw StoreError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let reason = errno
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw StoreError("\(path) is a symbolic link: give the directory itself")
            }
            if reason == ENOTDIR { throw StoreError("\(path) is not a directory") }
            throw StoreError("cannot open \(path): \(String(cString: strerror(reason)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw StoreError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == getuid() else {
            throw StoreError("\(path) belongs to another user: give a directory of your own")
        }
        if info.st_mode & 0o077 != 0, fchmod(descriptor, directoryMode) != 0 {
            throw StoreError("cannot make \(path) private (0700): \(String(cString: strerror(errno)))")
        }
    }

    /// Sets a closed world's file time to its last use on the registry's clock: `--max-kept-worlds` removes the
    /// one unused longest first, and the time a close happens to write is not when the world was last used.
    static func setModificationTime(of path: String, to date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        let times = [stamp, stamp]
        _ = utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW)
    }

    /// The file's modification time; nil when it cannot be read or is not a regular file.
    static func modificationTime(of path: String) -> Date? {
        // Not following a link, as lstat.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return attributes[.modificationDate] as? Date
    }
}

/// The embedded backend's database when no `--db` is given: one file per process in a directory only
/// this user can enter, so another local user can neither read it nor plant a file where it will be.
/// A process that died without cleaning up (kill -9, a closed terminal) leaves its file; the next
/// start removes every file whose process is gone.
enum TemporaryDatabase {
    static let filePrefix = "db-"

    static func makePath(base: URL = FileManager.default.temporaryDirectory) throws -> String {
        let directory = try privateDirectory(base: base)
        sweep(directory: directory)
        return directory + "/\(filePrefix)\(getpid())-\(UUID().uuidString.lowercased()).sqlite"
    }

    /// `$TMPDIR/accessdeck-UID`, created 0700. If that name is taken by something this user does not own
    /// (or is not a real directory), a fresh private directory is made instead of trusting it.
    static func privateDirectory(base: URL) throws -> String {
        let path = base.appendingPathComponent("accessdeck-\(getuid())").path
        if mkdir(path, PrivateFiles.directoryMode) == 0 || errno == EEXIST {
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() {
                if info.st_mode & 0o077 != 0 { _ = chmod(path, PrivateFiles.directoryMode) }
                return path
            }
        }
        var template = Array(base.appendingPathComponent("accessdeck-\(getuid())-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StoreError("cannot create a private temporary directory: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Removes database files (and their -wal/-shm) left by processes that no longer exist. A pid that
    /// has been reused keeps its file until that process ends too; it is never deleted while in use.
    static func sweep(directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names {
            guard let pid = owningProcess(of: name), !isAlive(pid) else { continue }
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// `db-PID-UUID.sqlite`, `…-wal` or `…-shm` → PID; anything else is not ours to remove.
    static func owningProcess(of name: String) -> pid_t? {
        guard name.hasPrefix(filePrefix), name.contains(".sqlite") else { return nil }
        let rest = name.dropFirst(filePrefix.count)
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[rest.startIndex..<dash]), pid > 0 else {
            return nil
        }
        return pid
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}

struct StoreError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
