import Testing
import Foundation
import BookRender
import BookTestSupport

/// PDFFinisher on PDFs cairo wrote, read back with pdfinfo, qpdf and Ghostscript.
@Suite struct FinishingTests {
    /// Three pages of 6 × 9 in plus 9 pt bleed on every side.
    static let width = 432.0 + 18, height = 648.0 + 18

    func fixture(_ label: String, pages: Int = 3) throws -> (dir: URL, pdf: URL) {
        let dir = try temporaryDirectory("finish-\(label)")
        let images = try FinishingFixture.images(in: dir)
        let pdf = dir.appendingPathComponent("cairo.pdf")
        let colours: [(Double, Double, Double)] = [(0.95, 0.9, 0.8), (0.3, 0.5, 0.7), (0.9, 0.9, 0.95), (0.2, 0.6, 0.3)]
        try FinishingFixture.cairoPDF(at: pdf, width: Self.width, height: Self.height,
                                      pages: (0..<pages).map { .init(background: colours[$0 % colours.count]) },
                                      jpeg: images.jpeg, png: images.png)
        return (dir, pdf)
    }

    static let media = PDFRect(llx: 0, lly: 0, urx: width, ury: height)

    /// Bleed on all sides of odd pages; even pages as KDP wants them, no bleed at the spine (left).
    static func boxes(pages: Int) -> [FinishingPlan.PageBoxes] {
        (0..<pages).map { i in
            i % 2 == 0
                ? FinishingPlan.PageBoxes(media: media, bleedLeft: 9, bleedBottom: 9, bleedRight: 9, bleedTop: 9)
                : FinishingPlan.PageBoxes(trimBox: PDFRect(llx: 9, lly: 9, urx: 441, ury: 657),
                                          bleedBox: PDFRect(llx: 0, lly: 0, urx: 441, ury: 666),
                                          artBox: PDFRect(llx: 45.5, lly: 45.25, urx: 405.125, ury: 621))
        }
    }

    static func fullPlan(pages: Int) -> FinishingPlan {
        FinishingPlan(
            pages: boxes(pages: pages),
            info: .init(title: "Pip & the Moon — Ünïcödé 月", author: "A. Writer", subject: "A bedtime story",
                        keywords: ["moon", "fox", "bedtime"], creator: "bookrender", producer: "bookrender finishing",
                        creationDate: PDFDate(iso8601: "2024-05-12T21:30:00+02:00"),
                        modificationDate: PDFDate(iso8601: "2024-06-01T08:00:00Z"), trapped: false),
            language: "en-US",
            outline: [
                .init(title: "Cover", pageIndex: 0),
                .init(title: "Chapter One: Ünïcödé ☾", pageIndex: 1, children: [
                    .init(title: "A scene", pageIndex: 1, destination: .xyz(left: 0, top: 600, zoom: nil)),
                    .init(title: "Another", pageIndex: 2),
                ]),
                .init(title: "The End", pageIndex: pages - 1, children: [.init(title: "Hidden", pageIndex: pages - 1)], isOpen: false),
            ],
            pageLabels: [
                .init(startPageIndex: 0, style: .none, prefix: "Cover"),
                .init(startPageIndex: 1, style: .romanLower),
            ] + (pages > 3 ? [.init(startPageIndex: 3, style: .decimal, prefix: "p. ", firstNumber: 5)] : []),
            pageLayout: .twoPageRight)
    }

