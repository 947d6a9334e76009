import ArgumentParser
import ImageWall
import WallCore

extension RGBAColor: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension ErrorPolicy: ExpressibleByArgument {}
