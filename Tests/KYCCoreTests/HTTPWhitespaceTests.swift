import KYCCore
import Testing

@Suite struct HTTPWhitespaceTests {
    @Test func spacesAndTabsAreTrimmedAtBothEndsOnly() {
        #expect(" \tkycs_abc def\t ".trimmingHTTPWhitespace() == "kycs_abc def")
        #expect("plain".trimmingHTTPWhitespace() == "plain")
        #expect(" \t ".trimmingHTTPWhitespace() == "")
        #expect("".trimmingHTTPWhitespace() == "")
        #expect("Bearer  ünï ".split(separator: " ", maxSplits: 1)[1].trimmingHTTPWhitespace() == "ünï")
    }

    @Test func lineBreaksAreNotHTTPWhitespace() {
        #expect("\nx\r".trimmingHTTPWhitespace() == "\nx\r")
    }
}
