extension CommandLineTool {
    /// Every subcommand, in the order `cse --help` lists them.
    public static let commands: [any CLICommand.Type] = [
        EncryptCommand.self, DecryptCommand.self, KeygenCommand.self,
    ]
}
