import Foundation

/// A helper the app starts and does not wait for (the desktop's URL opener), reaped in the background.
/// Foundation keeps every `Process` it started until its exit is waited for: without that wait each
/// opener stayed in memory for as long as the app ran, about 1 KB a launch (issue 34's soak).
public enum DetachedProcess {
    /// Starts `executable` with its output discarded; nil when it could not be started. `onExit` is
    /// told its exit status once it ends (on the reaping thread).
    @discardableResult
    public static func launch(
        _ executable: String, _ arguments: [String], onExit: (@Sendable (Int32) -> Void)? = nil
    ) -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        // A thread of its own: some openers run as long as the program they open, and a waiting worker of
        // the shared pools would hold one of the few threads everything else runs on.
        Thread {
            process.waitUntilExit()
            onExit?(process.terminationStatus)
        }.start()
        return process
    }
}
