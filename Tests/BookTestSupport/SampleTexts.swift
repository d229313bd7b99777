/// Prose the tests lay out, shared by the layout tests and those that run the built program.
public enum SampleTexts {
    /// One English paragraph with long words to hyphenate and ligatures (ff, fi) to keep.
    public static let english = """
    The morning the circus came to town, Eleanor climbed onto the roof of the old observatory with her \
    grandfather's telescope, determined to see the elephants before anybody else. What she discovered \
    instead was extraordinary: a procession of illuminated wagons, an unaccountably cheerful brass band, \
    and a tightrope walker practising her choreography between two chimneys, perfectly unconcerned by \
    the considerable distance to the cobblestones below.
    """
}
