import AccessCore
import Hummingbird
import NIOCore
import Synchronization

/// Per-request context. `decision` and `capture` are shared boxes so a handler deep inside can tell the
/// journal which rule decided the answer and what was sent, even though contexts are passed by value.
struct AppContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    let decision: Decision
    let capture: JournalCapture

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        decision = Decision()
        capture = JournalCapture()
    }

    /// Bodies are read by `JSONBody` with a much smaller cap; this is only the framework's own ceiling.
    var maxUploadSize: Int { 2 * 1024 * 1024 }
}

final class Decision: Sendable {
    private let rule = Mutex<Rule?>(nil)

    func set(_ value: Rule) {
        rule.withLock { $0 = value }
    }

    var value: Rule? { rule.withLock { $0 } }
}
