import HTTPTypes

extension HTTPFields {
    /// What `self[name]` gives — nil when there is no such field, the values of a repeated one joined — without
    /// building a new string for a field that is there once: the subscript joins even one value into a new
    /// string, some thousands of instructions for each header an every-request check reads (issue 34 item 2).
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
