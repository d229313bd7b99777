import Foundation

/// cairo gives every page a transparency group (`/Group`); on a page that draws no transparency
/// (`PageTransparency`) it changes nothing drawn, and a printer that takes none gets the page without.
enum PageGroups {
    static func remove(_ doc: QPDFDocument) throws {
        for i in 0..<(try doc.pageCount) {
            let page = try doc.page(i)
            try doc.remove(page, "/Group")
            doc.release(page)
        }
    }
}
