/// What a program whose HarfBuzz calls go through a shaping cache (the bookrender executable's,
/// `Sources/CShapeCache`) tells the layout about it. Nothing in a library sets it: there, every
/// piece of a line is shaped.
public enum ShapingCacheHook {
    /// Whether a piece of an item this thread shaped and kept would be served as that item's
    /// glyphs cut at both ends (`shape_cache_piece_is_cut`, whose arguments these are): then lines
    /// set from a measured paragraph take its glyphs without shaping them again. Set once, before
    /// any layout.
    nonisolated(unsafe) public static var pieceIsCut: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UInt32, UInt32,
                                                                        UInt32, UInt32) -> Int32)?
}
