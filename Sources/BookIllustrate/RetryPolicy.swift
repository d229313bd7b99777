import Foundation

/// When to try again: the provider's hint when it gives one, else exponential backoff with jitter.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    /// First backoff; doubles each attempt.
    public var baseDelay: Double
    public var maxDelay: Double
    /// The longest wait a provider's hint may impose (`--max-wait`); a longer one leaves the page
    /// for a later run instead of holding its place in the queue.
    public var maxWait: Double
    /// Connections that could not be made, in a row, before the run gives up.
    public var connectionAttempts: Int
    /// Seconds since the first of those failures after which the run gives up however few there were.
    public var connectionBudget: Double

    public init(maxAttempts: Int = 5, baseDelay: Double = 1, maxDelay: Double = 60, maxWait: Double = 60,
                connectionAttempts: Int = 5, connectionBudget: Double = 60) {
        self.maxAttempts = maxAttempts; self.baseDelay = baseDelay; self.maxDelay = maxDelay; self.maxWait = maxWait
        self.connectionAttempts = max(1, connectionAttempts); self.connectionBudget = connectionBudget
    }

    /// `attempt` is the one that just failed (1-based). A hint is honoured in full, plus a little
    /// jitter so pages told the same delay do not all return in the same instant.
    public func delay(afterAttempt attempt: Int, hint: Double?) -> Double {
        if let hint { return min(hint, maxWait) + Double.random(in: 0...min(0.25, hint * 0.1 + 0.01)) }
        let exp = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return exp / 2 + Double.random(in: 0...(exp / 2))
    }
}
