public import CSECore

extension CSEError.Code {
    /// A row of an IIN CSV file is malformed; the error's context names the 1-based `line` and
    /// the `field`.
    public static let iinMalformedRow = Self("iin.malformedRow")
    /// A line of an IIN CSV file is longer than ``IINTable/Limits/maximumLineLength``.
    public static let iinLineTooLong = Self("iin.lineTooLong")
    /// An IIN CSV file has more rows than ``IINTable/Limits/maximumRows``.
    public static let iinTooManyRows = Self("iin.tooManyRows")
    /// A range of an IIN CSV file has more co-brand rows than
    /// ``IINTable/Limits/maximumCoBrandsPerRange``; the context names the `limit` and either the
    /// 1-based `line` (co-brand rows right after their product row) or the range's 8-digit `low`
    /// and `high` bounds (rows spread over the file).
    public static let iinTooManyCoBrands = Self("iin.tooManyCoBrands")
    /// An IIN CSV file could not be opened or read.
    public static let iinFileUnreadable = Self("iin.fileUnreadable")
    /// An IIN CSV file or buffer is larger than ``IINTable/Limits/maximumFileBytes``.
    public static let iinFileTooLarge = Self("iin.fileTooLarge")
}
