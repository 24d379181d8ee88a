@testable import HTTPServer
import Testing

@Suite struct RequestTargetTests {
    @Test func pathIsPercentDecodedButPlusStaysLiteral() {
        let target = RequestTarget(raw: "/files/a%20b+c%2Fd")
        #expect(target.path == "/files/a b+c/d")
        #expect(target.rawQuery == "")
        #expect(target.queryItems.isEmpty)
    }

    @Test func queryItemsKeepOrderDuplicatesAndDecodePlus() {
        let target = RequestTarget(raw: "/s?q=J%C3%BCrgen+Schmidt&tag=a&tag=b&flag&empty=&=nameless")
        #expect(target.path == "/s")
        #expect(target.rawQuery == "q=J%C3%BCrgen+Schmidt&tag=a&tag=b&flag&empty=&=nameless")
        #expect(target.queryItems == [
            .init(name: "q", value: "Jürgen Schmidt"), .init(name: "tag", value: "a"), .init(name: "tag", value: "b"),
            .init(name: "flag", value: ""), .init(name: "empty", value: ""), .init(name: "", value: "nameless"),
        ])
    }

    @Test func malformedEscapesAreKeptAsWritten() {
        let target = RequestTarget(raw: "/x%zz%4?a=%&b=%e2%82")
        #expect(target.path == "/x%zz%4")
        #expect(target.queryItems.first?.value == "%")
        #expect(target.queryItems.last?.value == "\u{FFFD}")
    }

    @Test func emptyTargetAndFragment() {
        #expect(RequestTarget(raw: "").path == "/")
        let target = RequestTarget(raw: "/p?a=1#frag")
        #expect(target.rawQuery == "a=1")
        #expect(target.queryItems == [.init(name: "a", value: "1")])
    }

    @Test func requestQueryTakesFirstValuePerName() {
        let request = HTTPRequest(method: "GET", path: "/", queryItems: [("k", "1"), ("k", "2"), ("j", "3")],
                                  headers: ["x-id": "7"])
        #expect(request.query == ["k": "1", "j": "3"])
        #expect(request.header("X-Id") == "7")
    }
}
