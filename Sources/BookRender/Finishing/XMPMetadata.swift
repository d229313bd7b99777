import Foundation
import BookBase

/// The document's XMP packet (the catalog's `/Metadata`), which archives and accessibility
/// checkers read instead of the document information: title, author, language, dates and the
/// producer. Its dates are the book's, never the clock's, so the same book gives the same bytes;
/// a book without a date has none.
public struct XMPMetadata: Sendable, Equatable {
    public var title: String
    public var author: String?
    public var subject: String?
    public var keywords: [String]
    public var language: String?
    public var date: PDFDate?
    public var producer: String
    /// The part of PDF/UA (ISO 14289) the file conforms to, written as `pdfuaid:part`; nil claims none.
    public var pdfUAPart: Int?

    public init(title: String, author: String?, subject: String?, keywords: [String], language: String?, date: PDFDate?,
                producer: String = "bookrender \(ProductVersion.current)") {
        self.title = title; self.author = author; self.subject = subject; self.keywords = keywords
        self.language = language; self.date = date; self.producer = producer
    }

    /// The packet as UTF-8 XML.
    public var packet: String {
        var description = [
            "<dc:format>application/pdf</dc:format>",
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escape(title))</rdf:li></rdf:Alt></dc:title>",
        ]
        if let author { description.append("<dc:creator><rdf:Seq><rdf:li>\(escape(author))</rdf:li></rdf:Seq></dc:creator>") }
        if let subject {
            description.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escape(subject))</rdf:li></rdf:Alt></dc:description>")
        }
        if let language { description.append("<dc:language><rdf:Bag><rdf:li>\(escape(language))</rdf:li></rdf:Bag></dc:language>") }
        if !keywords.isEmpty {
            description.append("<dc:subject><rdf:Bag>\(keywords.map { "<rdf:li>\(escape($0))</rdf:li>" }.joined())</rdf:Bag></dc:subject>")
            description.append("<pdf:Keywords>\(escape(keywords.joined(separator: ", ")))</pdf:Keywords>")
        }
        description.append("<pdf:Producer>\(escape(producer))</pdf:Producer>")
        description.append("<xmp:CreatorTool>bookrender</xmp:CreatorTool>")
        var namespaces = ""
        if let pdfUAPart {
            description.append("<pdfuaid:part>\(pdfUAPart)</pdfuaid:part>")
            namespaces = " xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\""
        }
        if let date = date?.xmpString {
            description += ["<xmp:CreateDate>\(date)</xmp:CreateDate>", "<xmp:ModifyDate>\(date)</xmp:ModifyDate>",
                            "<xmp:MetadataDate>\(date)</xmp:MetadataDate>"]
        }
        return """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"\(namespaces)>
        \(description.joined(separator: "\n"))
        </rdf:Description>
        </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    private func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 has no place for most control characters.
            case _ where c.value < 0x20 && c != "\t" && c != "\n" && c != "\r": continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
