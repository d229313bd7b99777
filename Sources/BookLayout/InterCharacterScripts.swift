import CGraphics

/// Scripts set without spaces between words, whose justified lines take their slack between
/// characters. Anything else with no space on a line (a long address, a path, one long word) is
/// left ragged, as TeX and Typst leave an underfull line: spreading its letters reads as a fault.
enum InterCharacterScripts {
    private static let scripts: Set<Int32> = [
        PANGO_SCRIPT_HAN.rawValue, PANGO_SCRIPT_HIRAGANA.rawValue, PANGO_SCRIPT_KATAKANA.rawValue,
        PANGO_SCRIPT_BOPOMOFO.rawValue, PANGO_SCRIPT_YI.rawValue,
    ]

    static func contains(_ item: UnsafeMutablePointer<PangoItem>) -> Bool {
        scripts.contains(Int32(item.pointee.analysis.script))
    }
}
