import Foundation

/// What Lulu says when it refuses a call. The Print API answers in Django REST framework's shapes:
/// `{"detail": "…"}`, a field's messages `{"shipping_address": {"phone_number": ["This field is
/// required."]}}`, a list of messages, or a bare string; its token endpoint (Keycloak) answers
/// `{"error": "…", "error_description": "…"}`.
enum LuluErrorBody {
    /// "shipping_address.phone_number: This field is required.; detail …", or the body's text.
    static func summary(_ data: Data) -> String {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            let text = String(decoding: data.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "no details" : text
        }
        if let o = root as? [String: Any], let error = o["error"] as? String {
            return [error, o["error_description"] as? String].compactMap { $0 }.joined(separator: ": ")
        }
        var lines: [String] = []
        walk(root, path: "", into: &lines)
        return lines.isEmpty ? "no details" : lines.joined(separator: "; ")
    }

    private static func walk(_ value: Any, path: String, into lines: inout [String]) {
        switch value {
        case let s as String:
            lines.append(path.isEmpty || path == "detail" || path == "non_field_errors" ? s : "\(path): \(s)")
        case let a as [Any]:
            for (i, v) in a.enumerated() {
                // A list of messages belongs to its field; a list of objects (line items) is numbered.
                walk(v, path: v is [String: Any] ? "\(path)[\(i)]" : path, into: &lines)
            }
        case let o as [String: Any]:
            for key in o.keys.sorted() { walk(o[key]!, path: path.isEmpty ? key : "\(path).\(key)", into: &lines) }
        case is NSNull:
            break
        default:
            lines.append(path.isEmpty ? "\(value)" : "\(path): \(value)")
        }
    }
}
