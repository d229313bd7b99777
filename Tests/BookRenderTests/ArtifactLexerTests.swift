import Testing
import Foundation
@testable import BookRender

/// The artifact marking of one content stream, read token by token (PDF 32000-1 7.2, 7.3, 8.9.7):
/// what is painted outside marked content gets `/Artifact BMC … EMC` around it with its operands,
/// and nothing inside a string, a comment or an inline image's data is read as an operator.
@Suite struct ArtifactLexerTests {
    static let open = "\n/Artifact BMC\n"
    static let close = "\nEMC\n"

    func marked(_ content: String) throws -> String {
        String(decoding: try ArtifactMarking.markedText(Array(content.utf8)), as: UTF8.self)
    }

    func marked(bytes: [UInt8]) throws -> [UInt8] { try ArtifactMarking.markedText(bytes) }

    @Test func aPaintedPathIsMarkedWithItsOperandsAndAClipIsNot() throws {
        #expect(try marked("q 1 0 0 rg 0 0 10 10 re f Q") == "q 1 0 0 rg\(Self.open) 0 0 10 10 re f\(Self.close) Q")
        #expect(try marked("0 0 m 5 5 l S") == "\(Self.open)0 0 m 5 5 l S\(Self.close)")
        #expect(try marked("q 0 0 10 10 re W n Q") == "q 0 0 10 10 re W n Q")
    }

    @Test func textOutsideStructureIsMarkedAndTextInsideIsNot() throws {
        #expect(try marked("BT /f-0-0 12 Tf 1 0 0 1 5 5 Tm (folio) Tj ET")
            == "BT /f-0-0 12 Tf 1 0 0 1 5 5 Tm\(Self.open) (folio) Tj\(Self.close) ET")
        let tagged = "/P <</MCID 0>> BDC BT /f-0-0 12 Tf [(A)-20(B)] TJ ET EMC"
        #expect(try marked(tagged) == tagged)
        // An /Artifact sequence the content already has is left as it is.
        let artifact = "/Artifact <</Type /Pagination>> BDC BT (7) Tj ET EMC"
        #expect(try marked(artifact) == artifact)
    }

    @Test func aSpanWithoutAnMCIDIsNeitherStructureNorArtifact() throws {
        #expect(try marked("/Span <</ActualText (x)>> BDC BT (a) Tj ET EMC")
            == "/Span <</ActualText (x)>> BDC BT\(Self.open) (a) Tj\(Self.close) ET EMC")
    }

    @Test func aNameSpelledWithEscapesIsTheSameName() throws {
        let tagged = "/P <</MC#49D 3>> BDC BT (a) Tj ET EMC"
        #expect(try marked(tagged) == tagged)
    }

    @Test func stringsCommentsAndHexStringsHoldNoOperators() throws {
        // Balanced and escaped parentheses, an operator's name inside the string, a hex string.
        #expect(try marked("BT (x \\) Tj \\( (y) re f) Tj ET")
            == "BT\(Self.open) (x \\) Tj \\( (y) re f) Tj\(Self.close) ET")
        #expect(try marked("BT <54 6a> Tj ET") == "BT\(Self.open) <54 6a> Tj\(Self.close) ET")
        #expect(try marked("% 0 0 m 1 1 l S Tj\nq Q") == "% 0 0 m 1 1 l S Tj\nq Q")
        #expect(try marked("/Im0 Do") == "\(Self.open)/Im0 Do\(Self.close)")
    }

    @Test func nestedSequencesCountOnlyTheMarkingOnes() throws {
        // Inside structure content, a span closes and the text after it is still structure.
        let nested = "/P <</MCID 1>> BDC /Span <</Lang (fr)>> BDC (a) Tj EMC (b) Tj EMC (c) Tj"
        #expect(try marked(nested) == "/P <</MCID 1>> BDC /Span <</Lang (fr)>> BDC (a) Tj EMC (b) Tj EMC\(Self.open) (c) Tj\(Self.close)")
    }

    @Test func anInlineImageIsOneArtifactWhateverItsDataHolds() throws {
        // The data holds " EI " followed by bytes no content stream has; the EI that counts is
        // the one after which the content reads on.
        let head = Array("q BI /W 4 /H 1 /CS /G /BPC 8 ID ".utf8)
        let data: [UInt8] = [0x20, 0x45, 0x49, 0x20, 0xFF, 0xFE]
        let tail = Array(" EI Q".utf8)
        let out = try marked(bytes: head + data + tail)
        #expect(out == Array("q".utf8) + Array(Self.open.utf8) + Array(" BI /W 4 /H 1 /CS /G /BPC 8 ID ".utf8) + data
            + Array(" EI".utf8) + Array(Self.close.utf8) + Array(" Q".utf8))
        // Inside structure content it stays as it is.
        let tagged = Array("/Figure <</MCID 2>> BDC BI /W 4 /H 1 /CS /G /BPC 8 ID ".utf8) + data + Array(" EI EMC".utf8)
        #expect(try marked(bytes: tagged) == tagged)
    }

    @Test func anInlineImageWithoutItsEndIsRefused() throws {
        #expect(throws: FinishingError.self) { try marked("BI /W 1 /H 1 ID \u{1}\u{2}") }
    }

    @Test func contentWithNothingToMarkIsUnchanged() throws {
        for content in ["", "q Q", "1 0 0 1 0 0 cm /GS0 gs", "[1 2] 0 d 3 w"] {
            #expect(try marked(content) == content)
        }
    }
}
