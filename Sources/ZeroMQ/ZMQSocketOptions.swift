/// Options applied to a socket when it is created. libzmq's own defaults are unsafe against bad peers (no maximum
/// message size, infinite linger), so every field here has a safe default; override what you need.
public struct ZMQSocketOptions: Sendable, Equatable {
    /// Largest inbound message accepted (ZMQ_MAXMSGSIZE); a peer sending more is disconnected. `-1` = unlimited.
    public var maxMessageBytes: Int64 = 16 * 1024 * 1024
    /// How long unsent messages are kept after close (ZMQ_LINGER), in ms. `0` drops them at once.
    public var lingerMilliseconds: Int32 = 0
    /// Outbound queue limit in messages (ZMQ_SNDHWM).
    public var sendHighWaterMark: Int32 = 10_000
    /// Inbound queue limit in messages (ZMQ_RCVHWM).
    public var receiveHighWaterMark: Int32 = 10_000
    /// Time allowed for the ZMTP handshake (ZMQ_HANDSHAKE_IVL), in ms; stalls silent peers out.
    public var handshakeIntervalMilliseconds: Int32 = 5_000
    /// Receive timeout (ZMQ_RCVTIMEO) in ms; `-1` blocks forever. A timeout is reported as `nil`, not an error.
    public var receiveTimeoutMilliseconds: Int32 = -1
    /// Send timeout (ZMQ_SNDTIMEO) in ms; `-1` blocks forever. A timeout is reported as `false`, not an error.
    public var sendTimeoutMilliseconds: Int32 = -1
    /// Queue messages only to completed connections (ZMQ_IMMEDIATE).
    public var immediate: Bool = false
    /// First reconnect delay (ZMQ_RECONNECT_IVL), in ms.
    public var reconnectIntervalMilliseconds: Int32 = 100
    /// Upper bound for the exponential reconnect delay (ZMQ_RECONNECT_IVL_MAX), in ms; `0` keeps it constant.
    public var reconnectIntervalMaxMilliseconds: Int32 = 0
    /// The identity this socket presents to a ROUTER peer (ZMQ_ROUTING_ID); `nil` lets the ROUTER pick one.
    public var routingID: [UInt8]? = nil
    /// ROUTER only: fail sends to unknown peers with `EHOSTUNREACH` instead of dropping them (ZMQ_ROUTER_MANDATORY).
    public var routerMandatory: Bool = false

    public init() {}
}