    @Test func boxesArePlacedOnEveryPageAndTheMediaBoxIsKept() throws {
        let (dir, pdf) = try fixture("boxes", pages: 4)
        let out = dir.appendingPathComponent("finished.pdf")
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 4), to: out)

        let pages = try PDFReaders.boxes(out)
        let plan = Self.boxes(pages: 4)
        #expect(pages.count == 4)
        for (i, (boxes, planned)) in zip(pages, plan).enumerated() {
            #expect(boxes["MediaBox"] == Self.media, "page \(i + 1)")
            #expect(boxes["TrimBox"] == planned.trimBox, "page \(i + 1): \(boxes)")
            #expect(boxes["BleedBox"] == planned.bleedBox, "page \(i + 1): \(boxes)")
            if let art = planned.artBox {
                // pdfinfo prints two decimals; the file holds the exact value.
                let got = try #require(boxes["ArtBox"])
                #expect(abs(got.llx - art.llx) < 0.006 && abs(got.lly - art.lly) < 0.006 && abs(got.urx - art.urx) < 0.006)
            }
        }
        let json = try PDFReaders.QPDFJSON(out)
        let second = try #require(json.dict(json.pageObjects[1]))
        #expect(second["/ArtBox"] as? [Double] == [45.5, 45.25, 405.125, 621])
        let first = try #require(json.dict(json.pageObjects[0]))
        #expect(first["/ArtBox"] == nil, "no ArtBox unless planned (PDF/X wants TrimBox or ArtBox)")
        #expect(first["/TrimBox"] as? [Double] == [9, 9, 441, 657])

        let check = try run("qpdf", ["--check", out.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try PDFReaders.ghostscriptMessages(out) == "")
    }

    @Test func infoDatesAndLanguage() throws {
        let (dir, pdf) = try fixture("info")
        let out = dir.appendingPathComponent("finished.pdf")
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 3), to: out)

        let info = try PDFReaders.info(out)
        #expect(info["Title"] == "Pip & the Moon — Ünïcödé 月")
        #expect(info["Author"] == "A. Writer")
        #expect(info["Subject"] == "A bedtime story")
        #expect(info["Keywords"] == "moon, fox, bedtime")
        #expect(info["Creator"] == "bookrender")
        #expect(info["Producer"] == "bookrender finishing")
        // +02:00 is written as the same instant in UTC.
        #expect(info["CreationDate"] == "Sun May 12 19:30:00 2024 UTC")
        #expect(info["ModDate"] == "Sat Jun  1 08:00:00 2024 UTC")

        let json = try PDFReaders.QPDFJSON(out)
        #expect(PDFReaders.text(json.info["/CreationDate"]) == "D:20240512193000Z")
        #expect(PDFReaders.text(json.info["/ModDate"]) == "D:20240601080000Z")
        #expect(json.info["/Trapped"] as? String == "/False")
        #expect(PDFReaders.text(json.catalog["/Lang"]) == "en-US")
        #expect(json.catalog["/PageLayout"] as? String == "/TwoPageRight")
        #expect(json.catalog["/PageMode"] as? String == "/UseOutlines")

        // Non-ASCII text strings are UTF-16BE with a byte order mark.
        let infoRef = json.trailer["/Info"] as! String
        let raw = try run("qpdf", ["--show-object=\(infoRef.split(separator: " ")[0])", out.path]).stdout
        #expect(raw.contains("/Title <feff"), "\(raw)")
        #expect(raw.contains("/Author (A. Writer)"), "\(raw)")
    }

    @Test func cairosDateGetsItsPrefixWhenThePlanHasNone() throws {
        let (dir, pdf) = try fixture("date")
        let before = try Data(contentsOf: pdf)
        #expect(String(decoding: before, as: UTF8.self).contains("/CreationDate (20240101000000Z)"), "cairo 1.16 writes no D: prefix")
        let out = dir.appendingPathComponent("finished.pdf")
        try PDFFinisher.finish(pdf, plan: FinishingPlan(), to: out)
        let json = try PDFReaders.QPDFJSON(out)
        #expect(PDFReaders.text(json.info["/CreationDate"]) == "D:20240101000000Z")
        #expect(PDFReaders.text(json.info["/ModDate"]) == "D:20240101000000Z")
        #expect(try PDFReaders.info(out)["CreationDate"] == "Mon Jan  1 00:00:00 2024 UTC")
        #expect(PDFReaders.text(json.info["/Title"]) == "Fixture", "what the plan leaves out stays")
        #expect(json.catalog["/Outlines"] == nil && json.catalog["/PageLabels"] == nil && json.catalog["/PageMode"] == nil)
    }

    @Test func outlineEntriesAreLinkedInOrder() throws {
        let (dir, pdf) = try fixture("outline")
        let out = dir.appendingPathComponent("finished.pdf")
        let plan = Self.fullPlan(pages: 3)
        try PDFFinisher.finish(pdf, plan: plan, to: out)
        let json = try PDFReaders.QPDFJSON(out)
        let pages = json.pageObjects

        let outlinesRef = try #require(json.catalog["/Outlines"] as? String)
        let outlines = try #require(json.dict(outlinesRef))
        #expect(outlines["/Type"] as? String == "/Outlines")
        // Visible when opened: Cover, Chapter One, its two children, The End (closed: its child hidden).
        #expect(outlines["/Count"] as? Int == 5)

        /// Walks /First…/Next under `parent`, checking every back link; returns (title, dict) pairs.
        func siblings(of parentRef: String) throws -> [(String, [String: Any], String)] {
            let parent = try #require(json.dict(parentRef))
            var result: [(String, [String: Any], String)] = []
            var ref = parent["/First"] as? String
            var previous: String?
            while let r = ref {
                let item = try #require(json.dict(r))
                #expect(item["/Parent"] as? String == parentRef)
                #expect(item["/Prev"] as? String == previous)
                result.append((PDFReaders.text(item["/Title"]) ?? "?", item, r))
                previous = r
                ref = item["/Next"] as? String
            }
            #expect(parent["/Last"] as? String == previous)
            return result
        }

        let top = try siblings(of: outlinesRef)
        #expect(top.map(\.0) == ["Cover", "Chapter One: Ünïcödé ☾", "The End"])
        #expect(top.map { ($0.1["/Dest"] as? [Any])?.first as? String } == [pages[0], pages[1], pages[2]])
        #expect(top.map { ($0.1["/Dest"] as? [Any])?.last as? String } == ["/Fit", "/Fit", "/Fit"])
        #expect(top[1].1["/Count"] as? Int == 2)
        #expect(top[2].1["/Count"] as? Int == -1, "a closed item counts its hidden children negatively")
        #expect(top[0].1["/Count"] == nil)

        let chapter = try siblings(of: top[1].2)
        #expect(chapter.map(\.0) == ["A scene", "Another"])
        let xyz = try #require(chapter[0].1["/Dest"] as? [Any])
        #expect(xyz.count == 5 && xyz[0] as? String == pages[1] && xyz[1] as? String == "/XYZ")
        #expect(xyz[3] as? Int == 600 && xyz[4] is NSNull)
        #expect(try siblings(of: top[2].2).map(\.0) == ["Hidden"])

        // qpdf's own outline reader agrees on titles and target pages.
        let outlineList = try #require(json.root["outlines"] as? [[String: Any]])
        #expect(outlineList.map { $0["title"] as? String } == ["Cover", "Chapter One: Ünïcödé ☾", "The End"])
        #expect(outlineList.map { $0["destpageposfrom1"] as? Int } == [1, 2, 3])

        let raw = try run("qpdf", ["--show-object=\(top[1].2.split(separator: " ")[0])", out.path]).stdout
        #expect(raw.contains("/Title <feff"), "non-ASCII titles are UTF-16BE with a BOM: \(raw)")
    }

    @Test func pageLabelsFormANumberTree() throws {
        let (dir, pdf) = try fixture("labels", pages: 4)
        let out = dir.appendingPathComponent("finished.pdf")
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 4), to: out)
        let json = try PDFReaders.QPDFJSON(out)

        let tree = try #require(json.catalog["/PageLabels"] as? [String: Any])
        let nums = try #require(tree["/Nums"] as? [Any])
        #expect(nums.count == 6)
        #expect(nums[0] as? Int == 0 && nums[2] as? Int == 1 && nums[4] as? Int == 3)
        let cover = try #require(nums[1] as? [String: Any])
        #expect(PDFReaders.text(cover["/P"]) == "Cover" && cover["/S"] == nil)
        let roman = try #require(nums[3] as? [String: Any])
        #expect(roman["/S"] as? String == "/r" && roman["/St"] == nil)
        let body = try #require(nums[5] as? [String: Any])
        #expect(body["/S"] as? String == "/D" && body["/St"] as? Int == 5 && PDFReaders.text(body["/P"]) == "p. ")

        // qpdf's page-label helper resolves each page's label: cover, i, ii, then p. 5.
        let labels = json.pages.map { $0["label"] as? [String: Any] }
        #expect(labels[0].flatMap { PDFReaders.text($0["/P"]) } == "Cover")
        #expect(labels[1]?["/S"] as? String == "/r" && labels[1]?["/St"] as? Int == 1)
        #expect(labels[2]?["/S"] as? String == "/r" && labels[2]?["/St"] as? Int == 2)
        #expect(labels[3]?["/S"] as? String == "/D" && labels[3]?["/St"] as? Int == 5)
    }

    @Test func outputIntentCarriesTheProfile() throws {
        let (dir, pdf) = try fixture("intent")
        let out = dir.appendingPathComponent("finished.pdf")
        var plan = FinishingPlan()
        plan.outputIntent = .init(profile: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/srgb.icc"),
                                  outputConditionIdentifier: "sRGB IEC61966-2.1", outputCondition: "sRGB")
        try PDFFinisher.finish(pdf, plan: plan, to: out)
        let json = try PDFReaders.QPDFJSON(out)
        let intents = try #require(json.catalog["/OutputIntents"] as? [String])
        let intent = try #require(json.dict(intents[0]))
        #expect(intent["/S"] as? String == "/GTS_PDFX" && intent["/Type"] as? String == "/OutputIntent")
        #expect(PDFReaders.text(intent["/OutputConditionIdentifier"]) == "sRGB IEC61966-2.1")
        let profile = try #require(json.dict(intent["/DestOutputProfile"] as! String))
        #expect(profile["/N"] as? Int == 3)
        #expect(try run("qpdf", ["--check", out.path]).status == 0)
    }

    @Test func sameInputAndPlanGiveSameBytes() throws {
        let (dir, pdf) = try fixture("determinism")
        let a = dir.appendingPathComponent("a.pdf"), b = dir.appendingPathComponent("b.pdf")
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 3), to: a)
        // A second later: nothing may come from the clock.
        Thread.sleep(forTimeInterval: 1.1)
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 3), to: b)
        let bytesA = try Data(contentsOf: a), bytesB = try Data(contentsOf: b)
        #expect(bytesA == bytesB)
        let json = try PDFReaders.QPDFJSON(a)
        let id = try #require(json.trailer["/ID"] as? [String])
        #expect(id.count == 2 && id[0] == id[1], "the ID is derived from the content alone")
    }

    @Test func finishingInPlaceReplacesTheFile() throws {
        let (_, pdf) = try fixture("inplace")
        try PDFFinisher.finish(pdf, plan: Self.fullPlan(pages: 3), to: pdf)
        #expect(try PDFReaders.boxes(pdf)[0]["TrimBox"] == PDFRect(llx: 9, lly: 9, urx: 441, ury: 657))
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
    }

    @Test(arguments: ["trim outside media", "bleed outside media", "too few pages", "bookmark past the end",
                      "labels not from 0", "missing input", "damaged input", "missing profile"])
    func aFailedFinishLeavesTheTargetUntouched(_ failure: String) throws {
        let (dir, pdf) = try fixture("atomic-\(failure.replacingOccurrences(of: " ", with: "-"))")
        let target = dir.appendingPathComponent("book.pdf")
        let previous = Data("the previous export".utf8)
        try previous.write(to: target)
        var input = pdf
        var plan = Self.fullPlan(pages: 3)
        switch failure {
        case "trim outside media": plan.pages[0].trimBox.urx = Self.width + 1
        case "bleed outside media": plan.pages[1].bleedBox.lly = -3
        case "too few pages": plan.pages.removeLast()
        case "bookmark past the end": plan.outline.append(.init(title: "Nowhere", pageIndex: 3))
        case "labels not from 0": plan.pageLabels.removeFirst()
        case "missing input": input = dir.appendingPathComponent("nothing.pdf")
        case "damaged input":
            input = dir.appendingPathComponent("damaged.pdf")
            let bytes = try Data(contentsOf: pdf)
            try bytes.prefix(bytes.count * 2 / 3).write(to: input)
        case "missing profile":
            plan.outputIntent = .init(profile: dir.appendingPathComponent("none.icc"), outputConditionIdentifier: "x")
        default: Issue.record("unknown case")
        }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(throws: FinishingError.self) { try PDFFinisher.finish(input, plan: plan, to: target) }
        #expect(try Data(contentsOf: target) == previous)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before, "no temporary file left")
    }

    @Test func errorsNameTheProblem() throws {
        let (dir, pdf) = try fixture("messages")
        var plan = Self.fullPlan(pages: 3)
        plan.pages[2].trimBox.llx = -5
        do {
            try PDFFinisher.finish(pdf, plan: plan, to: dir.appendingPathComponent("x.pdf"))
            Issue.record("should have failed")
        } catch let error as FinishingError {
            #expect(error.message.contains("page 3") && error.message.contains("TrimBox"), "\(error)")
        }
        do {
            try PDFFinisher.finish(dir.appendingPathComponent("nothing.pdf"), plan: plan, to: dir.appendingPathComponent("x.pdf"))
            Issue.record("should have failed")
        } catch let error as FinishingError {
            #expect(error.message.contains("nothing.pdf"), "\(error)")
        }
    }

    @Test func pdfDates() {
        #expect(PDFDate(iso8601: "2024-05-12T19:30:00Z")?.string == "D:20240512193000Z")
        #expect(PDFDate(iso8601: "2024-05-12T19:30:00.250Z")?.string == "D:20240512193000Z")
        #expect(PDFDate(iso8601: "2024-05-13T01:00:00+05:30")?.string == "D:20240512193000Z")
        #expect(PDFDate(iso8601: "2024-05-12T19:30:00-0100")?.string == "D:20240512203000Z")
        #expect(PDFDate(iso8601: "2024-13-12T19:30:00Z") == nil)
        #expect(PDFDate(iso8601: "yesterday") == nil)
        #expect(PDFDate(pdfString: "20240101000000Z")?.string == "D:20240101000000Z")
        #expect(PDFDate(pdfString: "D:20240101000000+01'00'")?.string == "D:20240101000000+01'00'")
        #expect(PDFDate(pdfString: "Jan 1") == nil)
        #expect(PDFDate(Date(timeIntervalSince1970: 0)).string == "D:19700101000000Z")
    }
}
