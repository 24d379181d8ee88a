// Typed setters for the socket options this project relies on; all go through `zmq_setsockopt` and the error funnel.
import CZeroMQ

extension ZMQSocket {
    /// Applies every field of `options`. Called at creation; call again to change several options at once.
    public func apply(_ options: ZMQSocketOptions) throws(ZMQError) {
        try setMaxMessageSize(options.maxMessageBytes)
        try setLinger(milliseconds: options.lingerMilliseconds)
        try setSendHighWaterMark(options.sendHighWaterMark)
        try setReceiveHighWaterMark(options.receiveHighWaterMark)
        try setHandshakeInterval(milliseconds: options.handshakeIntervalMilliseconds)
        try setReceiveTimeout(milliseconds: options.receiveTimeoutMilliseconds)
        try setSendTimeout(milliseconds: options.sendTimeoutMilliseconds)
        try setImmediate(options.immediate)
        try setReconnectInterval(milliseconds: options.reconnectIntervalMilliseconds,
                                 maxMilliseconds: options.reconnectIntervalMaxMilliseconds)
        if let routingID = options.routingID { try setRoutingID(routingID) }
        if options.routerMandatory { try setRouterMandatory(true) }
    }

    /// ZMQ_MAXMSGSIZE: inbound messages larger than `bytes` make libzmq drop the connection; `-1` = unlimited.
    public func setMaxMessageSize(_ bytes: Int64) throws(ZMQError) { try setOption(ZMQ_MAXMSGSIZE, bytes) }
    /// ZMQ_LINGER in ms.
    public func setLinger(milliseconds: Int32) throws(ZMQError) { try setOption(ZMQ_LINGER, milliseconds) }
    /// ZMQ_SNDHWM in messages.
    public func setSendHighWaterMark(_ messages: Int32) throws(ZMQError) { try setOption(ZMQ_SNDHWM, messages) }
    /// ZMQ_RCVHWM in messages.
    public func setReceiveHighWaterMark(_ messages: Int32) throws(ZMQError) { try setOption(ZMQ_RCVHWM, messages) }
    /// ZMQ_HANDSHAKE_IVL in ms.
    public func setHandshakeInterval(milliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_HANDSHAKE_IVL, milliseconds)
    }
    /// ZMQ_RCVTIMEO in ms (`-1` = forever).
    public func setReceiveTimeout(milliseconds: Int32) throws(ZMQError) { try setOption(ZMQ_RCVTIMEO, milliseconds) }
    /// ZMQ_SNDTIMEO in ms (`-1` = forever).
    public func setSendTimeout(milliseconds: Int32) throws(ZMQError) { try setOption(ZMQ_SNDTIMEO, milliseconds) }
    /// ZMQ_IMMEDIATE.
    public func setImmediate(_ enabled: Bool) throws(ZMQError) { try setOption(ZMQ_IMMEDIATE, Int32(enabled ? 1 : 0)) }
    /// ZMQ_RECONNECT_IVL and ZMQ_RECONNECT_IVL_MAX in ms.
    public func setReconnectInterval(milliseconds: Int32, maxMilliseconds: Int32) throws(ZMQError) {
        try setOption(ZMQ_RECONNECT_IVL, milliseconds)
        try setOption(ZMQ_RECONNECT_IVL_MAX, maxMilliseconds)
    }
    /// ZMQ_ROUTING_ID (1...255 bytes, set before connecting).
    public func setRoutingID(_ id: [UInt8]) throws(ZMQError) {
        let socket = try open("zmq_setsockopt")
        try ZMQCall.check("zmq_setsockopt") {
            id.withUnsafeBytes { zmq_setsockopt(socket, ZMQ_ROUTING_ID, $0.baseAddress, $0.count) }
        }
    }
    /// ZMQ_ROUTER_MANDATORY (ROUTER sockets only).
    public func setRouterMandatory(_ enabled: Bool) throws(ZMQError) {
        try setOption(ZMQ_ROUTER_MANDATORY, Int32(enabled ? 1 : 0))
    }

    /// `Value` must match the C option type exactly (int or int64_t), or libzmq answers EINVAL.
    private func setOption<Value: FixedWidthInteger>(_ name: Int32, _ value: Value) throws(ZMQError) {
        let socket = try open("zmq_setsockopt")
        var value = value
        try ZMQCall.check("zmq_setsockopt") {
            zmq_setsockopt(socket, name, &value, MemoryLayout<Value>.size)
        }
    }
}
