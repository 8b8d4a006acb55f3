import CSECore
import Synchronization

/// The regular-expression work one request may do, in steps, shared by every field of the
/// request and by both engines (see `RegexPattern.maximumStepsPerRequest`).
///
/// On the built-in engine a step is the unit of `RegexPattern.maximumBuiltinStepsPerSearch`
/// (one (instruction, offset) state visited by the backtracker, or one instruction added to a
/// thread list by the Pike VM); on the ICU fallback, one ICU backtracking step, charged 10,000 at
/// a time as ICU reports them.
/// A search may take the lesser of its own limit and what is left here; what it used is charged
/// after it, so a request stops at most one search's overshoot past the budget. Atomic, so a
/// budget shared by mistake between threads stays a bound.
package final class RegexStepBudget: Sendable {
    private let remaining: Atomic<Int>

    /// A budget of `steps`.
    package init(steps: Int = RegexPattern.maximumStepsPerRequest) {
        remaining = Atomic(max(steps, 0))
    }

    /// The steps left (never negative).
    package var remainingSteps: Int { max(remaining.load(ordering: .relaxed), 0) }

    /// Charges `steps` done.
    func charge(_ steps: Int) {
        guard steps > 0 else { return }
        remaining.subtract(steps, ordering: .relaxed)
    }

    /// Empties the budget: a search stopped by it leaves nothing for the next.
    func exhaust() {
        remaining.store(0, ordering: .relaxed)
    }
}
