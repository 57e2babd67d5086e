/// Tab and Shift+Tab over a form's stops, one definition for every form. A stop that cannot be
/// used now (a call to action whose form is not ready) is passed over, as a platform's disabled
/// control is: focus never rests where Enter would do nothing.
enum FocusOrder {
    static func step<Stop: Equatable>(
        _ stops: [Stop], from current: Stop, forward: Bool, isAvailable: (Stop) -> Bool = { _ in true }
    ) -> Stop {
        guard !stops.isEmpty else { return current }
        let start = stops.firstIndex(of: current) ?? 0
        let step = forward ? 1 : -1
        for distance in 1...stops.count {
            let candidate = stops[(start + distance * step + stops.count * stops.count) % stops.count]
            if isAvailable(candidate) { return candidate }
        }
        return current
    }
}
