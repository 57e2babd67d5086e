import AccessAPI
import Foundation
import TerminalKit

extension CountryPickerScreen {
    static func overPhoneScreen(_ query: String) -> [AnyScreen] {
        [
            AnyScreen(EnterPhoneScreen(flow: .changePhone, current: PhoneGallery.current)),
            AnyScreen(CountryPickerScreen(localeRegion: "GE", query: query)),
        ]
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("country-picker:default", "Popular first, then every country") { now in
                var state = SampleData.state([], now: now)
                state.stack += overPhoneScreen("")
                return state
            },
            GalleryEntry("country-picker:search-ge", "Searching \"ge\": names and ISO codes") { now in
                var state = SampleData.state([], now: now)
                state.stack += overPhoneScreen("ge")
                return state
            },
            GalleryEntry("country-picker:search-dial", "Searching \"+99\": dial codes") { now in
                var state = SampleData.state([], now: now)
                state.stack += overPhoneScreen("+99")
                return state
            },
            GalleryEntry("country-picker:empty", "Nothing matches") { now in
                var state = SampleData.state([], now: now)
                state.stack += overPhoneScreen("zzz")
                return state
            },
        ]
    }
}
