import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One server per database file (issue 25, item 11). Each server keeps its own `SessionLookupCache`, so a
/// second one on the same file went on accepting a token the first had logged out. The lock is a `flock`
/// on `<db>.lock` beside the database, held for the server's life: the kernel drops it when the process
/// ends, kill -9 included, so a crash never leaves a stale lock behind. Not on the database file itself:
/// SQLite locks it with `fcntl`, whose locks a process loses when it closes any descriptor of the file.
final class DatabaseLock: Sendable {
    static let suffix = ".lock"

    private let descriptor: Mutex<Int32?>

    private init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Takes the lock of the database at `databasePath`, or says which server holds it.
    static func acquire(databasePath: String) throws -> DatabaseLock {
        let path = databasePath + suffix
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, PrivateFiles.fileMode)
        guard descriptor >= 0 else {
            throw ReferenceBackend.ConfigurationError(
                "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK {
                throw ReferenceBackend.ConfigurationError(
                    "another accessdeck server is using \(databasePath) (it holds \(path)); stop it first, or "
                        + "pass another --db")
            }
            throw ReferenceBackend.ConfigurationError("cannot lock \(path): \(String(cString: strerror(reason)))")
        }
        _ = fchmod(descriptor, PrivateFiles.fileMode)
        return DatabaseLock(descriptor: descriptor)
    }

    /// Lets the next server in; later calls do nothing.
    func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    deinit { release() }
}
