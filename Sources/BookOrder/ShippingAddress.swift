import Foundation

/// Where the books go: an address in the shape of Lulu's `shipping_address`, read from a JSON file
/// and checked against what Lulu documents before it is sent.
public struct ShippingAddress: Sendable, Equatable, Codable {
    public var name: String?
    public var organization: String?
    public var street1: String
    public var street2: String?
    public var city: String
    public var stateCode: String?
    public var postcode: String?
    public var countryCode: String
    public var phoneNumber: String
    public var email: String?
    public var isBusiness: Bool?
    public var title: String?
    public var recipientTaxId: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, organization, street1, street2, city, postcode, email, title
        case stateCode = "state_code", countryCode = "country_code", phoneNumber = "phone_number"
        case isBusiness = "is_business", recipientTaxId = "recipient_tax_id"
    }

    /// Countries whose addresses Lulu takes only with a state (ISO 3166-2 subdivision) code.
    static let needState: Set<String> = ["US", "CA", "AU", "MX"]
    /// Countries whose recipients Lulu needs a tax number of (CPF/CNPJ, RUT, RFC).
    static let needTaxID: Set<String> = ["BR", "CL", "MX"]
    static let titles: Set<String> = ["MR", "MISS", "MRS", "MS", "DR"]

    /// Reads and checks the file; every problem names the file and its field.
    public static func read(_ url: URL) throws(OrderError) -> ShippingAddress {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw OrderError(.unreadableInput, "cannot read the address \(url.path); give a JSON file such as "
                             + #"{"name": …, "street1": …, "city": …, "postcode": …, "country_code": "US", "state_code": …, "phone_number": …, "email": …}"#)
        }
        return try parse(data, file: url.path)
    }

    public static func parse(_ data: Data, file: String) throws(OrderError) -> ShippingAddress {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw OrderError(.rejected, "\(file): not a JSON object; write the address as Lulu's shipping_address, e.g. "
                             + #"{"name": "Ada Whitlow", "street1": "101 Independence Ave SE", "city": "Washington", "state_code": "DC", "postcode": "20540", "country_code": "US", "phone_number": "+1 206 555 0100", "email": "ada@example.com"}"#)
        }
        var problems: [String] = []
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        for key in object.keys.sorted() where !known.contains(key) {
            problems.append("$.\(key): not a field of Lulu's shipping_address (\(known.sorted().joined(separator: ", ")))")
        }
        func text(_ key: CodingKeys, required: Bool = false) -> String? {
            switch object[key.stringValue] {
            case nil, is NSNull:
                if required { problems.append("$.\(key.stringValue): missing; Lulu needs it") }
                return nil
            case let s as String:
                let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
                if t.isEmpty, required { problems.append("$.\(key.stringValue): empty; Lulu needs it") }
                return t.isEmpty ? nil : t
            default:
                problems.append("$.\(key.stringValue): must be a string")
                return nil
            }
        }
        let name = text(.name), organization = text(.organization)
        if name == nil, organization == nil { problems.append("$.name: missing; Lulu needs a person's name (or an organization)") }
        let street1 = text(.street1, required: true), street2 = text(.street2), city = text(.city, required: true)
        let state = text(.stateCode), postcode = text(.postcode, required: true)
        let country = text(.countryCode, required: true)?.uppercased()
        let phone = text(.phoneNumber, required: true), email = text(.email), title = text(.title)?.uppercased()
        let taxID = text(.recipientTaxId)
        // JSONDecoder, unlike JSONSerialization, tells a JSON boolean from the numbers 0 and 1.
        struct Flag: Decodable { var is_business: Bool? }
        let isBusiness = try? JSONDecoder().decode(Flag.self, from: data).is_business
        if isBusiness == nil, let b = object[CodingKeys.isBusiness.stringValue], !(b is NSNull) {
            problems.append("$.is_business: must be true or false")
        }
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            problems.append("$.country_code: \"\(country)\" is not a two-letter ISO 3166 country code such as US or DE")
        }
        if let country, needState.contains(country), state == nil {
            problems.append("$.state_code: missing; Lulu needs the state or province code for an address in \(country)")
        }
        if let country, needTaxID.contains(country), taxID == nil {
            problems.append("$.recipient_tax_id: missing; Lulu needs the recipient's tax number for an address in \(country)")
        }
        if let phone, phone.range(of: #"^\+?[\d\s\-./()]{8,20}$"#, options: .regularExpression) == nil {
            problems.append("$.phone_number: \"\(phone)\" is not a phone number Lulu takes (8 to 20 digits, spaces and - . / ( ), an optional leading +)")
        }
        if let email, email.range(of: #"^[^@\s]+@[^@\s]+\.[^@\s]+$"#, options: .regularExpression) == nil {
            problems.append("$.email: \"\(email)\" is not an email address")
        }
        if let title, !titles.contains(title) { problems.append("$.title: must be one of \(titles.sorted().joined(separator: ", "))") }
        if let postcode, postcode.count > 64 { problems.append("$.postcode: longer than Lulu's 64 characters") }
        guard problems.isEmpty, let street1, let city, let country, let phone else {
            throw OrderError(.rejected, "\(file): " + problems.joined(separator: "; "))
        }
        return ShippingAddress(name: name, organization: organization, street1: street1, street2: street2, city: city,
                               stateCode: state, postcode: postcode, countryCode: country, phoneNumber: phone, email: email,
                               isBusiness: isBusiness, title: title, recipientTaxId: taxID)
    }
}
