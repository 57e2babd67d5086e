import Foundation

/// The bounds on what a request may carry that a rule of docs/RULES.md states and conform sends one past: the
/// backend enforces them and conform's checks and titles say them, so each lives here once.
public enum RequestBounds {
    /// Bytes of a request body; no request of the contract comes near it (`http.payload_too_large`).
    public static let bodyBytes = 64 * 1024
    /// Characters of a profile photo's path or URL (`profile.photo_invalid`).
    public static let maxPhotoLength = 1024
    /// Entries the journal keeps, and so the most `?limit=` may ask for (`admin.invalid_parameter`).
    public static let journalCapacity = 500
    /// One move of the admin clock goes at most a year ahead, never back (`admin.clock`).
    public static let longestClockAdvance: TimeInterval = 366 * 24 * 60 * 60
    /// Characters of a device's name (`device.invalid`).
    public static let maxDeviceNameLength = 100
    /// Curve25519 public keys are 32 bytes (`device.invalid`).
    public static let devicePublicKeyBytes = 32
}
