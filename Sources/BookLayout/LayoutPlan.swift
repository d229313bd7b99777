/// What is decided for a whole book before its pages are laid out, where a page's layout depends
/// on pages after it (see `PagePlanner`): how each picture with words is arranged, how tall the
/// bands and veils of facing pages are, and where a designed page stands in for a blank one.
struct LayoutPlan: Equatable {
    enum Arrangement: Equatable {
        /// One page: the words over the picture, or in its band.
        case single
        /// The picture on a left page, its words on the page facing it.
        case facingText
        /// One page: a smaller picture with the words under it.
        case spot
    }

    /// By index in the book's `pages`; absent: the template decides.
    var arrangements: [Int: Arrangement] = [:]
    /// The least height of a page's band or veiled block, so facing pages' match.
    var blockHeights: [Int: Double] = [:]
    /// Entries before which a designed page (the book's vignette) stands where a blank would.
    var designedPages: Set<Int> = []
}
