import Dispatch
import Foundation
@testable import HTTPServer
import KYCCore
import Testing

@Suite struct HTTPServerTests {
    @Test func getPassesDecodedPathQueryAndClientAddress() throws {
        let seen = Shared<HTTPRequest?>(nil)
        try withServer(handler: { request, respond in
            seen.value = request
            respond(HTTPResponse(status: 200, text: "hello"))
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try client.request("GET", "/items/a%20b?name=J%C3%BCrgen&tag=x&tag=y&plus=a+b&empty=")
            #expect(response.status == 200)
            #expect(response.text == "hello")
            let request = try #require(seen.value)
            #expect(request.method == "GET")
            #expect(request.path == "/items/a b")
            #expect(request.rawQuery == "name=J%C3%BCrgen&tag=x&tag=y&plus=a+b&empty=")
            #expect(request.query == ["name": "Jürgen", "tag": "x", "plus": "a b", "empty": ""])
            #expect(request.queryItems.filter { $0.name == "tag" }.map(\.value) == ["x", "y"])
            #expect(request.remoteAddress == "127.0.0.1")
            #expect(request.version == "HTTP/1.1")
            #expect(request.body.isEmpty)
        }
    }

    @Test func postBodyIsEchoed() throws {
        try withServer(handler: { request, respond in
            respond(HTTPResponse(status: 200, contentType: "application/octet-stream", body: request.body))
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let response = try client.request("POST", "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.body == body)
            #expect(response.headers["content-type"] == "application/octet-stream")
        }
    }

    @Test func bodyOverLimitIsAnswered413ByErrorResponderAndServerKeepsServing() throws {
        let handlerCalls = Shared(0)
        try withServer(HTTPServerConfiguration(maxBodyBytes: 1024), handler: { request, respond in
            handlerCalls.update { $0 += 1 }
            respond(HTTPResponse(status: 200, text: "\(request.body.count)"))
        }) { server in
            let atLimit = try RawHTTPClient(port: server.port).request("POST", "/", body: Array(repeating: 7, count: 1024))
            #expect(atLimit.status == 200)
            #expect(atLimit.text == "1024")

            // Only the headers go out: the server must answer from the declared length, without the body.
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
            let refused = try client.readResponse()
            #expect(refused.status == 413)
            #expect(refused.headers["x-fault"] == "bodyTooLarge")
            #expect(refused.text.contains("\"limit\":1024"))
            #expect(handlerCalls.value == 1)

            let after = try RawHTTPClient(port: server.port).request("GET", "/after")
            #expect(after.status == 200)
            #expect(handlerCalls.value == 2)
        }
    }

    @Test func chunkedBodyOverLimitIsAnswered413WithoutCallingHandler() throws {
        let handlerCalls = Shared(0)
        try withServer(HTTPServerConfiguration(maxBodyBytes: 1024), handler: { _, respond in
            handlerCalls.update { $0 += 1 }
            respond(HTTPResponse(status: 200, text: "ok"))
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            var request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = String(repeating: "a", count: 800)
            for _ in 0..<3 { request += "320\r\n\(chunk)\r\n" }
            request += "0\r\n\r\n"
            try client.send(request)
            let refused = try client.readResponse()
            #expect(refused.status == 413)
            #expect(refused.headers["x-fault"] == "bodyTooLarge")
            #expect(handlerCalls.value == 0)

            let after = try RawHTTPClient(port: server.port).request("GET", "/after")
            #expect(after.status == 200)
        }
    }

    @Test func slowReplyFromAnotherThreadDoesNotBlockOtherConnections() throws {
        // One thread only: if a waiting request held it, the fast request could not be answered.
        let slowRespond = Shared<Respond?>(nil)
        try withServer(HTTPServerConfiguration(threadPoolSize: 1), handler: { request, respond in
            if request.path == "/slow" {
                slowRespond.value = respond
            } else {
                respond(HTTPResponse(status: 200, text: "fast"))
            }
        }) { server in
            let slowClient = try RawHTTPClient(port: server.port)
            try slowClient.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(waitUntil { slowRespond.value != nil })

            let fast = try RawHTTPClient(port: server.port).request("GET", "/fast")
            #expect(fast.text == "fast")

            let respond = try #require(slowRespond.value)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
                respond(HTTPResponse(status: 200, text: "slow"))
            }
            let slow = try slowClient.readResponse()
            #expect(slow.status == 200)
            #expect(slow.text == "slow")
            // The resumed connection stays usable.
            #expect(try slowClient.request("GET", "/fast").text == "fast")
        }
    }

    @Test func clientDisconnectWhileSuspendedThenLateReplyIsHarmless() throws {
        let held = Shared<Respond?>(nil)
        try withServer(handler: { request, respond in
            if request.path == "/hold" { held.value = respond } else { respond(HTTPResponse(status: 200, text: "ok")) }
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(waitUntil { held.value != nil })
            client.close()

            let respond = try #require(held.value)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                respond(HTTPResponse(status: 200, text: "too late"))
                respond(HTTPResponse(status: 200, text: "twice"))
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)

            #expect(try RawHTTPClient(port: server.port).request("GET", "/next").text == "ok")
            // The per-request state of the abandoned request was released.
            #expect(waitUntil { server.openRequestCount == 0 })
            respond(HTTPResponse(status: 200, text: "after completion"))
        }
    }

    @Test func manySequentialRequestsShareOneKeepAliveConnection() throws {
        try withServer(handler: { request, respond in
            respond(HTTPResponse(status: 200, text: request.query["n"] ?? "?"))
        }) { server in
            // One socket throughout: if the server closed it, the next request would fail.
            let client = try RawHTTPClient(port: server.port)
            for number in 0..<300 {
                let response = try client.request("GET", "/count?n=\(number)")
                #expect(response.status == 200)
                #expect(response.text == "\(number)")
                #expect(response.headers["connection"]?.lowercased() != "close")
            }
        }
    }

    @Test func suspendedRequestOutlivesTheInactivityTimeout() throws {
        // A suspended connection is exempt from the inactivity timeout; one merely left waiting would be closed
        // after 1 s, so this fails if the server stops suspending.
        try withServer(HTTPServerConfiguration(connectionTimeoutSeconds: 1), handler: { _, respond in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2_500)) {
                respond(HTTPResponse(status: 200, text: "worth the wait"))
            }
        }) { server in
            let client = try RawHTTPClient(port: server.port, readTimeoutSeconds: 10)
            let response = try client.request("GET", "/slow")
            #expect(response.status == 200)
            #expect(response.text == "worth the wait")
        }
    }

    @Test func asynchronousRepliesKeepTheConnectionAlive() throws {
        try withServer(handler: { request, respond in
            DispatchQueue.global().async { respond(HTTPResponse(status: 200, text: request.path)) }
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            for number in 0..<50 {
                #expect(try client.request("GET", "/r\(number)").text == "/r\(number)")
            }
        }
    }

    @Test func headersArePassedThroughBothWays() throws {
        let seen = Shared<HTTPRequest?>(nil)
        try withServer(handler: { request, respond in
            seen.value = request
            respond(HTTPResponse(status: 201, contentType: "application/json", body: Array("{}".utf8),
                                 headers: [("X-Request-Id", request.header("x-request-id") ?? ""),
                                           ("Cache-Control", "no-store"), ("Bad\r\nHeader", "dropped")]))
        }) { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try client.request("GET", "/h", headers: [
                ("X-Request-Id", "req-42"), ("X-Multi", "1"), ("X-Multi", "2"), ("Accept", "application/json"),
            ])
            #expect(response.status == 201)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["x-request-id"] == "req-42")
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.headers["bad"] == nil)
            let request = try #require(seen.value)
            #expect(request.headers["x-request-id"] == "req-42")
            #expect(request.header("X-MULTI") == "1, 2")
            #expect(request.headers["accept"] == "application/json")
            #expect(request.headers["host"] == "127.0.0.1")
        }
    }

    @Test func hundredConcurrentRequestsAreAllAnswered() throws {
        try withServer(handler: { request, respond in
            let reply = HTTPResponse(status: 200, text: "id=\(request.query["id"] ?? "")")
            if (Int(request.query["id"] ?? "") ?? 0).isMultiple(of: 2) {
                respond(reply)
            } else {
                DispatchQueue.global().async { respond(reply) }
            }
        }) { server in
            // All 100 connections are open and all requests sent before any response is read.
            let clients = try (0..<100).map { _ in try RawHTTPClient(port: server.port) }
            for (id, client) in clients.enumerated() {
                try client.send("GET /c?id=\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for (id, client) in clients.enumerated() {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "id=\(id)")
            }
        }
    }

    @Test func stopAnswersSuspendedRequestsAndIgnoresLateReplies() throws {
        let held = Shared<Respond?>(nil)
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0),
                                handler: ClosureHTTPHandler { _, respond in held.value = respond },
                                logger: Logger(service: "http-test", sink: InMemoryLogSink()),
                                errorResponder: taggedErrorResponder)
        try server.start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil { held.value != nil })

