public import Testing

extension Tag {
    /// Tests that share keys, plans, tables, encryptors or the batch pipeline across threads. CI runs
    /// exactly this set under ThreadSanitizer (.ci/run; `Scripts/tagged-tests.py concurrency` turns
    /// the tag into a `--filter` regex, since `swift test` cannot filter by tag yet).
    @Tag public static var concurrency: Self
}
