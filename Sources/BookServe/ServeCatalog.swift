import Foundation
import BookConfig
import BookRenderKit

/// The themes and print profiles of the service's own `templates/`: what a client may name. A name
/// that is not there is refused at once, with the names that are, never later by a job's export.
struct ServeCatalog: Sendable {
    var themes: [String]
    var profiles: [String]

    /// Read once when the service starts; an empty catalog (no templates found) refuses nothing,
    /// leaving the export to say what is missing.
    static func load() -> ServeCatalog {
        guard let resources = try? ResourceLocator.locate() else { return ServeCatalog(themes: [], profiles: []) }
        return ServeCatalog(themes: Theme.available(in: resources.templates),
                            profiles: PrintProfile.available(in: resources.profiles))
    }

    func check(_ options: ServeJobOptions) throws(APIError) {
        if let theme = options.theme { try checkTheme(theme, place: "theme") }
        if let profile = options.profile, !profiles.isEmpty, !profiles.contains(profile) {
            throw APIError(400, "invalidOption", Self.unknown("profile", profile, "a print profile", profiles))
        }
    }

    func checkTheme(_ theme: String, place: String) throws(APIError) {
        guard !themes.isEmpty, !themes.contains(theme) else { return }
        throw APIError(400, place == "theme" ? "invalidOption" : "invalidBook", Self.unknown(place, theme, "a theme", themes))
    }

    private static func unknown(_ place: String, _ name: String, _ what: String, _ names: [String]) -> String {
        var message = "\(place) \"\(ClientText.clipped(name))\" is not \(what) of the service; it has \(names.joined(separator: ", "))"
        if name.count <= 64, let near = Spelling.nearest(to: name, among: names) { message += " (did you mean \(near)?)" }
        return message
    }
}
