import CSECore
import CSEValidation

/// The `--mask` option of `format` and `unformat`, parsed when the command line is read so a bad
/// mask is a usage error.
enum MaskOption {
    /// Parses `text` as a mask.
    /// - Throws: ``UsageError`` naming the mask error's code and offset.
    static func parse(_ text: String) throws(UsageError) -> Mask {
        do throws(CSEError) {
            return try Mask(text)
        } catch {
            throw UsageError("The value for '--mask' is not a valid mask: \(error.description).")
        }
    }
}
