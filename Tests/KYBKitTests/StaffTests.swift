import KYCCrypto
import Foundation
@testable import KYBKit
import KYCMessages
import Messaging
import Testing

@Suite("KYB staff")
struct StaffTests {
    static func member(_ uid: String, identityNo: String = KYBFixture.tckn, birthDate: String = "1985-04-23",
                       phone: String = "0532 123 45 67") -> AddBusinessStaffRequest {
        AddBusinessStaffRequest(businessUID: uid, sessionUID: "ses_abc", name: "Ayşe", surname: "Yılmaz",
                                identityNo: identityNo, birthDate: birthDate, phone: phone)
    }

    @Test func addedStaffIsListedWithANormalisedPhoneAndChecksTrue() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let added = kyb.call("kyb.AddStaff", Self.member(uid))
        #expect(added.status == .ok)
        let reply = try AddBusinessStaffReply(serialized: added.payload)
        #expect(reply.outcome == .created)
        #expect(reply.staff.staffUID.hasPrefix("stf_"))
        #expect(reply.staff.phone == "+905321234567")
        #expect(reply.staff.sessionUID == "ses_abc")
        #expect(reply.staff.createdAtUnixMs == KYBFixture.now)

        let listed = try ListBusinessStaffReply(
            serialized: kyb.call("kyb.ListStaff", ListBusinessStaffRequest(businessUID: uid)).payload).staff
        #expect(listed == [reply.staff])
        let yes = kyb.call("kyb.CheckStaff", CheckBusinessStaffRequest(businessUID: uid, identityNo: KYBFixture.tckn))
        #expect(try CheckBusinessStaffReply(serialized: yes.payload).exists)
        let no = kyb.call("kyb.CheckStaff", CheckBusinessStaffRequest(businessUID: uid,
                                                                       identityNo: KYBFixture.otherTCKN))
        #expect(try CheckBusinessStaffReply(serialized: no.payload).exists == false)
        #expect(try kyb.business(uid).staff == [reply.staff])
    }

    @Test func theSameIdentityTwiceIsAlreadyExistsWithTheExistingMember() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let first = try AddBusinessStaffReply(serialized: kyb.call("kyb.AddStaff", Self.member(uid)).payload)
        let second = try AddBusinessStaffReply(serialized: kyb.call("kyb.AddStaff", Self.member(uid)).payload)
        #expect(second.outcome == .alreadyExists)
        #expect(second.staff.staffUID == first.staff.staffUID)
        let retried = kyb.call("kyb.AddStaff", Self.member(uid, identityNo: KYBFixture.otherTCKN), requestID: "r-7")
        let retriedAgain = kyb.call("kyb.AddStaff", Self.member(uid, identityNo: KYBFixture.otherTCKN),
                                    requestID: "r-7")
        #expect(try AddBusinessStaffReply(serialized: retriedAgain.payload)
            == AddBusinessStaffReply(serialized: retried.payload))
        #expect(try AddBusinessStaffReply(serialized: retriedAgain.payload).outcome == .created)
    }

    @Test(arguments: [
        ("10000000145", "1985-04-23", "0532 123 45 67", "identityNo", "invalid_identity_number"),
        (KYBFixture.tckn, "1985-02-30", "0532 123 45 67", "birthDate", "invalid_date"),
        (KYBFixture.tckn, "23.04.1985", "0532 123 45 67", "birthDate", "invalid_date"),
        (KYBFixture.tckn, "2027-01-01", "0532 123 45 67", "birthDate", "birth_date_in_future"),
        (KYBFixture.tckn, "2026-11-18", "0532 123 45 67", "birthDate", "birth_date_in_future"),
        (KYBFixture.tckn, "2008-11-19", "0532 123 45 67", "birthDate", "underage"),
        (KYBFixture.tckn, "1985-04-23", "12", "phone", "invalid_phone_number|not_a_phone_number"),
        (KYBFixture.tckn, "1985-04-23", "call me", "phone", "invalid_phone_number|not_a_phone_number"),
        (KYBFixture.tckn, "1985-04-23", "", "phone", "required"),
    ])
    func badStaffFieldsAreRefused(identityNo: String, birthDate: String, phone: String, field: String,
                                  code: String) throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.AddStaff", Self.member(uid, identityNo: identityNo, birthDate: birthDate,
                                                         phone: phone))
        #expect(reply.status == .invalidArgument)
        #expect(reply.violations.map(\.field) == [field])
        #expect(code.split(separator: "|").contains(Substring(reply.errorCode)))
    }

    @Test func someoneWhoTurns18TodayMayBeAdded() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        // KYBFixture.now is 2026-11-18 in Türkiye.
        #expect(kyb.call("kyb.AddStaff", Self.member(uid, birthDate: "2008-11-18")).status == .ok)
    }

    @Test func staffOfAnUnknownBusinessIsNotFound() throws {
        let kyb = try KYBFixture()
        #expect(kyb.call("kyb.AddStaff", Self.member("biz_unknown")).status == .notFound)
        #expect(kyb.call("kyb.ListStaff", ListBusinessStaffRequest(businessUID: "biz_unknown")).status == .notFound)
    }
}

@Suite("KYB rules")
struct KYBRulesTests {
    @Test func birthDatesOn29FebruaryComeOfAgeOn1MarchInCommonYears() throws {
        let feb28 = try #require(KYBRules.CalendarDate("2026-02-28"))
        let mar01 = try #require(KYBRules.CalendarDate("2026-03-01"))
        #expect(KYBRules.birthDateViolation("2008-02-29", today: feb28)?.code == "underage")
        #expect(KYBRules.birthDateViolation("2008-02-29", today: mar01) == nil)
        #expect(KYBRules.CalendarDate("2023-02-29") == nil)
        #expect(KYBRules.CalendarDate("2024-02-29") != nil)
    }

    @Test func todayIsTakenInTurkishTime() {
        // 2026-11-30 22:30 UTC is already 1 December in Istanbul.
        let late = Int64(1_796_077_800) * 1000
        #expect(KYBRules.CalendarDate.today(unixMilliseconds: late).text == "2026-12-01")
    }

    @Test func sha256MatchesTheKnownVector() {
        #expect(SHA256.hex(Array("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func fileTypesAreRecognisedByExtensionAndMagicBytes() {
        #expect(DocumentFileType(fileExtension: "JPG") == .jpeg)
        #expect(DocumentFileType(fileExtension: ".pdf") == .pdf)
        #expect(DocumentFileType(fileExtension: "gif") == nil)
        #expect(DocumentFileType(fileExtension: "exe") == nil)
        #expect(DocumentFileType.pdf.matches(SampleFile.pdf))
        #expect(DocumentFileType.jpeg.matches(SampleFile.jpeg))
        #expect(DocumentFileType.png.matches(SampleFile.png))
        #expect(!DocumentFileType.pdf.matches(SampleFile.png))
        #expect(!DocumentFileType.png.matches([0x89, 0x50]))
    }
}
