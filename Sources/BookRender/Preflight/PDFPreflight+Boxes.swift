import Foundation
import BookConfig

extension PDFPreflight {
    /// Pages without a TrimBox, and pages whose bleed (the BleedBox, cut to the MediaBox) reaches
    /// less far beyond the TrimBox than the printer wants on a side. Pages alike are reported once,
    /// on the first of them, with how many more there are.
    static func boxesAndBleed(boxes: [Int: PageBoxes], objects: PDFObjects, profile: PrintProfile, name: String,
                              sheet: SheetGeometry?) -> [PreflightFinding] {
        guard profile.hasBleed || sheet != nil else { return [] }
        var groups: [(page: Int, check: PreflightFinding.Check, message: String, more: Int)] = []
        func add(_ page: Int, _ check: PreflightFinding.Check, _ message: String) {
            if let i = groups.firstIndex(where: { $0.check == check && $0.message == message }) { groups[i].more += 1 }
            else { groups.append((page, check, message, 0)) }
        }
        for page in boxes.keys.sorted() {
            guard let b = boxes[page], b.media.count == 4, b.trim.count == 4 else { continue }
            if page <= objects.pages.count, !objects.pages[page - 1].hasTrimBox {
                add(page, .missingBoxes, "no TrimBox: \(profile.name) cannot tell where the page is cut from what bleeds past it; set each page's TrimBox to its trim (and draw the page at the trim plus the bleed)")
                continue
            }
            let bleed = b.bleed.count == 4 ? b.bleed : b.media
            let t = b.trim
            let have = ["left": t[0] - max(bleed[0], b.media[0]), "right": min(bleed[2], b.media[2]) - t[2],
                        "top": min(bleed[3], b.media[3]) - t[3], "bottom": t[1] - max(bleed[1], b.media[1])]
            let wanted = bleedWanted(page: page, profile: profile, sheet: sheet, bindsOnRight: objects.readsRightToLeft)
            // Half a point: boxes written to the hundredth of an inch.
            let short = wanted.filter { $0.points > 0 && (have[$0.side] ?? 0) < $0.points - 0.5 }
            guard !short.isEmpty else { continue }
            func side(_ s: String) -> String {
                guard sheet == nil, s == "left" || s == "right" else { return s }
                let outside = ((page % 2 == 1) != objects.readsRightToLeft) == (s == "right")
                return outside ? "outside (\(s))" : "binding (\(s))"
            }
            let sides = short.map(\.side)
            let measured = short.map { String(format: "%@ %.3f in", side($0.side), max(0, have[$0.side] ?? 0) / 72) }.joined(separator: ", ")
            let wants = Set(short.map(\.points)).count == 1
                ? String(format: "%.3f in beyond the trim at the %@", short[0].points / 72, list(sides.map(side)))
                : short.map { String(format: "%.3f in at the %@", $0.points / 72, side($0.side)) }.joined(separator: ", ")
            if short.allSatisfy({ (have[$0.side] ?? 0) <= 0.5 }) && sides.count == wanted.filter({ $0.points > 0 }).count {
                add(page, .bleed, "no bleed: the MediaBox and BleedBox end at the TrimBox; \(profile.name) wants \(wants): draw the page at the trim plus the bleed and set the MediaBox and BleedBox to it")
            } else {
                add(page, .bleed, "the bleed beyond the TrimBox is too small (\(measured)); \(profile.name) wants \(wants): extend the MediaBox and BleedBox, and the backgrounds and pictures that bleed, that far")
            }
        }
        return groups.map { g in
            PreflightFinding(.error, g.check, page: g.page, file: name, g.message + (g.more > 0 ? " (\(g.more) more page\(g.more == 1 ? "" : "s") alike)" : ""))
        }
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// Transparency where the printer takes none, RGB where it takes only CMYK and grey, and the
    /// PDF/X keys where it wants PDF/X. Pages alike are reported once, as the boxes are.
    static func objectFindings(_ objects: PDFObjects, profile: PrintProfile, name: String) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        if !objects.repairs.isEmpty {
            let told = objects.repairs.prefix(3).joined(separator: "; ") + (objects.repairs.count > 3 ? "; …" : "")
            out.append(PreflightFinding(.warning, .damagedFile, file: name,
                "qpdf had to mend the file to read it (\(told)); \(profile.name)'s RIP may read it otherwise or refuse it: write the PDF again from the program that made it"))
        }
        func grouped(_ check: PreflightFinding.Check, _ what: (PDFObjects.Page) -> String?, advice: String) {
            var first: [String: (page: Int, more: Int)] = [:]
            var order: [String] = []
            for (i, page) in objects.pages.enumerated() {
                guard let found = what(page) else { continue }
                if first[found] == nil { first[found] = (i + 1, 0); order.append(found) } else { first[found]!.more += 1 }
            }
            for found in order {
                let g = first[found]!
                out.append(PreflightFinding(.error, check, page: g.page, file: name,
                    "\(found); \(advice)" + (g.more > 0 ? " (\(g.more) more page\(g.more == 1 ? "" : "s") alike)" : "")))
            }
        }
        if !profile.allowsTransparency {
            grouped(.transparency, \.transparency, advice: "\(profile.name) takes no transparency (alpha below 1, soft masks, blend modes, transparency groups): flatten it before sending the file")
        }
        if profile.isCMYK {
            grouped(.colourSpace, \.colour, advice: "\(profile.name) prints CMYK and grey only\(profile.pdfx.map { " (\($0))" } ?? ""): convert the file to CMYK")
        }
        if let pdfx = profile.pdfx {
            let how = "\(profile.name) wants \(pdfx): write the file as \(pdfx) (bookrender export and cover --profile \(profile.name) do)"
            // PDF/X-1a files name their version "PDF/X-1:2001" or "PDF/X-1a:2003"; a later part
            // (PDF/X-3, PDF/X-4) allows colour or transparency the profile does not.
            let family = pdfx.hasPrefix("PDF/X-1") ? "PDF/X-1" : pdfx
            if let version = objects.info["/GTS_PDFXVersion"] {
                if !version.hasPrefix(family) {
                    out.append(PreflightFinding(.error, .pdfx, file: name, "the Info dictionary's /GTS_PDFXVersion is \(version); \(how)"))
                }
            } else {
                out.append(PreflightFinding(.error, .pdfx, file: name, "the Info dictionary has no /GTS_PDFXVersion; \(how)"))
            }
            let intents = objects.outputIntents
            if !intents.contains(where: { $0.subtype == "/GTS_PDFX" }) {
                let found = intents.isEmpty ? "the catalog has no /OutputIntents" : "the catalog's output intents are \(intents.map(\.subtype).joined(separator: ", ")), none /S /GTS_PDFX"
                out.append(PreflightFinding(.error, .pdfx, file: name, "\(found); \(how), with the press's ICC profile as its output intent"))
            } else if !intents.contains(where: { $0.subtype == "/GTS_PDFX" && $0.described }) {
                out.append(PreflightFinding(.error, .pdfx, file: name, "the /GTS_PDFX output intent has neither /DestOutputProfile nor /OutputConditionIdentifier; \(how)"))
            }
            let trapped = objects.info["/Trapped"]
            if trapped != "/True", trapped != "/False" {
                out.append(PreflightFinding(.error, .pdfx, file: name,
                    "the Info dictionary's /Trapped is \(trapped ?? "missing"); \(profile.name) wants \(pdfx), which needs /True or /False: set /Trapped /False unless the file was trapped"))
            }
        }
        return out
    }
}
