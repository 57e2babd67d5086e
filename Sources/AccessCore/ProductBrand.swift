/// The product the walked app belongs to, as its screens name it and as an authenticator app lists its codes:
/// one definition for the app's `Brand.default` and the backend's `otpauth://` issuer (issue 48 item 18: the
/// authenticator entry said AccessDeck, the tool, where every screen says 321Fit).
public enum ProductBrand {
    public static let name = "321Fit"
    public static let supportEmail = "support@321.fit"
}
