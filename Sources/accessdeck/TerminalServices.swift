import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ChildProcess
import CursesDriver
import Foundation
import Logging
import Synchronization
import TerminalKit

/// Clipboard through the terminal (OSC 52, so it works over SSH and in tmux) and URLs through
/// the desktop's opener.
struct TerminalServices: SystemServices {
    /// The session kept for Ctrl+P "Save bug report", and the client of its backend (the embedded one only).
    var bugReports: (session: SessionRecord, client: AccountClient)? = nil

    func copyToClipboard(_ text: String) {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }

    func saveExport(_ text: String, named name: String) -> Result<String, ExportFailure> {
        let url = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name)
        do {
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            return .success(name)
        } catch {
            return .failure(ExportFailure((error as NSError).localizedDescription))
        }
    }

    func saveBugReport(screen: String) async -> Result<String, ExportFailure> {
        guard let bugReports else { return .failure(ExportFailure("this app keeps no session to report")) }
        return await bugReports.session.save(screen: screen, client: bugReports.client)
    }

    func open(_ url: URL, failed: @escaping @Sendable () -> Void) {
        // xdg-open exits non-zero when it finds nothing to open the URL with (and env with 127 without it).
        let started = ChildProcess.launch("/usr/bin/env", ["xdg-open", url.absoluteString]) { status in
            if status != 0 { failed() }
        }
        if started == nil { failed() }
    }
}
