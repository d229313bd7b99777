/// How a paragraph's lines are chosen.
public enum LineBreaking: String, Sendable, Hashable, CaseIterable {
    /// Knuth–Plass total fit: the breaks of the whole paragraph are chosen together, so that no
    /// line is much looser or tighter than its neighbours (justified and start-aligned text).
    case optimal
    /// Pango's own: each line takes as many words as fit.
    case firstFit = "first-fit"

    /// The theme's word (`typography.lineBreaking`); optimal when the theme names none.
    public init(token: String?) {
        self = token.flatMap(LineBreaking.init(rawValue:)) ?? .optimal
    }
}
