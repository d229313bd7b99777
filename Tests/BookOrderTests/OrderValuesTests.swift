import Foundation
import Testing
import BookBase
@testable import BookOrder

/// Money as Lulu sends it, the product code, and the address, before anything is sent.
@Suite struct OrderValuesTests {
    @Test func moneyIsDecimalAndKeepsItsDigits() throws {
        let a = try #require(Money("0.10")), b = try #require(Money("0.20"))
        // In binary floating point 0.1 + 0.2 is 0.30000000000000004.
        #expect((a + b).description == "0.30")
        #expect((a + b).amount == Decimal(string: "0.3"))
        #expect(try #require(Money("14")).description == "14")
        #expect(try #require(Money("1759.40")).description == "1759.40")
        #expect((try #require(Money("2.55")) * 20).description == "51.00")
        #expect(try #require(Money("-0.75")).description == "-0.75")
        for bad in ["1e3", "12,50", " 12", "12.", ".5", "NaN", "", "-", "1.2.3", "０.５"] {
            #expect(Money(bad) == nil, "\(bad)")
        }
        // Reports carry amounts as strings, so a program never reads a float.
        let json = String(decoding: try JSONEncoder().encode(["total": try #require(Money("2257.37"))]), as: UTF8.self)
        #expect(json == #"{"total":"2257.37"}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: Money].self, from: Data(#"{"total": 2257.37}"#.utf8)) }
    }

    @Test func theProductCodeIsLulusTwentySevenCharacters() throws {
        // 6.875 in is written 0687 (Lulu's own example), 8.27 in (A4) 0827.
        #expect(PodPackage.hundredths(points: 6.875 * 72) == 687)
        #expect(PodPackage.hundredths(points: 8.27 * 72) == 827)
        #expect(PodPackage.hundredths(points: 595.28) == 826)
        let p = try #require(PodPackage("0600X0900.BW.STD.PB.060UW444.MXX"))
        #expect(p.description == "0600X0900BWSTDPB060UW444MXX" && p.description.count == 27)
        #expect(p.spoken == "6 × 9 in, black and white, standard, perfect bound paperback, 60# uncoated white, matte")
        #expect(PodPackage("0600X0900BWSTDZZ060UW444MXX") == nil)
        #expect(PodPackage("0600X0900BWSTDPB060UW444MX") == nil)

        var choice = ProductChoice()
        let storybook = try choice.package(trimWidth: 612, trimHeight: 792, storybook: true, hasPictures: true)
        #expect(storybook.description == "0850X1100FCPREPB080CW444GXX")
        choice.binding = "hardcover"
        choice.finish = .matte
        #expect(try choice.package(trimWidth: 612, trimHeight: 612, storybook: true, hasPictures: true).description == "0850X0850FCPRECW080CW444MXX")
        let memoir = try ProductChoice().package(trimWidth: 432, trimHeight: 648, storybook: false, hasPictures: false)
        #expect(memoir.description == "0600X0900BWSTDPB060UW444MXX")
        var cream = ProductChoice()
        cream.paper = "cream"
        #expect(throws: OrderError.self) { try cream.package(trimWidth: 432, trimHeight: 648, storybook: false, hasPictures: true) }
    }

    @Test func anAddressIsCheckedFieldByField() throws {
        let good = #"{"name": "Ada Whitlow", "street1": "101 Independence Ave SE", "city": "Washington", "state_code": "DC", "postcode": "20540", "country_code": "us", "phone_number": "+1 206 555 0100", "email": "ada@example.com", "is_business": false}"#
        let a = try ShippingAddress.parse(Data(good.utf8), file: "ship.json")
        #expect(a.countryCode == "US" && a.isBusiness == false)
        let bad = #"{"street1": "1 Main St", "city": "", "country_code": "USA", "phone_number": "12", "email": "nobody", "is_business": 1, "zip": "20540"}"#
        let error = #expect(throws: OrderError.self) { try ShippingAddress.parse(Data(bad.utf8), file: "ship.json") }
        let message = error?.message ?? ""
        for part in ["ship.json: ", "$.zip: not a field", "$.name: missing", "$.city: empty", "$.postcode: missing",
                     "$.country_code: \"USA\" is not a two-letter", "$.phone_number: \"12\"", "$.email: \"nobody\"", "$.is_business: must be true or false"] {
            #expect(message.contains(part), "\(part) in \(message)")
        }
        #expect(error?.kind == .rejected)
        let noState = #"{"name": "A", "street1": "1 Main St", "city": "Austin", "postcode": "73301", "country_code": "US", "phone_number": "+1 512 555 0100"}"#
        #expect(throws: OrderError.self) { try ShippingAddress.parse(Data(noState.utf8), file: "x") }
    }

    @Test func lulusErrorShapesAreReadWithTheirPaths() {
        let drf = #"{"shipping_address": {"phone_number": ["This field is required."]}, "line_items": [{"pod_package_id": ["Invalid."]}]}"#
        #expect(LuluErrorBody.summary(Data(drf.utf8)) == "line_items[0].pod_package_id: Invalid.; shipping_address.phone_number: This field is required.")
        #expect(LuluErrorBody.summary(Data(#"{"detail": "Not found."}"#.utf8)) == "Not found.")
        #expect(LuluErrorBody.summary(Data(#"["Invalid transition from PRODUCTION_READY to CANCELED requested"]"#.utf8))
                == "Invalid transition from PRODUCTION_READY to CANCELED requested")
        #expect(LuluErrorBody.summary(Data(#"{"error": "unauthorized_client", "error_description": "Invalid client secret"}"#.utf8))
                == "unauthorized_client: Invalid client secret")
        #expect(LuluErrorBody.summary(Data("<html>Bad Gateway</html>".utf8)) == "<html>Bad Gateway</html>")
    }

    @Test func webhookSignaturesAreCheckedOverTheRawBody() {
        let body = Data(#"{"topic": "PRINT_JOB_STATUS_CHANGED", "data": {"id": 7}}"#.utf8)
        let secret = Data("b1050b59-61e6-4053".utf8)
        let mac = HMAC.sha256(key: secret, message: body)
        let hex = mac.map { String(format: "%02x", $0) }.joined()
        #expect(LuluWebhook.verify(body: body, signature: hex, secret: secret))
        #expect(LuluWebhook.verify(body: body, signature: hex.uppercased(), secret: secret))
        #expect(LuluWebhook.verify(body: body, signature: mac.base64EncodedString(), secret: secret))
        #expect(!LuluWebhook.verify(body: body + Data(" ".utf8), signature: hex, secret: secret), "re-serialized JSON is another body")
        let tampered = (hex.first == "0" ? "1" : "0") + hex.dropFirst()
        #expect(!LuluWebhook.verify(body: body, signature: tampered, secret: secret))
        #expect(!LuluWebhook.verify(body: body, signature: nil, secret: secret))
        #expect(!LuluWebhook.verify(body: body, signature: hex, secret: Data()))
    }
}
