import Foundation
import BookBase
import CQPDF

/// One PDF opened with qpdf's C API. qpdf reports errors of the object functions only through
/// `qpdf_has_error`, so every call goes through `call`, which turns a pending error into a Swift
/// error carrying qpdf's message. Not shared between threads: each finish opens its own.
final class QPDFDocument {
    typealias Handle = qpdf_oh

    private var data: qpdf_data?
    private let source: String
    /// Indirect objects changed or made since reading: what an incremental update must write.
    private(set) var touched: Set<Int> = []

    /// The file mapped into memory for qpdf, until `qpdf_cleanup`.
    private var mapped: (address: UnsafeMutableRawPointer, count: Int)?

    /// What qpdf mended to read a damaged file opened `repairing`.
    private(set) var repairs: [String] = []

    /// `mapping`: `url` is a file of this process's own, which nobody else cuts short while it is
    /// read (in a mapped file that would be a SIGBUS, not an error), so qpdf may read it from a map.
    /// `repairing`: a file only read and judged (a preflight), which qpdf may mend to read, saying
    /// what in `repairs`; otherwise a damaged file is refused.
    init(reading url: URL, mapping: Bool = false, repairing: Bool = false) throws {
        source = url.path
        data = qpdf_init()
        // We check every call ourselves; without this qpdf would also print errors on stderr.
        qpdf_silence_errors(data)
        // A damaged input would be silently repaired; a print file must not be.
        qpdf_set_attempt_recovery(data, repairing ? 1 : 0)
        // Kept to be told as a finding, not printed.
        if repairing { qpdf_set_suppress_warnings(data, 1) }
        // From memory: reading a file, qpdf seeks before almost every token it parses, tens of
        // thousands of lseek calls for a 300-page book.
        mapped = mapping ? Self.map(url.path) : nil
        if let mapped {
            _ = qpdf_read_memory(data, url.path, mapped.address.assumingMemoryBound(to: CChar.self), UInt64(mapped.count), nil)
        } else {
            _ = qpdf_read(data, url.path, nil)
        }
        try check("reading")
        let warnings = drainWarnings()
        if repairing {
            repairs = warnings.map { w in
                w.hasPrefix(url.path) ? String(w.dropFirst(url.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: ": ")) : w
            }
        } else if !warnings.isEmpty {
            throw FinishingError("\(url.path) is damaged: \(warnings.joined(separator: "; "))")
        }
    }

    deinit {
        qpdf_cleanup(&data)
        if let mapped { munmap(mapped.address, mapped.count) }
    }

    /// Nil when the file cannot be mapped (empty, missing) or is over 64 MiB: qpdf then reads it
    /// from the file, with its own errors.
    private static func map(_ path: String) -> (address: UnsafeMutableRawPointer, count: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        // The kernel maps the cached pages around each one qpdf touches (64 KiB at a time), all of
        // them counted in the process's memory, which for a long picture book's PDF is no longer
        // small. Such a file is mostly image data with few objects, which qpdf reads from the
        // file cheaply enough.
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size <= 64 << 20,
              let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        return (address, Int(info.st_size))
    }

    private var q: qpdf_data { data! }

    private func drainWarnings() -> [String] {
        var out: [String] = []
        while qpdf_more_warnings(q) != 0 {
            if let w = qpdf_next_warning(q), let text = qpdf_get_error_full_text(q, w) { out.append(String(cString: text)) }
        }
        return out
    }

    private func check(_ what: String) throws {
        guard qpdf_has_error(q) != 0 else { return }
        let error = qpdf_get_error(q)
        let text = error.flatMap { qpdf_get_error_full_text(q, $0) }.map { String(cString: $0) } ?? "unknown qpdf error"
        throw FinishingError("\(what) \(source): \(text)")
    }

    /// A qpdf call that writes: a system error (a full disk, a folder that refuses) is an
    /// `OutputError` naming `target`, in the system's words qpdf passes on.
    private func writing(_ target: URL, _ body: (qpdf_data) -> QPDF_ERROR_CODE) throws {
        _ = body(q)
        guard qpdf_has_error(q) != 0, let error = qpdf_get_error(q) else { return }
        guard qpdf_get_error_code(q, error) == qpdf_e_system else { return try check("writing") }
        let detail = qpdf_get_error_message_detail(q, error).map { String(cString: $0) } ?? "the write failed"
        // qpdf words a system error as "WHAT: REASON"; the reason is strerror's.
        let reason = detail.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? detail
        throw OutputError("cannot write \(target.path): \(reason)")
    }

    /// Runs one qpdf call and throws if it left an error behind.
    @discardableResult
    func call<T>(in what: String = "finishing", _ body: (qpdf_data) -> T) throws -> T {
        let result = body(q)
        try check(what)
        return result
    }

    // MARK: Reading

