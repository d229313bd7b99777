import Foundation
import BookRenderKit

/// A finished job whose files Lulu may still download is not removed, by `DELETE` or by the
/// data folder's limits: Lulu fetches them through the order's signed addresses while the order
/// is on its way and, once placed, while it prepares the print job for production.
enum OrderHold {
    /// Lulu's print job states before production, in which it may still read the files.
    static let beforeProduction: Set<String> = ["CREATED", "UNPAID", "PAYMENT_IN_PROGRESS", "PRODUCTION_DELAYED", "PRODUCTION_READY"]

    /// Why the job must stay, or nil when nothing of an order needs it.
    static func reason(_ folder: JobFolder) -> String? {
        guard let record = OrderDesk.record(folder) else { return nil }
        if record.inProgress {
            return "its order from Lulu is under way (\(record.state)); remove it once the order is placed or has failed"
        }
        if record.state == "placed", let status = record.status, beforeProduction.contains(status) {
            return "Lulu's print job \(record.printJobId.map(String.init) ?? "") is \(status) and may still download its files; "
                + "remove it once the print job is in production"
        }
        return nil
    }
}
