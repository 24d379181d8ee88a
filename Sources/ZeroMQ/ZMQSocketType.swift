import CZeroMQ

/// The libzmq socket patterns this wrapper supports.
public enum ZMQSocketType: Sendable, CustomStringConvertible {
    case router, dealer, request, reply, pair

    var rawValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .request: ZMQ_REQ
        case .reply: ZMQ_REP
        case .pair: ZMQ_PAIR
        }
    }

    public var description: String {
        switch self {
        case .router: "ROUTER"
        case .dealer: "DEALER"
        case .request: "REQ"
        case .reply: "REP"
        case .pair: "PAIR"
        }
    }
}