    var pageCount: Int { get throws { Int(try call { qpdf_get_num_pages($0) }) } }
    func page(_ index: Int) throws -> Handle { try call { qpdf_get_page_n($0, index) } }
    /// After the page tree's `/Kids` changed: qpdf keeps its list of pages from the first read.
    func updatePageCache() throws { _ = try call { qpdf_update_all_pages_cache($0) } }
    func root() throws -> Handle { try call { qpdf_get_root($0) } }
    func trailer() throws -> Handle { try call { qpdf_get_trailer($0) } }

    func has(_ object: Handle, _ key: String) throws -> Bool { try call { qpdf_oh_has_key($0, object, key) } != 0 }
    func get(_ object: Handle, _ key: String) throws -> Handle { try call { qpdf_oh_get_key($0, object, key) } }
    func isDictionary(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_dictionary($0, h) } != 0 }
    func isNull(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_null($0, h) } != 0 }
    func isString(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_string($0, h) } != 0 }
    func isStream(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_stream($0, h) } != 0 }
    /// Whether the catalog has a logical structure (a tagged PDF's `/StructTreeRoot`).
    var hasStructureTree: Bool {
        get throws { try has(try root(), "/StructTreeRoot") }
    }
    func isInteger(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_integer($0, h) } != 0 }
    func isName(_ h: Handle, _ name: String) throws -> Bool { try call { qpdf_oh_is_name_and_equals($0, h, name) } != 0 }
    func items(_ array: Handle) throws -> [Handle] {
        let count = try call { qpdf_oh_get_array_n_items($0, array) }
        return try (0..<max(0, Int(count))).map { i in try call { qpdf_oh_get_array_item($0, array, Int32(i)) } }
    }
    func streamDictionary(_ h: Handle) throws -> Handle { try call { qpdf_oh_get_dict($0, h) } }
    /// A dictionary's keys (with their slashes), in qpdf's order.
    func keys(_ dictionary: Handle) throws -> [String] {
        try call { qpdf_oh_begin_dict_key_iter($0, dictionary) }
        var keys: [String] = []
        while try call({ qpdf_oh_dict_more_keys($0) }) != 0 {
            if let key = try call({ qpdf_oh_dict_next_key($0) }) { keys.append(String(cString: key)) }
        }
        return keys
    }
    func object(_ id: Int) throws -> Handle { try call { qpdf_get_object_by_id($0, Int32(id), 0) } }
    func intValue(_ h: Handle) throws -> Int {
        guard try call({ qpdf_oh_is_integer($0, h) }) != 0 else { return 0 }
        return Int(try call { qpdf_oh_get_int_value($0, h) })
    }

    /// A string object's bytes as text (PDFDocEncoding or UTF-16 decoded by qpdf).
    func utf8(_ h: Handle) throws -> String {
        try call { q -> String in
            var length = 0
            guard let p = qpdf_oh_get_binary_utf8_value(q, h, &length) else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
        }
    }

    func rect(_ h: Handle) throws -> PDFRect? {
        guard try call({ qpdf_oh_is_array($0, h) }) != 0, try call({ qpdf_oh_get_array_n_items($0, h) }) == 4 else { return nil }
        var v: [Double] = []
        for i in 0..<4 {
            let item = try call { qpdf_oh_get_array_item($0, h, Int32(i)) }
            defer { release(item) }
            guard try call({ qpdf_oh_is_number($0, item) }) != 0 else { return nil }
            v.append(try call { qpdf_oh_get_numeric_value($0, item) })
        }
        return PDFRect(llx: min(v[0], v[2]), lly: min(v[1], v[3]), urx: max(v[0], v[2]), ury: max(v[1], v[3]))
    }

    /// Lets qpdf forget a handle this code is done with. Every handle stays in a table until then
    /// (or until the document goes), so a loop over hundreds of pages releases what it made.
    func release(_ h: Handle) { qpdf_oh_release(q, h) }

    /// A page attribute that may be inherited from the page tree (MediaBox, Resources…).
    func inherited(_ page: Handle, _ key: String) throws -> Handle? {
        var node = page
        defer { if node != page { release(node) } }
        for _ in 0..<64 {
            if try has(node, key) { return try get(node, key) }
            guard try has(node, "/Parent") else { return nil }
            let parent = try get(node, "/Parent")
            if node != page { release(node) }
            node = parent
        }
        return nil
    }

    // MARK: Making objects

    func dictionary(_ entries: [(String, Handle)] = []) throws -> Handle {
        let d = try call { qpdf_oh_new_dictionary($0) }
        for (k, v) in entries { try set(d, k, v) }
        return d
    }

    func array(_ items: [Handle]) throws -> Handle {
        let a = try call { qpdf_oh_new_array($0) }
        for item in items { try call { qpdf_oh_append_item($0, a, item) } }
        return a
    }

    func name(_ n: String) throws -> Handle { try call { qpdf_oh_new_name($0, "/" + n) } }
    func integer(_ v: Int) throws -> Handle { try call { qpdf_oh_new_integer($0, Int64(v)) } }
    func boolean(_ v: Bool) throws -> Handle { try call { qpdf_oh_new_bool($0, v ? 1 : 0) } }
    func null() throws -> Handle { try call { qpdf_oh_new_null($0) } }
    func bytes(_ ascii: String) throws -> Handle { try call { qpdf_oh_new_string($0, ascii) } }

    /// PDFDocEncoding when the text fits it, otherwise UTF-16BE with a byte order mark (qpdf decides).
    func text(_ s: String) throws -> Handle { try call { qpdf_oh_new_unicode_string($0, s) } }

    /// Whole numbers as integers, others with at most four decimals, always written the same way.
    func number(_ v: Double) throws -> Handle {
        if v == v.rounded(), abs(v) < 1e12 { return try integer(Int(v)) }
        let s = Self.numberText(v)
        return try call { qpdf_oh_new_real_from_string($0, s) }
    }

    func rectArray(_ r: PDFRect) throws -> Handle {
        // One parse instead of nine calls; the same objects as `number` makes.
        let text = "[" + [r.llx, r.lly, r.urx, r.ury].map(Self.numberText).joined(separator: " ") + "]"
        return try call { qpdf_oh_parse($0, text) }
    }

    /// How `number` writes `v`.
    static func numberText(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e12 { return String(Int(v)) }
        var s = String(format: "%.4f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// `h` as a new indirect object, numbered after the file's last. Not qpdf's own
    /// `make_indirect_object`: to find a free number that reads and parses every object of the
    /// file once (a tenth of a long book's finishing, and memory for objects nothing else needs).
    func indirect(_ h: Handle) throws -> Handle {
        if try call({ qpdf_oh_is_indirect($0, h) }) != 0 {
            try touch(h)
            return h
        }
        var id = try nextObjectID ?? max(1, intValue(try get(try trailer(), "/Size")))
        // A number the trailer's /Size should have counted but that the file uses is skipped.
        while try !isNull(try call { qpdf_get_object_by_id($0, Int32(id), 0) }) { id += 1 }
        try call { qpdf_replace_object($0, Int32(id), 0, h) }
        nextObjectID = id + 1
        let made = try call { qpdf_get_object_by_id($0, Int32(id), 0) }
        try touch(made)
        return made
    }
    private var nextObjectID: Int?

    /// The object number of an indirect object, nil for a direct one.
    func objectID(_ h: Handle) throws -> Int? {
        guard try call({ qpdf_oh_is_indirect($0, h) }) != 0 else { return nil }
        return Int(try call { qpdf_oh_get_object_id($0, h) })
    }

    private func touch(_ h: Handle) throws {
        if let known = touchedHandles[h] {
            if let id = known { touched.insert(id) }
            return
        }
        let id = try objectID(h)
        touchedHandles[h] = .some(id)
        if let id { touched.insert(id) }
    }
    /// Object numbers of handles already touched (nil for direct objects): a page is set twice.
    private var touchedHandles: [Handle: Int?] = [:]

    /// Object `id` written as PDF syntax, references to other objects as `n g R`; a stream with
    /// its data as it is stored (still compressed when it has a filter).
    func unparsed(_ id: Int) throws -> Data {
        let object = try self.object(id)
        defer { release(object) }
        if let data = ownStreams[id] {
            try call { qpdf_oh_replace_key($0, object, "/Length", qpdf_oh_new_integer($0, Int64(data.count))) }
            let head = try call(in: "writing") { q -> String in qpdf_oh_unparse_resolved(q, object).map { String(cString: $0) } ?? "<<>>" }
            return Data((head + "\nstream\n").utf8) + data + Data("\nendstream".utf8)
        }
        if try isStream(object) { return try unparsed(stream: object) }
        return Data(try call(in: "writing") { q -> String in qpdf_oh_unparse_resolved(q, object).map { String(cString: $0) } ?? "null" }.utf8)
    }

    private func unparsed(stream object: Handle) throws -> Data {
        let dict = try streamDictionary(object)
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var filtered: QPDF_BOOL = 0
        try call(in: "writing") { qpdf_oh_get_stream_data($0, object, qpdf_dl_none, &filtered, &buffer, &length) }
        defer { free(buffer) }
        try call { qpdf_oh_replace_key($0, dict, "/Length", qpdf_oh_new_integer($0, Int64(length))) }
        let head = try call(in: "writing") { q -> String in qpdf_oh_unparse_resolved(q, dict).map { String(cString: $0) } ?? "<<>>" }
        var out = Data((head + "\nstream\n").utf8)
        if let buffer { out.append(buffer, count: length) }
        out.append(Data("\nendstream".utf8))
        return out
    }

    /// A page's content as stored, when it is one stream compressed with Flate alone (as cairo
    /// writes it): for inflating elsewhere, off the thread qpdf is used on. Nil for any other.
    func flatePageContent(_ page: Handle) throws -> [UInt8]? {
        let contents = try get(page, "/Contents")
        guard try isStream(contents) else { return nil }
        let dict = try streamDictionary(contents)
        guard try isName(try get(dict, "/Filter"), "/FlateDecode"), try isNull(try get(dict, "/DecodeParms")) else { return nil }
        return try bytes { q, buffer, length in
            var filtered: QPDF_BOOL = 0
            return qpdf_oh_get_stream_data(q, contents, qpdf_dl_none, &filtered, buffer, length)
        }
    }

    /// A page's content, its streams decoded and joined.
    func pageContent(_ page: Handle) throws -> [UInt8] {
        try bytes { qpdf_oh_get_page_content_data($0, page, $1, $2) }
    }

    /// The bytes a qpdf call hands back in a buffer it allocated, which is freed here.
    private func bytes(_ get: (qpdf_data, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>) -> QPDF_ERROR_CODE)
        throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        _ = try call(in: "reading a page's content") { get($0, &buffer, &length) }
        defer { free(buffer) }
        guard let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// A stream of `data` as it is stored: compressed already when `filter` names how.
    /// For a document finished by an incremental update: new streams are numbered here and
    /// written by the update (`unparsed`), as a dictionary in qpdf with the data kept beside it.
    /// qpdf's own new stream takes a free number the way `make_indirect_object` does, by reading
    /// every object of the file first.
    var writesOwnStreams = false
    private var ownStreams: [Int: Data] = [:]

    private func ownStream(_ data: Data, _ entries: [(String, Handle)]) throws -> Handle {
        let made = try indirect(try dictionary(entries))
        guard let id = try objectID(made) else { throw FinishingError("a new stream got no object number") }
        ownStreams[id] = data
        return made
    }

    func stream(data: Data, filter: Handle) throws -> Handle {
        if writesOwnStreams { return try ownStream(data, [("/Filter", filter)]) }
        let s = try call { qpdf_oh_new_stream($0) }
        let null = try self.null()
        try data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            try call { qpdf_oh_replace_stream_data($0, s, base, raw.count, filter, null) }
        }
        return s
    }

    func stream(data: Data, dictionary entries: [(String, Handle)]) throws -> Handle {
        if writesOwnStreams { return try ownStream(data, entries) }
        let s = try call { qpdf_oh_new_stream($0) }
        let null = try self.null()
        try data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            try call { qpdf_oh_replace_stream_data($0, s, base, raw.count, null, null) }
        }
        let dict = try call { qpdf_oh_get_dict($0, s) }
        for (k, v) in entries { try set(dict, k, v) }
        return s
    }

    func set(_ object: Handle, _ key: String, _ value: Handle) throws {
        try call { qpdf_oh_replace_key($0, object, key, value) }
        try touch(object)
    }

    /// Replaces item `index` of `array`; `owner` is the indirect object that holds the array (the
    /// array itself when it is one), which an incremental update must write again.
    func setItem(_ array: Handle, _ index: Int, _ value: Handle, owner: Handle) throws {
        try call { qpdf_oh_set_array_item($0, array, Int32(index), value) }
        try touch(owner)
    }

    func remove(_ object: Handle, _ key: String) throws {
        guard try has(object, key) else { return }
        try call { qpdf_oh_remove_key($0, object, key) }
        try touch(object)
    }

    // MARK: Writing

    struct WriteOptions {
        /// Keep the input's object streams as they are; PDF/X-1a (PDF 1.3) must have none.
        var objectStreams: qpdf_object_stream_e = qpdf_o_preserve
        /// The PDF version the file declares, whatever the input's (PDF/X-1a: "1.3").
        var version: String?
    }

    /// Writes the whole file to `url`. The ID is derived from the content, not the clock.
    /// `target`: the file `url` becomes, which a failed write (a full disk) names.
    func write(to url: URL, naming target: URL? = nil, options: WriteOptions = WriteOptions()) throws {
        try writing(target ?? url) { qpdf_init_write($0, url.path) }
        try call(in: "writing") { qpdf_set_deterministic_ID($0, 1) }
        try call(in: "writing") { qpdf_set_object_stream_mode($0, options.objectStreams) }
        if let version = options.version { try call(in: "writing") { qpdf_force_pdf_version($0, version) } }
        try writing(target ?? url) { qpdf_write($0) }
        let warnings = drainWarnings()
        if !warnings.isEmpty {
            throw FinishingError("writing \(url.path): \(warnings.joined(separator: "; "))")
        }
    }
}
