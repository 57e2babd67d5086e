/// A password on its way to the backend. It compares by value (so tests can assert the call)
/// but never prints: description, debug description and reflection all show a mask, so a
/// dump of the state or the effects cannot leak it.
public struct Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable,
    ExpressibleByStringLiteral
{
    public let value: String

    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }

    public var description: String { "••••" }
    public var debugDescription: String { "••••" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
