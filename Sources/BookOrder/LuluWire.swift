import Foundation

/// The Print API's JSON as its published documentation gives it (api.lulu.com/docs, the OpenAPI
/// description `openapi_public.yml`): requests with exactly the documented fields, answers read
/// for the fields the order uses.
enum LuluWire {
    struct LineItemSpec: Codable, Equatable {
        var page_count: Int
        var pod_package_id: String
        var quantity: Int
    }

    struct CoverDimensionsRequest: Codable {
        var pod_package_id: String
        var interior_page_count: Int
        var unit: String
    }

    struct CoverDimensions: Decodable {
        var width: String
        var height: String
        var unit: String
    }

    struct ValidateInteriorRequest: Codable {
        var source_url: String
        var pod_package_id: String?
    }

    struct ValidateCoverRequest: Codable {
        var source_url: String
        var pod_package_id: String
        var interior_page_count: Int
    }

    /// A file validation's record: the same shape for interior and cover.
    struct Validation: Decodable {
        var id: Int
        var source_url: String?
        var status: String?
        var errors: [String]?
        /// A string in the schema, a number in its example: either is read.
        var page_count: FlexibleInt?
        var valid_pod_package_ids: [String]?
    }

    /// The address of a shipping-options request, which names the country `country`.
    struct ShippingOptionsAddress: Codable {
        var country: String
        var state_code: String?
        var city: String?
        var postcode: String?
        var street1: String?
        var street2: String?
        var is_business: Bool?
    }

    struct ShippingOptionsRequest: Codable {
        var currency: String?
        var line_items: [LineItemSpec]
        var shipping_address: ShippingOptionsAddress
    }

    struct ShippingOption: Decodable {
        var id: Int?
        var level: String
        var cost_excl_tax: Money?
        var currency: String?
        var min_delivery_date: String?
        var max_delivery_date: String?
        var total_days_min: Int?
        var total_days_max: Int?
        var traceable: Bool?
    }

    struct CostCalculationRequest: Codable {
        var line_items: [LineItemSpec]
        var shipping_address: ShippingAddress
        var shipping_option: String
    }

    struct CostPart: Decodable {
        var total_cost_excl_tax: Money?
        var total_cost_incl_tax: Money?
        var total_tax: Money?
        var tax_rate: String?
    }

    struct LineItemCost: Decodable {
        var quantity: Int
        var cost_excl_discounts: Money?
        var total_cost_excl_tax: Money
        var total_cost_incl_tax: Money
        var total_tax: Money
    }

    struct Fee: Decodable {
        var fee_type: String?
        var total_cost_incl_tax: Money?
    }

    struct CostCalculation: Decodable {
        var currency: String
        var line_item_costs: [LineItemCost]
        var shipping_cost: CostPart
        var fulfillment_cost: CostPart?
        var fees: [Fee]?
        var total_cost_excl_tax: Money
        var total_cost_incl_tax: Money
        var total_tax: Money
        var total_discount_amount: Money?
    }

    struct SourceFile: Codable { var source_url: String }

    struct PrintableNormalization: Codable {
        var cover: SourceFile
        var interior: SourceFile
        var pod_package_id: String
    }

    struct PrintJobLineItem: Codable {
        var external_id: String
        var printable_normalization: PrintableNormalization
        var quantity: Int
        var title: String
    }

    struct PrintJobRequest: Codable {
        var contact_email: String
        var external_id: String
        var line_items: [PrintJobLineItem]
        var shipping_address: ShippingAddress
        var shipping_level: String
    }

    struct Status: Codable, Equatable {
        var name: String
        var message: String?
        var changed: String?
    }

    struct PrintJobCosts: Decodable {
        var total_cost_incl_tax: Money?
        var currency: String?
    }

    struct LineItemStatus: Decodable {
        var name: String?
    }

    struct PrintJobLine: Decodable {
        var id: Int?
        var status: LineItemStatus?
        var tracking_id: String?
        var tracking_urls: [String]?
    }

    struct PrintJob: Decodable {
        var id: Int
        var external_id: String?
        var order_id: String?
        var status: Status
        var costs: PrintJobCosts?
        var line_items: [PrintJobLine]?
    }

    struct PrintJobList: Decodable {
        var count: Int
        var next: String?
        var results: [PrintJob]
    }

    struct Token: Decodable {
        var access_token: String
        var expires_in: Int?
        var token_type: String?
    }

    /// A webhook submission: the topic, and for PRINT_JOB_STATUS_CHANGED the print job as the
    /// print-job details endpoint gives it.
    struct Webhook: Decodable {
        var topic: String
        var data: PrintJob
    }
}

/// An integer Lulu may send as a number or as a string of digits.
struct FlexibleInt: Decodable, Equatable {
    var value: Int
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { value = n; return }
        let text = try c.decode(String.self)
        guard let n = Int(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\"\(text)\" is not a whole number")
        }
        value = n
    }
}

extension ShippingAddress {
    var shippingOptionsAddress: LuluWire.ShippingOptionsAddress {
        .init(country: countryCode, state_code: stateCode, city: city, postcode: postcode, street1: street1, street2: street2,
              is_business: isBusiness)
    }
}
