import Testing
import Foundation
@testable import BookRender

/// The PDF preflight's reading of content streams for RGB: operators found where they are
/// operators, and never inside a string, a comment or an inline image's data.
@Suite struct ColourScanTests {
    func scan(_ content: String) -> String? { ColourScan.operators(Array(content.utf8)) }

    @Test func rgbOperatorsAreFoundWithTheirOperands() {
        #expect(scan("q 0.9 0.8 0.7 rg 0 0 10 10 re f Q") == "sets an RGB fill colour (0.9 0.8 0.7 rg)")
        #expect(scan("1 0 0 RG 0 0 m 10 10 l S")?.contains("RGB stroke colour (1 0 0 RG)") == true)
        #expect(scan("/DeviceRGB cs 1 1 0 sc")?.contains("DeviceRGB (/DeviceRGB cs)") == true)
        #expect(scan("BI /W 1 /H 1 /CS /RGB /BPC 8 ID\nabc\nEI")?.contains("inline image in RGB") == true)
    }

    @Test func cmykGreyAndLookAlikesAreNot() {
        #expect(scan("0 0 0 1 k 0.5 g 0 0 0 1 K 0.2 G /DeviceCMYK cs 1 0 0 0 sc") == nil)
        // "rg" inside a string, a comment, a name and an inline image's bytes is not an operator.
        #expect(scan("BT /F1 12 Tf (1 0 0 rg \\) rg) Tj ET % 1 0 0 rg\n/rg gs") == nil)
        #expect(scan("BI /W 2 /H 1 /CS /G /BPC 8 ID\n rg\nEI 0 g") == nil)
        #expect(scan("[(a) 120 (b)] TJ <72 67> Tj") == nil)
    }
}
