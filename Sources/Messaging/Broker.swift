import KYCMessages
public final class Broker: Sendable {}
