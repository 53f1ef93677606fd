"""The commands only Ecologies has: `cardtool foodweb` (food-web statistics and pictures) and
`cardtool arrange` (the arrangement solver), one module each with the shape of every cardtool command.

Who may import it: the CLI, through the plugin's CommandSpecs (cardtool.games.plugin.HasCommands), which
import a command's module only when it runs. They import Ecologies' modules and cardtool.commands.common.
"""
