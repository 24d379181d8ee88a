@testable import HTTPServer
import Testing

@Suite struct ReplyStateMachineTests {
    let ok = HTTPResponse(status: 200, text: "ok")
    let late = HTTPResponse(status: 202, text: "late")

    @Test func replyBeforeHandlerReturnsIsQueuedWithoutSuspending() {
        var machine = ReplyStateMachine()
        #expect(machine.respond(ok) == .stored)
        #expect(machine.handlerReturned() == .queue(HTTPResponseValue(ok)))
        #expect(machine.respond(late) == .ignoredDuplicate)
    }

    @Test func replyAfterSuspensionResumesThenQueuesOnResumedCall() {
        var machine = ReplyStateMachine()
        #expect(machine.handlerReturned() == .suspend)
        #expect(machine.suspendCompleted() == .wait)
        #expect(machine.resumed() == nil)
        #expect(machine.respond(ok) == .resume)
        #expect(machine.respond(late) == .ignoredDuplicate)
        #expect(machine.resumed().map(HTTPResponseValue.init) == HTTPResponseValue(ok))
        #expect(machine.resumed() == nil)
    }

    @Test func replyWhileSuspendingIsResumedByTheServingThread() {
        var machine = ReplyStateMachine()
        #expect(machine.handlerReturned() == .suspend)
        #expect(machine.respond(ok) == .stored)
        #expect(machine.suspendCompleted() == .resume)
        #expect(machine.resumed().map(HTTPResponseValue.init) == HTTPResponseValue(ok))
    }

    @Test func replyAfterCompletionIsIgnoredAndNeverResumes() {
        var machine = ReplyStateMachine()
        #expect(machine.handlerReturned() == .suspend)
        #expect(machine.suspendCompleted() == .wait)
        machine.requestCompleted()
        #expect(machine.respond(ok) == .ignoredFinished)
        #expect(machine.resumed() == nil)
    }

    @Test func refusedSuspensionAnswersWithFallbackOrTheRacingReply() {
        var plain = ReplyStateMachine()
        _ = plain.handlerReturned()
        #expect(plain.suspensionRefused(fallback: late).map(HTTPResponseValue.init) == HTTPResponseValue(late))
        #expect(plain.respond(ok) == .ignoredDuplicate)

        var raced = ReplyStateMachine()
        _ = raced.handlerReturned()
        _ = raced.respond(ok)
        #expect(raced.suspensionRefused(fallback: late).map(HTTPResponseValue.init) == HTTPResponseValue(ok))
    }
}
