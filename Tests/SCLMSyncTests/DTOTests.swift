import Foundation
import SCLMCore
import SCLMStore
import SCLMSync
import SCLMTestSupport
import Testing

/// Decoding of the StoryCLM JSON shapes (the StoryCLM content API's examples), tolerant of nulls,
/// missing optional fields and odd elements.
@Suite(.tags(.small)) struct DTOTests {
    static let presentationJSON = """
        {"id":17,"name":"CLM","shortDescription":null,"longDescription":null,"thumbImgId":"","imgId":"https://x/images/e7da.png",
         "order":3,"revision":14,"created":"2016-12-27T11:06:14.447","updated":"2016-12-27T11:09:49.1870000","clientId":1,
         "debugModeEnabled":false,"skip":false,"mapEnabled":true,"mapType":0,"needConfirmation":true,"previewMode":1,"map":null,"visibility":true,
         "sourcesFolder":{"id":16,"blobId":"b43e5d","fileSize":9203268,"mimeType":"application/zip","revision":1,"created":"2016-12-27T11:06:14","updated":null},
         "mediaFiles":[{"fileSize":721878,"id":118,"revision":0}],
         "slides":[{"id":2140,"revision":0},{"id":2141,"revision":0},{"revision":3}],
         "presentations":[], "users":[{"revision":14,"id":"fe84","role":0}]}
        """

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test func decodesTheReferencePresentation() throws {
        let presentation = try decode(PresentationDTO.self, DTOTests.presentationJSON)
        #expect(presentation.id == 17 && presentation.revision == 14 && presentation.order == 3)
        #expect(presentation.shortDescription == nil && presentation.map == nil)
        #expect(presentation.needConfirmation && presentation.mapEnabled && presentation.visibility)
        #expect(presentation.slides.map(\.id) == [2140, 2141])
        #expect(presentation.mediaFiles.first?.fileSize == 721878)
        let package = try #require(presentation.sourcesFolder)
        #expect(package.id == 16 && package.revision == 1 && package.fileSize == 9203268 && package.updated == nil)
        let record = presentation.record(clientId: 99, lockout: true, rawData: DTOTests.presentationJSON)
        #expect(record.clientId == 99, "the listing's client (a record naming another one is refused before)")
        #expect(record.lockout)
        #expect(record.updatedDate == "2016-12-27T11:09:49.1870000")
    }

    @Test func aRecordContradictingItsListingSaysHow() throws {
        let presentation = try decode(PresentationDTO.self, DTOTests.presentationJSON)
        #expect(presentation.inconsistency(listedId: 17, listedClientId: 1) == nil)
        #expect(
            presentation.inconsistency(listedId: 16, listedClientId: 1)?.contains("presentation 17 instead") == true)
        #expect(
            presentation.inconsistency(listedId: 17, listedClientId: 2)
                == "its record names client 1, but it is listed by client 2 in /v1/clients")
        let clientless = try decode(PresentationDTO.self, #"{"id":17,"revision":1}"#)
        #expect(clientless.inconsistency(listedId: 17, listedClientId: 2) == nil, "the listing's client is used")
    }

    @Test func serverDatesWithoutAZoneAreKeptAsSentAndReadAsUTC() throws {
        let presentation = try decode(PresentationDTO.self, DTOTests.presentationJSON)
        let created = try #require(presentation.created.flatMap(Timestamp.date(from:)))
        #expect(created == Date(timeIntervalSince1970: 1_482_836_774.447))
        let updated = try #require(presentation.updated.flatMap(Timestamp.date(from:)))
        #expect(abs(updated.timeIntervalSince1970 - 1_482_836_989.187) < 0.001)
    }

    @Test func toleratesMissingAndNullOptionalFields() throws {
        let presentation = try decode(PresentationDTO.self, #"{"id":5,"revision":2,"name":null,"skip":"yes"}"#)
        #expect(presentation.name == "" && presentation.order == -1 && !presentation.skip && presentation.visibility)
        #expect(presentation.slides.isEmpty && presentation.sourcesFolder == nil && presentation.clientId == nil)
        let client = try decode(ClientDTO.self, #"{"id":1}"#)
        #expect(client.name == "" && client.presentations.isEmpty && !client.lockoutEnabled)
    }

    @Test func requiresTheIdentity() {
        #expect(throws: DecodingError.self) { try decode(PresentationDTO.self, #"{"revision":2}"#) }
        #expect(throws: DecodingError.self) { try decode(PresentationDTO.self, #"{"id":2}"#) }
    }

    @Test func decodesAClientListWithStubs() throws {
        let clients = try decode(
            [ClientDTO].self,
            """
            [{"id":1,"name":"Demo Pharma","lockoutEnabled":false,"shortDescription":"d","longDescription":null,"thumbImgId":null,
              "imgId":null,"url":"https://x","email":"a@b","created":"2020-01-01T00:00:00.000","updated":"2020-01-02T00:00:00.000",
              "presentations":[{"id":101,"revision":4,"debug":false,"skip":false,"lockout":false},{"id":202,"revision":1,"debug":true,"skip":true,"lockout":true}],
              "users":[{"id":"u","role":0,"revision":1}],"groups":[],"tables":[]}]
            """)
        #expect(clients.count == 1)
        #expect(
            clients[0].presentations == [
                PresentationStubDTO(id: 101, revision: 4),
                PresentationStubDTO(id: 202, revision: 1, debug: true, skip: true, lockout: true),
            ])
        let record = clients[0].record(synchronized: "2026-01-01T00:00:00.000Z")
        #expect(record.email == "a@b" && record.updatedDate == "2020-01-02T00:00:00.000")
    }

    @Test func decodesSlidesMediaFilesAndPackages() throws {
        let slide = try decode(
            SlideDTO.self,
            #"{"id":2140,"revision":0,"name":"10.html","pageSource":"PGh0bWw+","linkedSlides":"9.html,11.html","swipeNext":"11.html","swipePrevious":"9.html","created":"2016-12-27T11:06:14.447","updated":"2016-12-27T11:06:14.447"}"#
        )
        #expect(
            slide.record(presentationId: 17, position: 2)
                == SlideRecord(
                    slideId: 2140, presentationId: 17, position: 2, revision: 0, name: "10.html",
                    pageSource: "PGh0bWw+",
                    linkedSlides: "9.html,11.html", swipeNext: "11.html", swipePrevious: "9.html",
                    created: "2016-12-27T11:06:14.447",
                    updatedDate: "2016-12-27T11:06:14.447"))
        let media = try decode(
            MediaFileDTO.self,
            #"{"id":118,"revision":0,"fileName":"mediafile1.pdf","title":"mediafile1.pdf","blobId":"abc","fileSize":721878,"mimeType":"application/pdf","created":"x","updated":"y","sas":"https://h/mediafiles/abc?sig=1","isAvailableForSharing":false}"#
        )
        #expect(media.sas != nil)
        #expect(!media.record(presentationId: 17, position: 0).isAvailableForSharing)
        let package = try decode(
            ContentPackageDTO.self,
            #"{"id":16,"revision":1,"sas":"https://h/packages/b?sig=1","blobId":"b","fileSize":9203268,"mimeType":"application/zip","created":"x","updated":"y"}"#
        )
        #expect(
            package.record(presentationId: 17)
                == ContentPackageRecord(
                    presentationId: 17, contentPackageId: 16, revision: 1, blobId: "b", fileSize: 9203268,
                    mimeType: "application/zip",
                    created: "x", updatedDate: "y"))
    }
}
