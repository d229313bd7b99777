import Foundation
import BookBase

/// Turns an RGB PDF from cairo into a CMYK PDF/X-1a:2001 with Ghostscript's pdfwrite, then
/// finishes it (boxes, info, outline, labels, fixed dates) with `PDFFinisher`.
///
/// pdfwrite converts every colour and image to CMYK through its default CMYK profile and ignores
/// `-sOutputICCProfile` for that (Ghostscript 10.0), so the conversion runs with a profile folder
/// of our own (`-sICCProfilesDir`): a copy of Ghostscript's, whose `default_cmyk.icc` is the
/// SWOP-like base profile with its colour-to-ink tables limited to the printer's total ink
/// (`ICCProfile.inkLimited`). The same profile is embedded as the output intent. PDF/X-1a (PDF 1.3) has no transparency, so Ghostscript flattens a
/// page that uses any (cairo's alpha fills, soft-masked images) into one image at
/// `transparencyResolution`; pages without transparency stay vector.
public enum CMYKConverter {
    public struct Options: Sendable, Equatable {
        /// Total area coverage in percent (C+M+Y+K); nil converts with the base profile unlimited.
        public var totalInkLimit: Double?
        /// The press profile colours are converted to; the default is Ghostscript's SWOP-like profile.
        public var baseProfile: URL
        public var outputConditionIdentifier: String
        public var outputCondition: String
        public var registryName: String
        /// Pixels per inch for pages Ghostscript has to flatten.
        public var transparencyResolution: Int
        /// Flate instead of JPEG for every converted image: bigger files, but no JPEG ringing that
        /// could push a pixel over the ink limit, and no second generation of JPEG loss.
        public var losslessImages: Bool
        /// Which text and rules print in black ink alone (nil: all colours converted alike).
        public var blackText: BlackText.Rule? = .standard
        /// The Ghostscript executable: a path, or a name looked up on PATH.
        public var ghostscript: String
        /// Ghostscript's own profile folder (default_rgb.icc, default_gray.icc…), copied for the run.
        public var ghostscriptProfiles: URL

        public init(totalInkLimit: Double? = 240,
                    baseProfile: URL = URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc"),
                    outputConditionIdentifier: String = "CGATS TR 001",
                    outputCondition: String = "U.S. Web Coated (SWOP) printing, Ghostscript's default CMYK profile",
                    registryName: String = "http://www.color.org",
                    transparencyResolution: Int = 600, losslessImages: Bool = true, ghostscript: String = "gs",
                    ghostscriptProfiles: URL = URL(fileURLWithPath: "/usr/share/color/icc/ghostscript", isDirectory: true)) {
            self.totalInkLimit = totalInkLimit; self.baseProfile = baseProfile
            self.outputConditionIdentifier = outputConditionIdentifier; self.outputCondition = outputCondition
            self.registryName = registryName; self.transparencyResolution = transparencyResolution
            self.losslessImages = losslessImages; self.ghostscript = ghostscript
            self.ghostscriptProfiles = ghostscriptProfiles
        }

        /// IngramSpark: PDF/X-1a, CMYK, at most 240 % ink.
        public static let ingramSpark = Options(totalInkLimit: 240)
    }

    /// How far under the printer's limit the profile's grid is held. Between grid points the colour
    /// engine interpolates through the tables' nonlinear output curves and rounds each channel to
    /// 8 bits; on an image holding 1M colours of the RGB cube that added up to 2.4 % over the grid.
    public static let inkLimitHeadroom = 3.0

    /// Converts `input` (RGB or grey) to CMYK PDF/X-1a at `output`, written atomically. `plan` is
    /// applied afterwards; pages without boxes in the plan keep the input's TrimBox and BleedBox
    /// (or the MediaBox), dates missing from the plan are the input's (never the clock's).
    public static func convertToPDFX1a(_ input: URL, to output: URL, plan: FinishingPlan, options: Options = .ingramSpark) throws {
        try TemporaryFiles.withScratchFolder("pdfx") { work in
            try convert(input, to: output, plan: plan, options: options, work: work)
        }
    }

