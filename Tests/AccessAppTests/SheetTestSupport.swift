import AccessApp

extension Sheet {
    /// The sheet with its destructive action chosen: it opens on Cancel, so a test moves up first.
    var onDestructive: Sheet {
        var sheet = self
        if let index = sheet.sheet.actions.firstIndex(where: \.isDestructive) {
            sheet.sheet.move(by: index - sheet.sheet.selectedAction)
        }
        return sheet
    }
}
