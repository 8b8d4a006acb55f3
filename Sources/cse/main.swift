import CSECLI

// The async entry point: `cse` runs its command as a task and exits with its status.
CommandLineTool.runProcess(Array(CommandLine.arguments.dropFirst()))