    private static func convert(_ input: URL, to output: URL, plan: FinishingPlan, options: Options, work: URL) throws {
        let finalPlan = try completedPlan(plan, from: input)
        let profiles = work.appendingPathComponent("icc", isDirectory: true)
        try AtomicOutput.makeFolder(profiles)
        let available = (try? FileManager.default.contentsOfDirectory(atPath: options.ghostscriptProfiles.path)) ?? []
        for name in available where name.hasSuffix(".icc") {
            do {
                try FileManager.default.copyItem(at: options.ghostscriptProfiles.appendingPathComponent(name),
                                                 to: profiles.appendingPathComponent(name))
            } catch {
                throw OutputError("cannot copy \(name) into the scratch folder \(profiles.path): \(AtomicOutput.reason(error))")
            }
        }
        guard available.contains("default_rgb.icc"), available.contains("default_gray.icc") else {
            throw FinishingError("Ghostscript's ICC profiles are not in \(options.ghostscriptProfiles.path) (Debian's ghostscript package installs them)")
        }
        let profile = profiles.appendingPathComponent("default_cmyk.icc")
        try? FileManager.default.removeItem(at: profile)
        try writeScratch(try outputProfile(options), to: profile)
        let definition = work.appendingPathComponent("pdfx-def.ps")
        try writeScratch(Data(pdfxDefinition(profile: profile, options: options).utf8), to: definition)

        var source = input
        if let rule = options.blackText {
            source = work.appendingPathComponent("black-text.pdf")
            try BlackText.setInGray(input, to: source, rule: rule)
        }
        let converted = work.appendingPathComponent("converted.pdf")
        try runGhostscript(arguments(input: source, output: converted, profile: profile, definition: definition, options: options),
                           executable: options.ghostscript, work: work)
        var plan = finalPlan
        // Ghostscript's pdfwrite keeps no structure tree: a PDF/X-1a file for the press comes out
        // untagged, so there are no figures left to describe.
        if try !QPDFDocument(reading: converted).hasStructureTree {
            plan.figureAltTexts = nil
            plan.paragraphs = nil
            plan.metadata?.pdfUAPart = nil
        }
        try PDFFinisher.finish(converted, plan: plan, to: output, forPDFX: true)
    }

    /// The same with the default options and a print profile's ink limit (nil: no limit).
    public static func convertToPDFX1a(_ input: URL, to output: URL, plan: FinishingPlan, maxInk: Double?) throws {
        var options = Options.ingramSpark
        options.totalInkLimit = maxInk
        try convertToPDFX1a(input, to: output, plan: plan, options: options)
    }

    /// The profile colours are converted with and that the output intent carries.
    public static func outputProfile(_ options: Options) throws -> Data {
        let base: Data
        do { base = try Data(contentsOf: options.baseProfile) } catch {
            throw FinishingError("cannot read the CMYK profile \(options.baseProfile.path) (Debian's ghostscript package installs it): \(error.localizedDescription)")
        }
        guard let limit = options.totalInkLimit else { return base }
        return try ICCProfile.inkLimited(base, totalInk: limit - inkLimitHeadroom,
                                         description: "Artifex CMYK SWOP Profile, total ink limited to \(format(limit)) %")
    }

    /// The Ghostscript command line (without the executable); `profile` is the output profile,
    /// named `default_cmyk.icc` in a copy of Ghostscript's profile folder.
    public static func arguments(input: URL, output: URL, profile: URL, definition: URL, options: Options) -> [String] {
        var args = [
            "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER",
            "--permit-file-read=\(profile.deletingLastPathComponent().path)/",
            "-sDEVICE=pdfwrite", "-dPDFX=true", "-dCompatibilityLevel=1.3",
            "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
            "-sICCProfilesDir=\(profile.deletingLastPathComponent().path)/",
            "-r\(options.transparencyResolution)",
            "-dEmbedAllFonts=true", "-dSubsetFonts=true",
            "-dDownsampleColorImages=false", "-dDownsampleGrayImages=false", "-dDownsampleMonoImages=false",
            "-dPassThroughJPEGImages=false",
        ]
        if options.losslessImages {
            args += ["-dAutoFilterColorImages=false", "-dColorImageFilter=/FlateEncode",
                     "-dAutoFilterGrayImages=false", "-dGrayImageFilter=/FlateEncode"]
        }
        args += ["-sOutputFile=\(output.path)", definition.path, input.path]
        return args
    }

    /// Ghostscript's `lib/PDFX_def.ps`, written for PDF/X-1a with our profile: the version keys
    /// in the info dictionary, the profile as a stream, the output intent in the catalog.
    static func pdfxDefinition(profile: URL, options: Options) -> String {
        """
        %!
        % PDF/X-1a:2001 definitions for pdfwrite (after Ghostscript's lib/PDFX_def.ps).
        [ /GTS_PDFXVersion (PDF/X-1:2001)
          /GTS_PDFXConformance (PDF/X-1a:2001)
          /Trapped /False
        /DOCINFO pdfmark

        [/_objdef {icc_PDFX} /type /stream /OBJ pdfmark
        [{icc_PDFX} << /N 4 >> /PUT pdfmark
        [{icc_PDFX} \(postScriptString(profile.path)) (r) file /PUT pdfmark

        [/_objdef {OutputIntent_PDFX} /type /dict /OBJ pdfmark
        [{OutputIntent_PDFX} <<
          /Type /OutputIntent
          /S /GTS_PDFX
          /OutputCondition \(postScriptString(options.outputCondition))
          /Info \(postScriptString(options.outputCondition))
          /OutputConditionIdentifier \(postScriptString(options.outputConditionIdentifier))
          /RegistryName \(postScriptString(options.registryName))
          /DestOutputProfile {icc_PDFX}
        >> /PUT pdfmark
        [{Catalog} << /OutputIntents [ {OutputIntent_PDFX} ] >> /PUT pdfmark

        """
    }

