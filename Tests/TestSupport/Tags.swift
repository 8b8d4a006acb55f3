import Testing

extension Tag {
    /// Tests that share keys, plans, tables, encryptors or the batch pipeline across threads. CI runs
    /// exactly this set under ThreadSanitizer: `swift test --filter tag:concurrency` (.ci/run).
    @Tag public static var concurrency: Self
}
