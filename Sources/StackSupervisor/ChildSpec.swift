/// One program the supervisor keeps running: the gateway or a service, started `instances` times.
public struct ChildSpec: Sendable, Equatable {
    /// Name used in logs and `ChildStatus`, e.g. `"Gateway"`.
    public var name: String
    /// Absolute path of the executable (see `StackSupervisor.locateSiblingExecutable(_:)`).
    public var executablePath: String
    /// Arguments after the program name.
    public var arguments: [String]
    /// Variables set for the child on top of the supervisor's own environment (these win on conflict).
    public var environment: [String: String]
    /// How many copies to run; each is supervised on its own.
    public var instances: Int

    public init(name: String, executablePath: String, arguments: [String] = [],
                environment: [String: String] = [:], instances: Int = 1) {
        self.name = name
        self.executablePath = executablePath
        self.arguments = arguments
        self.environment = environment
        self.instances = instances
    }
}
