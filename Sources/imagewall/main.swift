import WallCommand

ImageWallCommand.mainNamingSubcommandFirst()