        server.stop()
        // The daemon may close the connection before writing the 503; either way nothing crashed.
        if let response = try? client.readResponse() {
            #expect(response.status == 503)
            #expect(response.headers["x-fault"] == "shuttingDown")
        }
        held.value?(HTTPResponse(status: 200, text: "late"))
        server.stop()
        #expect(server.port == 0)
        #expect(server.openRequestCount == 0)
    }

    @Test func startRefusesBadConfigurationSecondStartAndBusyPort() throws {
        let sink = InMemoryLogSink()
        let logger = Logger(service: "http-test", sink: sink)
        let handler = ClosureHTTPHandler { _, respond in respond(HTTPResponse(status: 204)) }

        let badHost = HTTPServer(configuration: HTTPServerConfiguration(host: "example.com", port: 0), handler: handler,
                                 logger: logger)
        #expect(throws: HTTPServerError.self) { try badHost.start() }

        let first = HTTPServer(configuration: HTTPServerConfiguration(port: 0), handler: handler, logger: logger)
        try first.start()
        defer { first.stop() }
        do {
            try first.start()
            Issue.record("second start succeeded")
        } catch let error as HTTPServerError {
            #expect(error.code == .invalidState)
        }

        let clash = HTTPServer(configuration: HTTPServerConfiguration(port: first.port), handler: handler, logger: logger)
        do {
            try clash.start()
            Issue.record("binding a busy port succeeded")
        } catch let error as HTTPServerError {
            #expect(error.code == .startFailed)
            #expect(error.function == "MHD_start_daemon_va")
        }
        // libmicrohttpd's own explanation reaches the structured logger instead of stderr.
        #expect(sink.lines.contains { $0.contains("libmicrohttpd:") && $0.contains("bind") })
    }
}
