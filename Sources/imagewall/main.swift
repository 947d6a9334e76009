import WallCommand

ImageWallCommand.main()
