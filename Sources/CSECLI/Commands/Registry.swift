extension CommandLineTool {
    /// Every subcommand, in the order `cse --help` lists them.
    static let commands: [any CLICommand.Type] = [
        DemoCommand.self,
        SealCommand.self, ValidateCommand.self,
        FormatCommand.self, UnformatCommand.self,
        IINCommand.self, CheckCommand.self,
        EncryptCommand.self, DecryptCommand.self, KeygenCommand.self,
        SignCommand.self, VerifyCommand.self,
    ]
}

extension CommandLineTool {
    /// Every command group (a command whose name starts with a group's name belongs to it).
    static let groups: [CommandGroup] = []
}
