import CSECore
import Testing

/// The code of the `CSEError` that `body` throws, or `nil` when it returns; any other error type
/// is recorded as an issue.
func code(_ body: () throws -> some Any) -> CSEError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as CSEError {
        return error.code
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}
