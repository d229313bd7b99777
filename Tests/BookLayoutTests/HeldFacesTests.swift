import Testing
import Foundation
@testable import BookLayout
import BookTestSupport
import CGraphics

/// cairo 1.16 keeps ten FreeType faces open and closes an unlocked one to open another, without
/// taking its lock, which crashed a thread about to draw with it: every face of the font set is
/// held open from the start, so the one a layout draws with stays open however many are opened
/// after it.
@Suite struct HeldFacesTests {
    @Test func aFaceLayoutHasUsedIsNotClosedToOpenOthers() throws {
        let typesetter = try TestFonts.typesetter()
        let style = TextStyle(family: "Linux Libertine O", size: 11.37)
        let layout = typesetter.layout("Held open", style: style, width: 300, alignment: .start, hyphenate: false)
        let font = try #require(layout.glyphLinesForOneDrawing?.first?.first?.font.pointer)
        // A mark on the FreeType face itself: a face closed and opened again comes back without it.
        let mark = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { mark.deallocate() }
        let face = try #require(cairo_ft_scaled_font_lock_face(font))
        face.pointee.generic.data = mark
        cairo_ft_scaled_font_unlock_face(font)

        // Every other face of the set opened and let go again, as drawing in them does: each past
        // the tenth makes cairo close one it finds unlocked.
        let set = try #require(FcConfigGetFonts(typesetter.fonts.config, FcSetApplication))
        var opened = 0
        for i in 0..<Int(set.pointee.nfont) {
            guard let pattern = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch else { continue }
            _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
            let own = FcPatternCreate()
            FcPatternAddString(own, FC_FILE, file)
            FcPatternAddInteger(own, FC_INDEX, index)
            let other = cairo_ft_font_face_create_for_pattern(own)
            FcPatternDestroy(own)
            var size = cairo_matrix_t(), identity = cairo_matrix_t()
            cairo_matrix_init_scale(&size, 9.91, 9.91)
            cairo_matrix_init_identity(&identity)
            let options = cairo_font_options_create()
            let scaled = cairo_scaled_font_create(other, &size, &identity, options)
            cairo_font_options_destroy(options)
            cairo_font_face_destroy(other)
            if cairo_ft_scaled_font_lock_face(scaled) != nil {
                opened += 1
                cairo_ft_scaled_font_unlock_face(scaled)
            }
            cairo_scaled_font_destroy(scaled)
        }
        #expect(opened > 20, "the font set has \(opened) faces")
        let again = try #require(cairo_ft_scaled_font_lock_face(font))
        defer { cairo_ft_scaled_font_unlock_face(font) }
        #expect(again.pointee.generic.data == mark, "the face was closed and opened again")
        again.pointee.generic.data = nil
    }
}