    /// A PostScript string literal; bytes outside printable ASCII as octal escapes.
    static func postScriptString(_ s: String) -> String {
        var out = "("
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"): out += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: out += String(UnicodeScalar(byte))
            default: out += "\\" + String(byte, radix: 8).leftPadded(to: 3)
            }
        }
        return out + ")"
    }

    /// Fills in what must not come from Ghostscript: boxes from the input when the plan has none,
    /// dates from the input (Ghostscript would stamp the clock), `/Trapped /False` for PDF/X.
    static func completedPlan(_ plan: FinishingPlan, from input: URL) throws -> FinishingPlan {
        var plan = plan
        let doc = try QPDFDocument(reading: input)
        if plan.pages.isEmpty {
            for i in 0..<(try doc.pageCount) {
                let page = try doc.page(i)
                guard let media = try doc.inherited(page, "/MediaBox").flatMap({ try doc.rect($0) }) else {
                    throw FinishingError("\(input.path): page \(i + 1) has no usable MediaBox")
                }
                let bleed = try doc.has(page, "/BleedBox") ? try doc.rect(try doc.get(page, "/BleedBox")) : nil
                let trim = try doc.has(page, "/TrimBox") ? try doc.rect(try doc.get(page, "/TrimBox")) : nil
                plan.pages.append(.init(trimBox: trim ?? bleed ?? media, bleedBox: bleed ?? media))
            }
        }
        let info = try doc.get(try doc.trailer(), "/Info")
        let hasTitle = try doc.isDictionary(info) && doc.has(info, "/Title")
        if plan.info.title == nil && !hasTitle {
            throw FinishingError("\(input.path) has no title and the plan gives none; PDF/X requires one")
        }
        func inputDate(_ key: String) throws -> PDFDate? {
            guard try doc.isDictionary(info), try doc.has(info, key) else { return nil }
            let value = try doc.get(info, key)
            return try doc.isString(value) ? PDFDate(pdfString: try doc.utf8(value)) : nil
        }
        let fallback = PDFDate(iso8601: "2000-01-01T00:00:00Z")!
        let created = try plan.info.creationDate ?? inputDate("/CreationDate")
        plan.info.creationDate = created ?? fallback
        plan.info.modificationDate = try plan.info.modificationDate ?? inputDate("/ModDate") ?? created ?? fallback
        plan.info.trapped = false
        return plan
    }

    /// Runs Ghostscript in `work`; `purpose` names the step in its errors.
    static func runGhostscript(_ arguments: [String], executable: String, work: URL,
                               purpose: String = "converting to PDF/X-1a") throws {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
        } else {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            guard let dir = path.split(separator: ":").first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(executable)") }) else {
                throw FinishingError("Ghostscript (\(executable)) is not installed; scripts/install-deps.sh installs Debian's ghostscript")
            }
            process.executableURL = URL(fileURLWithPath: "\(dir)/\(executable)")
        }
        process.arguments = arguments
        process.currentDirectoryURL = work
        // To files, not pipes: a chatty run must not block on a full pipe.
        let outURL = work.appendingPathComponent("gs.out"), errURL = work.appendingPathComponent("gs.err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw FinishingError("cannot start Ghostscript: \(error.localizedDescription)")
        }
        // Killed with the run when it is stopped: its output would be of no use.
        let token = TemporaryFiles.track(childProcess: process.processIdentifier, signal: SIGKILL)
        process.waitUntilExit()
        TemporaryFiles.forget(token)
        let messages = [outURL, errURL].compactMap { try? String(contentsOf: $0, encoding: .utf8) }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw FinishingError("Ghostscript failed (exit \(process.terminationStatus)): \(messages.suffix(2000))")
        }
        // pdfwrite reports PDF/X violations it could not repair as errors but may still exit 0.
        if messages.range(of: #"(?i)\berror\b"#, options: .regularExpression) != nil {
            throw FinishingError("Ghostscript reported problems \(purpose): \(messages.suffix(2000))")
        }
    }

    /// A file of the scratch folder; a full temporary folder is a write failure naming it.
    private static func writeScratch(_ data: Data, to url: URL) throws {
        do { try data.write(to: url) } catch {
            throw OutputError("cannot write the scratch file \(url.path): \(AtomicOutput.reason(error))")
        }
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}

private extension String {
    func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
