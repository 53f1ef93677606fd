"""The commands only Symbiosis has: `cardtool score` (score a table position written as YAML), with the
shape of every cardtool command.

Who may import it: the CLI, through the plugin's CommandSpecs (cardtool.games.plugin.HasCommands), which
import a command's module only when it runs. It imports cardtool.commands.common and the registry.
"""
